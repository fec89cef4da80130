import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { failureMessage } from '../../lib/api.ts'
import { useSport } from '../../lib/sport.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { numbersPageClasses } from '../../ui/numbers-page.ts'
import { useArchiveLeagueLadderQuery } from './archive-api.ts'
import styles from './archive.module.css'
import { RankingPager, RankingTable } from './ranking-table.tsx'
import { usePageTitle } from '../../lib/page-title.ts'

const shared = numbersPageClasses(styles)

/** A league's final ladder in a past season (issue 31). */
export default function ArchiveLeaguePage() {
  const sport = useSport()
  const params = useParams()
  const year = params.year ?? ''
  const id = Number(params.leagueId)
  const [page, setPage] = useState(1)
  const userId = useCurrentUser().id
  const ladder = useArchiveLeagueLadderQuery({ sport, year, id, page })
  usePageTitle(ladder.data ? `${ladder.data.league.name}, ${year}` : 'League')
  const d = ladder.data
  return (
    <div className={shared.page}>
      <h1>{d ? d.league.name : 'League'}</h1>
      <p className={shared.intro}>
        The final ladder of {year}. <Link to={`/${sport}/archive/${year}`}>Back to the season</Link>
        {d?.league.renewedBy ? (
          <>
            {' · '}
            <Link to={`/${sport}/league/${d.league.renewedBy}/ladder`}>This season’s league</Link>
          </>
        ) : null}
      </p>
      <section className={shared.card} aria-labelledby="archive-ladder">
        <h2 id="archive-ladder">Final ladder</h2>
        {ladder.isError ? (
          <p role="alert">{failureMessage(ladder.error, 'This ladder could not be loaded')}</p>
        ) : !d ? (
          <Spinner label="Loading the ladder" />
        ) : (
          <>
            <RankingTable rows={d.rankings} userId={userId} caption="Final league ladder" />
            <RankingPager page={page} nextPage={d.nextPage} onPage={setPage} />
          </>
        )}
      </section>
    </div>
  )
}
