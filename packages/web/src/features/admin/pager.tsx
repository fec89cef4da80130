import { Button } from '../../ui/button.tsx'
import styles from './admin.module.css'

/** Previous and next page of a list the server pages (it says whether there is a next one). */
export function Pager({
  page,
  nextPage,
  onPage,
}: {
  page: number
  nextPage: number | null
  onPage: (page: number) => void
}) {
  return (
    <nav className={styles.row} aria-label="Pages">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className={styles.meta}>Page {page}</span>
      <Button
        variant="secondary"
        disabled={nextPage === null}
        onClick={() => nextPage && onPage(nextPage)}
      >
        Next
      </Button>
    </nav>
  )
}
