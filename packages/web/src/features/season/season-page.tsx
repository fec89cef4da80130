import { useState } from 'react'
import { Link } from 'react-router'
import { AUTOTIP_COUNT_LIMIT, CLEAN_SWEEP_BONUS } from '@tipping/contract/constants'
import type { RoundNumber } from '@tipping/contract/ids'
import type { ExplainedTip, RoundExplanation, Season } from '@tipping/contract/season'
import type { Squad } from '@tipping/contract/static-files'
import { formatCount } from '../../lib/numbers.ts'
import { useSport } from '../../lib/sport.ts'
import { squadsById, useSquadsQuery } from '../../lib/static-api.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { numbersPageClasses } from '../../ui/numbers-page.ts'
import { LeagueSection } from './league-section.tsx'
import { PointsChart, PointsLegend } from './points-chart.tsx'
import { RankChart } from './rank-chart.tsx'
import { useSeasonQuery, useSeasonRoundQuery } from './season-api.ts'
import styles from './season.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

const shared = numbersPageClasses(styles)

type Squads = ReadonlyMap<number, Squad>
const nameOf = (squads: Squads, id: number) => squads.get(id)?.name ?? `Team ${id}`
const shortOf = (squads: Squads, id: number) => squads.get(id)?.shortName ?? `#${id}`
const weeks = (rounds: readonly number[]) => rounds.map((r) => `week ${r}`).join(', ')

/** The My season page (issue 31): my numbers, points per round, and any round explained. */
export default function SeasonPage() {
  usePageTitle('My season')
  const sport = useSport()
  const season = useSeasonQuery(sport)
  const squads = squadsById(useSquadsQuery(sport).data)
  const [chosen, setChosen] = useState<RoundNumber | null>(null)

  if (!season.data) {
    return (
      <div className={shared.page}>
        <h1>My season</h1>
        {season.isError ? (
          <p role="alert">Your season could not be loaded. Please try again later.</p>
        ) : (
          <Spinner label="Loading your season" />
        )}
      </div>
    )
  }
  const s = season.data
  const round = chosen ?? s.rounds.at(-1)?.round ?? null
  return (
    <div className={shared.page}>
      <h1>My season</h1>
      <p className={shared.intro}>
        Your numbers so far, from every match that has a result.{' '}
        <Link to={`/${sport}/help`}>What each number means</Link> ·{' '}
        <Link to={`/${sport}/archive`}>Past seasons</Link>
      </p>
      <Numbers season={s} />
      <RankSection season={s} />
      <Teams season={s} squads={squads} />
      <section className={shared.card} aria-labelledby="season-chart">
        <h2 id="season-chart">Points per round</h2>
        {s.rounds.length === 0 ? (
          <p className={styles.muted}>No round has a result yet.</p>
        ) : (
          <>
            <PointsChart rounds={s.rounds} />
            <PointsLegend of="Round's" golden />
            <RoundsTable season={s} />
          </>
        )}
      </section>
      <LeagueSection sport={sport} season={s} />
      <section className={shared.card} aria-labelledby="season-round">
        <h2 id="season-round">Why my rank is what it is</h2>
        {round === null ? (
          <p className={styles.muted}>No round has a result yet.</p>
        ) : (
          <>
            <div className={styles.roundPicker}>
              <label htmlFor="season-round-select">
                Week
                <select
                  id="season-round-select"
                  value={round}
                  onChange={(e) => setChosen(Number(e.target.value) as RoundNumber)}
                >
                  {s.rounds.map((r) => (
                    <option key={r.round} value={r.round}>
                      Week {r.round}
                    </option>
                  ))}
                </select>
              </label>
            </div>
            <RoundExplained sport={sport} round={round} squads={squads} />
          </>
        )}
      </section>
    </div>
  )
}

