import { Link } from 'react-router'
import { failureMessage } from '../../lib/api.ts'
import { useSport } from '../../lib/sport.ts'
import { useMediaQuery } from '../../lib/use-media-query.ts'
import { Button } from '../../ui/button.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { LeagueItem } from './league-item.tsx'
import { RenewalOffers } from './renewal-offers.tsx'
import { useOwnLeaguesInfiniteQuery } from './leagues-api.ts'
import styles from './leagues.module.css'
import { SIDE_COLUMN_QUERY, WeekLeadersCard } from './side-cards.tsx'
import { TeamLadderCard } from './team-ladder-card.tsx'
import buttonStyles from '../../ui/button.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

/** Spec 2 "Leagues screens": the user's leagues, page by page, with Join and Create. */
export default function LeaguesPage() {
  usePageTitle('Your leagues')
  const sport = useSport()
  const query = useOwnLeaguesInfiniteQuery(sport)
  const leagues = query.data?.pages.flatMap((p) => p.leagues) ?? []
  const loading = query.isFetching
  const error = query.isError ? failureMessage(query.error, 'Could not load your leagues') : null
  const wide = useMediaQuery(SIDE_COLUMN_QUERY)

  return (
    <div className={styles.page}>
      <div className={styles.titleBar}>
        <h1>Your leagues</h1>
        <div className={styles.actions}>
          <Link
            className={`${buttonStyles.button} ${buttonStyles.secondary}`}
            to={`/${sport}/leagues/join`}
          >
            Join league
          </Link>
          <Link
            className={`${buttonStyles.button} ${buttonStyles.primary}`}
            to={`/${sport}/leagues/create`}
          >
            Create league
          </Link>
        </div>
      </div>
      <div className={styles.withSide}>
        <div className={styles.list}>
          <RenewalOffers sport={sport} />
          {error ? (
            <p role="alert" className={styles.formError}>
              {error}
            </p>
          ) : null}
          {!loading && !error && leagues.length === 0 ? (
            <div className={`${styles.card} ${styles.empty}`}>
              <p>You are not in a league yet.</p>
              <p>Join your friends with their code, or start a league and invite them.</p>
            </div>
          ) : null}
          <ul className={styles.list} aria-label="Your leagues">
            {leagues.map((l) => (
              <li key={l.id}>
                <LeagueItem sport={sport} league={l} />
              </li>
            ))}
          </ul>
          {loading && leagues.length === 0 ? (
            // Two placeholder cards, about what most tippers have: the ladder card below does
            // not jump up when the first page arrives (a tall spinner made it move ~180 px).
            <div role="status">
              <span className="visually-hidden">Loading your leagues</span>
              <ul className={styles.list} aria-hidden="true">
                <li className={`${styles.leagueItem} ${styles.placeholder}`} />
                <li className={`${styles.leagueItem} ${styles.placeholder}`} />
              </ul>
            </div>
          ) : loading ? (
            <Spinner label="Loading your leagues" />
          ) : null}
          {query.hasNextPage && !loading ? (
            <div className={styles.more}>
              <Button variant="secondary" onClick={() => void query.fetchNextPage()}>
                Load More
              </Button>
            </div>
          ) : null}
          {/* A wide screen's extra: the week's leaders under the list (most tippers have a
              league or two, and the page would otherwise end in a bare column). */}
          {wide ? <WeekLeadersCard sport={sport} round={null} /> : null}
        </div>
        {/* Spec 2: the team ladder with the leagues, in the side column on a wide screen. */}
        <TeamLadderCard sport={sport} />
      </div>
    </div>
  )
}
