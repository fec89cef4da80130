import { Link } from 'react-router'
import { failureMessage } from '../../lib/api.ts'
import { useSport } from '../../lib/sport.ts'
import { Spinner } from '../../ui/spinner.tsx'
import { numbersPageClasses } from '../../ui/numbers-page.ts'
import { usePastSeasonsQuery } from './archive-api.ts'
import styles from './archive.module.css'
import { usePageTitle } from '../../lib/page-title.ts'

const shared = numbersPageClasses(styles)

/** The season archive (issue 31): the sport's past seasons, each kept as it finished. */
export default function ArchivePage() {
  usePageTitle('Past seasons')
  const sport = useSport()
  const seasons = usePastSeasonsQuery(sport)
  return (
    <div className={shared.page}>
      <h1>Past seasons</h1>
      <p className={shared.intro}>
        Every season that has finished, as it ended: the final rankings, your numbers and your
        leagues’ ladders. Nothing in a past season can be changed.{' '}
        <Link to={`/${sport}/help`}>About the archive</Link>
      </p>
      <section className={shared.card} aria-labelledby="archive-seasons">
        <h2 id="archive-seasons">Seasons</h2>
        {seasons.isError ? (
          <p role="alert">
            {failureMessage(seasons.error, 'The past seasons could not be loaded')}
          </p>
        ) : !seasons.data ? (
          <Spinner label="Loading past seasons" />
        ) : seasons.data.seasons.length === 0 ? (
          <p className={styles.muted}>No season has finished yet: this is the first.</p>
        ) : (
          <ul className={styles.list}>
            {seasons.data.seasons.map((s) => (
              <li key={s.year} className={styles.item}>
                <Link to={`/${sport}/archive/${s.year}`}>
                  {s.name} {s.year}
                </Link>
                <span className={styles.muted}>{s.tippers.toLocaleString('en-AU')} tippers</span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
