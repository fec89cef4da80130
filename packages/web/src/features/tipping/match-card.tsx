import type { CSSProperties } from 'react'
import type { Match, Prediction } from '@tipping/contract/predictions'
import type { MateTip } from '@tipping/contract/scores'
import type { FormGuideFile, Squad, Venue } from '@tipping/contract/static-files'
import { isTippable } from '@tipping/contract/rules/rounds'
import { formatMatchTime } from '../../lib/dates.ts'
import { FormGuide, TipsPanel } from './form-guide.tsx'
import { MarginControl } from './margin-control.tsx'
import { TipRow } from './tip-row.tsx'
import styles from './match-card.module.css'

interface Props {
  match: Match
  pick: Prediction | undefined
  squads: ReadonlyMap<number, Squad>
  venue: Venue | undefined
  now: Date
  disabled: boolean
  form: FormGuideFile['squads']
  matchCentreUrl: string | null
  /** League mates' tips, once the match is complete (undefined while loading). */
  mateTips: readonly MateTip[] | undefined
  tipsOpen: boolean
  onToggleTips: () => void
  onPick: (squad: number) => void
  onMargin: (margin: number) => void
}

/** Spec 4: tile colours for a complete match — green correct and counted, grey correct but not
 * counted, red wrong, faded when untipped. */
function tileClass(
  match: Match,
  pick: Prediction | undefined,
  squadId: number,
): string | undefined {
  const chosen = pick?.squad === squadId
  if (match.status !== 'complete') return chosen ? styles.selected : ''
  if (!pick || pick.squad === 0) return styles.faded
  if (!chosen) return ''
  if (pick.isCorrect) return pick.counted ? styles.correct : styles.correctUncounted
  return pick.isCorrect === false ? styles.wrong : styles.selected
}

