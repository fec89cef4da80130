import { tipperName } from '@tipping/contract/names'
import type { RankingRow } from '@tipping/contract/scores'
import { Button } from '../../ui/button.tsx'
import { numbersPageClasses } from '../../ui/numbers-page.ts'
import styles from './archive.module.css'

const shared = numbersPageClasses(styles)

/** A past season's final ladder: rank, tipper, points, margin (the caller's row in bold). */
export function RankingTable(p: { rows: readonly RankingRow[]; userId: number; caption: string }) {
  return (
    <div className={shared.tableWrap}>
      <table className={shared.table}>
        <caption className="visually-hidden">{p.caption}</caption>
        <thead>
          <tr>
            <th scope="col" className={styles.num}>
              Rank
            </th>
            <th scope="col">Tipper</th>
            <th scope="col" className={styles.num}>
              Points
            </th>
            <th scope="col" className={styles.num}>
              Margin
            </th>
          </tr>
        </thead>
        <tbody>
          {p.rows.map((r) => (
            <tr key={r.userId} className={r.userId === p.userId ? styles.mine : undefined}>
              <td className={styles.num}>{r.rank || '–'}</td>
              <td>{tipperName(r)}</td>
              <td className={styles.num}>{r.totalPoints}</td>
              <td className={styles.num}>{r.totalMargin}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Previous and Next under a ladder read a page at a time (the first page has no Previous). */
export function RankingPager(p: {
  page: number
  nextPage: number | null
  onPage: (page: number) => void
}) {
  const next = p.nextPage
  return (
    <div className={styles.more}>
      {p.page > 1 ? (
        <Button variant="secondary" onClick={() => p.onPage(p.page - 1)}>
          Previous
        </Button>
      ) : null}{' '}
      {next !== null ? (
        <Button variant="secondary" onClick={() => p.onPage(next)}>
          Next
        </Button>
      ) : null}
    </div>
  )
}