function Numbers({ season: s }: { season: Season }) {
  return (
    <section className={shared.card} aria-labelledby="season-numbers">
      <h2 id="season-numbers">My numbers</h2>
      <dl className={shared.stats}>
        <div className={shared.stat}>
          <dt>Tips correct</dt>
          <dd data-stat="correct">
            {s.tips.correct} of {s.tips.judged}
            <small>{s.tips.percent === null ? 'no result yet' : `${s.tips.percent}%`}</small>
          </dd>
        </div>
        <div className={shared.stat}>
          <dt>Longest streak</dt>
          <dd data-stat="longest">
            {s.streaks.longest}
            <small>correct in a row</small>
          </dd>
        </div>
        <div className={shared.stat}>
          <dt>Current streak</dt>
          <dd data-stat="current">
            {s.streaks.current}
            <small>since the last wrong tip</small>
          </dd>
        </div>
        <div className={shared.stat}>
          <dt>Clean sweeps</dt>
          <dd data-stat="sweeps">
            {s.cleanSweeps.length}
            <small>
              {s.cleanSweeps.length === 0
                ? `+${CLEAN_SWEEP_BONUS} each when earned`
                : weeks(s.cleanSweeps)}
            </small>
          </dd>
        </div>
        <div className={shared.stat}>
          <dt>Golden Week haul</dt>
          <dd data-stat="golden">
            {s.goldenWeek === null ? '–' : `${s.goldenWeek.points} pts`}
            <small>
              {s.goldenWeek === null ? 'no Golden Week this season' : `week ${s.goldenWeek.round}`}
            </small>
          </dd>
        </div>
        <div className={shared.stat}>
          <dt>Auto-tips that cost me</dt>
          <dd data-stat="autos">
            {s.autoTips.wrong + s.autoTips.notCounted}
            <small>
              {s.autoTips.wrong} wrong, {s.autoTips.notCounted} right but not counted
            </small>
          </dd>
        </div>
        <div className={shared.stat}>
          <dt>Super Sixes miss</dt>
          <dd data-stat="sixes">
            {s.superSixes.averageMiss === null ? '–' : s.superSixes.averageMiss}
            <small>
              {s.superSixes.bestMiss === null
                ? 'average, no game yet'
                : `average over ${s.superSixes.games}; best ${s.superSixes.bestMiss}`}
            </small>
          </dd>
        </div>
      </dl>
    </section>
  )
}