export function MatchCard({
  match,
  pick,
  squads,
  venue,
  now,
  disabled,
  form,
  matchCentreUrl,
  mateTips,
  tipsOpen,
  onToggleTips,
  onPick,
  onMargin,
}: Props) {
  const open = isTippable(match, now) && !disabled
  const sides = [
    {
      id: match.homeSquadId,
      home: true,
      runs: match.homeRuns,
      wickets: match.homeWicketsFallen,
      overs: match.homeOvers,
      percent: match.home_percent,
    },
    {
      id: match.awaySquadId,
      home: false,
      runs: match.awayRuns,
      wickets: match.awayWicketsFallen,
      overs: match.awayOvers,
      percent: match.away_percent,
    },
  ]
  const winner = match.winnerSquadId === null ? null : squads.get(match.winnerSquadId)
  const picked = pick !== undefined && pick.squad > 0
  return (
    <article
      className={styles.card}
      data-testid={`match-card-${match.id}`}
      aria-label={`Match ${match.number}`}
    >
      <header className={styles.head}>
        <span className={styles.venue}>{venue?.name ?? 'Venue to be confirmed'}</span>
        <time className={styles.time} dateTime={match.date}>
          {formatMatchTime(match.date)} UTC
        </time>
      </header>
      <div className={styles.body}>
        <div className={styles.badges}>
          {match.status === 'active' ? (
            <span className={`${styles.badge} ${styles.live}`}>MATCH IS LIVE</span>
          ) : null}
          {match.status === 'complete' ? <span className={styles.badge}>FULL TIME</span> : null}
          {match.status === 'scheduled' && !open ? (
            <span className={styles.badge}>LOCKED</span>
          ) : null}
          {match.isMarginGame ? (
            <span className={`${styles.badge} ${styles.sixes}`}>SUPER SIXES</span>
          ) : null}
          {pick?.isAutoTip ? <span className={styles.badge}>AUTO-TIP</span> : null}
          <button
            type="button"
            className={styles.tipsButton}
            aria-expanded={tipsOpen}
            onClick={onToggleTips}
          >
            Tips
          </button>
        </div>
        <div className={styles.teams}>
          {sides.map((side, i) => {
            const squad = squads.get(side.id)
            const chosen = pick?.squad === side.id
            const style = {
              '--team': squad?.colour ?? '#334155',
              '--team-soft': `color-mix(in srgb, ${squad?.colour ?? '#334155'} 12%, white)`,
              '--team-ring': `color-mix(in srgb, ${squad?.colour ?? '#334155'} 35%, transparent)`,
            } as CSSProperties
            return [
              i === 1 ? (
                <span key="vs" className={styles.vs} aria-hidden="true">
                  v
                </span>
              ) : null,
              <button
                key={side.id}
                type="button"
                style={style}
                className={`${styles.team} ${tileClass(match, pick, side.id) ?? ''}`}
                data-testid={`pick-${match.id}-${side.id}`}
                aria-pressed={chosen}
                disabled={!open}
                onClick={() => onPick(side.id)}
                aria-label={`${squad?.name ?? 'Squad'}${side.home ? ' (home)' : ''}${chosen ? ', your tip' : ''}`}
              >
                {chosen ? (
                  <span className={styles.tick} aria-hidden="true">
                    ✓
                  </span>
                ) : null}
                <img
                  src={`/static/logo/${side.id}.webp`}
                  alt=""
                  width={64}
                  height={64}
                  loading="lazy"
                />
                <span className={styles.teamName}>{squad?.name ?? '…'}</span>
                <span className={styles.home}>{side.home ? 'Home' : 'Away'}</span>
                {side.runs !== null ? (
                  <>
                    <span className={styles.score}>
                      {side.runs}/{side.wickets ?? 0}
                    </span>
                    <span className={styles.overs}>{side.overs} ov</span>
                  </>
                ) : null}
              </button>,
            ]
          })}
        </div>
        {match.home_percent + match.away_percent > 0 ? (
          <div
            className={styles.split}
            aria-label={`Tippers: ${match.home_percent}% home, ${match.away_percent}% away`}
          >
            <div className={styles.splitBar}>
              <span
                style={{
                  width: `${match.home_percent}%`,
                  background: squads.get(match.homeSquadId)?.colour,
                }}
              />
              <span
                style={{
                  width: `${match.away_percent}%`,
                  background: squads.get(match.awaySquadId)?.colour,
                }}
              />
            </div>
            <div className={styles.splitLabels}>
              <span>{match.home_percent}% tipped</span>
              <span>{match.away_percent}% tipped</span>
            </div>
          </div>
        ) : null}
        {match.status === 'complete' ? (
          <p className={styles.result}>
            {winner ? `${winner.name} won` : match.outcome === 'tie' ? 'Tied' : 'No result'}
            {match.isMarginGame && match.sixes !== null ? ` · ${match.sixes} sixes` : ''}
          </p>
        ) : null}
        {match.isMarginGame ? (
          <MarginControl
            value={pick?.margin ?? null}
            disabled={!open || !picked}
            onChange={onMargin}
          />
        ) : null}
        {matchCentreUrl && match.status !== 'complete' ? (
          <a
            className={styles.matchCentre}
            href={matchCentreUrl.replace('{match}', String(match.number))}
            target="_blank"
            rel="noopener noreferrer"
          >
            {match.status === 'active'
              ? 'Follow live in the Match Centre ↗'
              : 'Match preview in the Match Centre ↗'}
          </a>
        ) : null}
        {tipsOpen ? <TipsPanel isMarginGame={match.isMarginGame} onClose={onToggleTips} /> : null}
        <FormGuide sides={[match.homeSquadId, match.awaySquadId]} form={form} squads={squads} />
        {match.status !== 'complete' ? (
          <p className={styles.note}>
            You will have the ability to view other users tips when each game finishes.
          </p>
        ) : mateTips ? (
          <TipRow
            tips={mateTips}
            squads={squads}
            winnerSquadId={match.winnerSquadId}
            isMarginGame={match.isMarginGame}
          />
        ) : null}
      </div>
    </article>
  )
}
