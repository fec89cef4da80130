import { useState } from 'react'
import { Link, useParams } from 'react-router'
import type { Sport } from '@tipping/contract/constants'
import type { ArchivedLeague, SeasonArchive } from '@tipping/contract/archive'
import { failureMessage } from '../../lib/api.ts'
import { useSport } from '../../lib/sport.ts'
import { squadsById, useSquadsQuery } from '../../lib/static-api.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { Button } from '../../ui/button.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { numbersPageClasses } from '../../ui/numbers-page.ts'
import {
  useArchiveRankingsQuery,
  useArchiveTeamLadderQuery,
  useRenewLeagueMutation,
  useSeasonArchiveQuery,
} from './archive-api.ts'
import styles from './archive.module.css'
import { RankingPager, RankingTable } from './ranking-table.tsx'
import { usePageTitle } from '../../lib/page-title.ts'

const shared = numbersPageClasses(styles)

/** One past season (issue 31): my final place and numbers, my leagues, the rankings, the teams. */
export default function ArchiveSeasonPage() {
  const sport = useSport()
  const year = useParams().year ?? ''
  const archive = useSeasonArchiveQuery({ sport, year })
  usePageTitle(
    archive.data ? `${archive.data.season.name} ${archive.data.season.year}` : `Season ${year}`,
  )
  if (!archive.data)
    return (
      <div className={shared.page}>
        <h1>Season {year}</h1>
        {archive.isError ? (
          <p role="alert">{failureMessage(archive.error, 'This season could not be loaded')}</p>
        ) : (
          <Spinner label="Loading the season" />
        )}
        <p>
          <Link to={`/${sport}/archive`}>All past seasons</Link>
        </p>
      </div>
    )
  const a = archive.data
  return (
    <div className={shared.page}>
      <h1>
        {a.season.name} {a.season.year}
      </h1>
      <p className={shared.intro}>
        The season as it finished. <Link to={`/${sport}/archive`}>All past seasons</Link>
      </p>
      <Mine archive={a} />
      <Leagues sport={sport} year={year} leagues={a.leagues} />
      <Rankings sport={sport} year={year} />
      <TeamLadder sport={sport} year={year} />
    </div>
  )
}

function Mine({ archive: a }: { archive: SeasonArchive }) {
  const s = a.mySeason
  return (
    <section className={shared.card} aria-labelledby="archive-mine">
      <h2 id="archive-mine">My final numbers</h2>
      {!s ? (
        <p className={styles.muted}>You did not tip that season.</p>
      ) : (
        <dl className={shared.stats}>
          <div className={shared.stat}>
            <dt>Final rank</dt>
            <dd data-stat="rank">{a.user?.rank || '–'}</dd>
          </div>
          <div className={shared.stat}>
            <dt>Points</dt>
            <dd data-stat="points">{a.user?.totalPoints ?? 0}</dd>
          </div>
          <div className={shared.stat}>
            <dt>Tips correct</dt>
            <dd>
              {s.tips.correct} of {s.tips.judged}
            </dd>
          </div>
          <div className={shared.stat}>
            <dt>Longest streak</dt>
            <dd>{s.streaks.longest}</dd>
          </div>
          <div className={shared.stat}>
            <dt>Clean sweeps</dt>
            <dd>{s.cleanSweeps.length}</dd>
          </div>
          <div className={shared.stat}>
            <dt>Golden Week</dt>
            <dd>{s.goldenWeek ? `${s.goldenWeek.points} pts` : '–'}</dd>
          </div>
        </dl>
      )}
    </section>
  )
}

function Leagues(p: { sport: Sport; year: string; leagues: readonly ArchivedLeague[] }) {
  const [renew, renewing] = useRenewLeagueMutation()
  const [error, setError] = useState<string | null>(null)
  const [renewed, setRenewed] = useState<Record<number, number>>({})
  return (
    <section className={shared.card} aria-labelledby="archive-leagues">
      <h2 id="archive-leagues">My leagues</h2>
      {error ? <p role="alert">{error}</p> : null}
      {p.leagues.length === 0 ? (
        <p className={styles.muted}>You were in no league that season.</p>
      ) : (
        <ul className={styles.list}>
          {p.leagues.map((l) => {
            const next = l.renewedBy ?? renewed[l.id] ?? null
            return (
              <li key={l.id} className={styles.item}>
                <Link to={`/${p.sport}/archive/${p.year}/league/${l.id}`}>{l.name}</Link>
                <span className={styles.muted}>
                  {l.rank ? `Finished ${l.rank} of ${l.numUser}` : `${l.numUser} members`}
                </span>
                {next !== null ? (
                  <Link to={`/${p.sport}/league/${next}/ladder`}>This season’s league</Link>
                ) : l.isCommissioner ? (
                  <Button
                    variant="secondary"
                    disabled={renewing.isLoading}
                    onClick={() => {
                      setError(null)
                      renew({ sport: p.sport, id: l.id })
                        .unwrap()
                        .then((r) => setRenewed((m) => ({ ...m, [l.id]: r.league.id })))
                        .catch((e: unknown) =>
                          setError(failureMessage(e, 'The league could not be renewed')),
                        )
                    }}
                  >
                    Renew for this season
                  </Button>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}

function Rankings(p: { sport: Sport; year: string }) {
  const [page, setPage] = useState(1)
  const userId = useCurrentUser().id
  const rankings = useArchiveRankingsQuery({ ...p, page })
  const d = rankings.data
  return (
    <section className={shared.card} aria-labelledby="archive-rankings">
      <h2 id="archive-rankings">Final rankings</h2>
      {!d ? (
        <Spinner label="Loading the rankings" />
      ) : d.rankings.length === 0 ? (
        <p className={styles.muted}>No tipper was ranked.</p>
      ) : (
        <>
          <RankingTable rows={d.rankings} userId={userId} caption="Final rankings" />
          <RankingPager page={page} nextPage={d.nextPage} onPage={setPage} />
        </>
      )}
    </section>
  )
}

function TeamLadder(p: { sport: Sport; year: string }) {
  const ladder = useArchiveTeamLadderQuery(p)
  const squads = squadsById(useSquadsQuery(p.sport).data)
  return (
    <section className={shared.card} aria-labelledby="archive-teams">
      <h2 id="archive-teams">Team ladder</h2>
      {!ladder.data ? (
        <Spinner label="Loading the team ladder" />
      ) : (
        <div className={shared.tableWrap}>
          <table className={shared.table}>
            <caption className="visually-hidden">Final team ladder</caption>
            <thead>
              <tr>
                <th scope="col" className={styles.num}>
                  Pos
                </th>
                <th scope="col">Team</th>
                <th scope="col" className={styles.num}>
                  P
                </th>
                <th scope="col" className={styles.num}>
                  W
                </th>
                <th scope="col" className={styles.num}>
                  Pts
                </th>
              </tr>
            </thead>
            <tbody>
              {ladder.data.ladder.map((r) => (
                <tr key={r.squadId}>
                  <td className={styles.num}>{r.position}</td>
                  <td>{squads.get(r.squadId)?.name ?? `Team ${r.squadId}`}</td>
                  <td className={styles.num}>{r.played}</td>
                  <td className={styles.num}>{r.won}</td>
                  <td className={styles.num}>{r.points}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