function Teams({ season: s, squads }: { season: Season; squads: Squads }) {
  return (
    <section className={shared.card} aria-labelledby="season-teams">
      <h2 id="season-teams">By team</h2>
      {s.teams.length === 0 ? (
        <p className={styles.muted}>No tip has been judged yet.</p>
      ) : (
        <div className={shared.tableWrap}>
          <table className={shared.table}>
            <caption className="visually-hidden">
              Tips by the team tipped, the best read first
            </caption>
            <thead>
              <tr>
                <th scope="col">Team tipped</th>
                <th scope="col" className={styles.num}>
                  Right
                </th>
                <th scope="col" className={styles.num}>
                  Tipped
                </th>
                <th scope="col" className={styles.num}>
                  %
                </th>
              </tr>
            </thead>
            <tbody>
              {s.teams.map((t) => (
                <tr key={t.squad}>
                  <th scope="row">{nameOf(squads, t.squad)}</th>
                  <td className={styles.num}>{t.correct}</td>
                  <td className={styles.num}>{t.tipped}</td>
                  <td className={styles.num}>{Math.round((100 * t.correct) / t.tipped)}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

const rankText = formatCount

/** The overall rank after each round: the line, the latest rank in words, a table for readers. */
function RankSection({ season: s }: { season: Season }) {
  const points = s.rounds.flatMap((r) =>
    r.rank === null ? [] : [{ round: r.round, rank: r.rank }],
  )
  const latest = points.at(-1)
  const of = s.rounds.find((r) => r.round === latest?.round)?.tippers ?? 0
  const pending = s.rounds.filter((r) => r.rank === null && r.round > (latest?.round ?? 0))
  return (
    <section className={shared.card} aria-labelledby="season-rank">
      <h2 id="season-rank">Overall rank after each round</h2>
      {latest === undefined ? (
        <p className={styles.muted}>
          {s.rounds.length === 0
            ? 'No round has a result yet.'
            : 'Your rank after each round appears here a few seconds after a result.'}
        </p>
      ) : (
        <>
          <p className={styles.rankNow} data-rank-now>
            After week {latest.round}: <strong>{rankText(latest.rank)}</strong> of {rankText(of)}
            {pending.length > 0 ? ' (the latest result is being counted)' : ''}
          </p>
          <RankChart points={points} of={of} />
          <div className="visually-hidden">
            <table>
              <caption>My overall rank after each round (1 is the top)</caption>
              <thead>
                <tr>
                  <th scope="col">Week</th>
                  <th scope="col">Rank</th>
                  <th scope="col">Tippers</th>
                </tr>
              </thead>
              <tbody>
                {s.rounds.map((r) => (
                  <tr key={r.round}>
                    <th scope="row">Week {r.round}</th>
                    <td>{r.rank === null ? 'not counted yet' : rankText(r.rank)}</td>
                    <td>{rankText(r.tippers)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  )
}

/** The chart's numbers for a screen reader (the drawing is hidden from it). */
function RoundsTable({ season: s }: { season: Season }) {
  // A table ignores a 1 px box, so the hiding is on a wrapper that clips it.
  return (
    <div className="visually-hidden">
      <table>
        <caption>Points per round: mine, the round's average and best</caption>
        <thead>
          <tr>
            <th scope="col">Week</th>
            <th scope="col">My points</th>
            <th scope="col">Average</th>
            <th scope="col">Best</th>
          </tr>
        </thead>
        <tbody>
          {s.rounds.map((r) => (
            <tr key={r.round}>
              <th scope="row">
                Week {r.round}
                {r.isGoldenWeek ? ' (Golden Week)' : ''}
              </th>
              <td>{r.points}</td>
              <td>{r.average ?? '–'}</td>
              <td>{r.best}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

const VERDICTS: Record<ExplainedTip['verdict'], string> = {
  'not-tipped': 'No tip',
  pending: 'Not finished yet',
  'no-result': 'No result: nobody scores',
  wrong: 'Wrong',
  counted: 'Correct, counted',
  'auto-counted': `Correct auto-tip, counted (fewer than ${AUTOTIP_COUNT_LIMIT} correct tips of your own)`,
  'auto-not-counted': `Correct auto-tip, not counted: you had ${AUTOTIP_COUNT_LIMIT} correct tips of your own`,
}

const SWEEPS: Record<RoundExplanation['sweep'], string> = {
  earned: `Clean Sweep Bonus earned: +${CLEAN_SWEEP_BONUS}`,
  'round-not-over': 'Clean Sweep Bonus: the week is not over yet',
  'missed-a-winner': 'No Clean Sweep Bonus: a winner was missed',
  'auto-tip': 'No Clean Sweep Bonus: the week had an auto-tip',
  'no-winner': 'No Clean Sweep Bonus: no match of the week had a winner',
}

function verdictOf(t: ExplainedTip): string {
  if (t.verdict === 'not-tipped')
    return t.status === 'scheduled' ? 'Not tipped yet' : 'No tip: it started before you joined'
  if (t.verdict === 'wrong' && t.isAutoTip) return 'Wrong (auto-tip)'
  return VERDICTS[t.verdict]
}

function RoundExplained({
  sport,
  round,
  squads,
}: {
  sport: ReturnType<typeof useSport>
  round: RoundNumber
  squads: Squads
}) {
  const { data: e, isError } = useSeasonRoundQuery({ sport, round })
  if (isError) return <p role="alert">This week could not be loaded.</p>
  if (!e) return <Spinner label="Loading the week" />
  const margin = e.tips.find((t) => t.isMarginGame)
  return (
    <div aria-live="polite">
      <div className={shared.tableWrap}>
        <table className={shared.table}>
          <caption className="visually-hidden">Week {e.round}: each tip and what it earned</caption>
          <thead>
            <tr>
              <th scope="col">Match</th>
              <th scope="col">My tip</th>
              <th scope="col">Outcome</th>
              <th scope="col" className={styles.num}>
                Points
              </th>
            </tr>
          </thead>
          <tbody>
            {e.tips.map((t) => (
              <tr key={t.match}>
                <th scope="row">
                  {shortOf(squads, t.homeSquadId)} v {shortOf(squads, t.awaySquadId)}
                  {t.winnerSquadId !== null ? (
                    <small className={styles.muted}>
                      {' '}
                      ({shortOf(squads, t.winnerSquadId)} won)
                    </small>
                  ) : null}
                </th>
                <td>
                  {t.squad === 0 ? '–' : shortOf(squads, t.squad)}
                  {t.isAutoTip ? ' (auto)' : ''}
                </td>
                <td
                  className={
                    t.counted ? styles.good : t.correct === false ? styles.bad : styles.muted
                  }
                >
                  {verdictOf(t)}
                </td>
                <td className={styles.num}>{t.points}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className={styles.summary}>
        <div>
          <dt>Correct / counted</dt>
          <dd>
            {e.correct} / {e.counted}
          </dd>
        </div>
        <div>
          <dt>Tip points</dt>
          <dd>
            {e.tipPoints}
            {e.isGoldenWeek ? ` (Golden Week: ${e.pointsPerTip} a tip)` : ''}
          </dd>
        </div>
        <div>
          <dt>Bonus</dt>
          <dd>{e.bonus}</dd>
        </div>
        <div>
          <dt>Week's points</dt>
          <dd data-stat="round-points">{e.points}</dd>
        </div>
        <div>
          <dt>Super Sixes margin</dt>
          <dd>{e.margin}</dd>
        </div>
        <div>
          <dt>Rank this week</dt>
          <dd data-stat="round-rank">{e.roundRank || '–'}</dd>
        </div>
        <div>
          <dt>Overall</dt>
          <dd>
            {e.overallRank ? `#${e.overallRank}` : '–'}, {e.overallPoints} pts, margin{' '}
            {e.overallMargin}
          </dd>
        </div>
      </dl>
      <p className={styles.note}>{SWEEPS[e.sweep]}</p>
      {margin ? (
        <p className={styles.note}>
          Super Sixes ({shortOf(squads, margin.homeSquadId)} v {shortOf(squads, margin.awaySquadId)}
          ): you predicted {margin.margin ?? 'nothing (counted as 0)'}
          {margin.sixes === null
            ? '; the sixes are not known yet.'
            : `, ${margin.sixes} were hit: a miss of ${margin.marginResult}.`}
        </p>
      ) : null}
      <p className={styles.note}>
        <strong>Ties:</strong> {e.tieBreak}
      </p>
    </div>
  )
}
