import { useState } from 'react'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { failureMessage } from '../../lib/api.ts'
import { useAuditQuery } from './admin-api.ts'
import styles from './admin.module.css'
import { formText } from './form-errors.ts'
import { FormMessage } from './form-message.tsx'
import { Pager } from './pager.tsx'
import { usePageTitle } from '../../lib/page-title.ts'
import { formatInstant } from '../../lib/dates.ts'

/** The audit log: every admin change, newest first, by who and what. */
export default function AuditPage() {
  usePageTitle('Audit log · Admin')
  const [filter, setFilter] = useState({ actor: '', kind: '' })
  const [page, setPage] = useState(1)
  const { data, error } = useAuditQuery({ ...filter, page })

  return (
    <div className={styles.page}>
      <h1>Audit log</h1>
      <form
        role="search"
        className={styles.row}
        onSubmit={(e) => {
          e.preventDefault()
          const d = new FormData(e.currentTarget)
          setPage(1)
          setFilter({
            actor: formText(d, 'actor').trim(),
            kind: formText(d, 'kind').trim(),
          })
        }}
      >
        <FormField compact label="Who (user id or email)" name="actor" />
        <FormField compact label="What (e.g. result. or user.roles)" name="kind" />
        <Button type="submit">Filter</Button>
      </form>
      <FormMessage error={error ? failureMessage(error, 'Could not load') : undefined} />
      {data && data.entries.length === 0 ? <p>Nothing recorded.</p> : null}
      <div className={styles.tableWrap}>
        <table className={`${styles.table} ${styles.stackTable}`}>
          <caption className={styles.meta}>Newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Data</th>
            </tr>
          </thead>
          <tbody>
            {data?.entries.map((a) => (
              <tr key={a.id}>
                <td>{formatInstant(a.at)}</td>
                <td>{a.actor ? a.actor.email : 'system'}</td>
                <td>
                  <strong>{a.action}</strong>
                  <br />
                  <span className={styles.meta}>
                    {a.entity}
                    {a.entityId ? ` #${a.entityId}` : ''}
                  </span>
                </td>
                <td>
                  {/* Closed until asked for, like the outbox's bodies: a page of data would bury
                      the log. Open, it wraps and grows rather than scrolling inside the cell. */}
                  <details>
                    <summary>
                      Data <span className="visually-hidden">of entry {a.id}</span>
                    </summary>
                    <pre className={styles.auditData}>{JSON.stringify(a.data, null, 1)}</pre>
                  </details>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} nextPage={data?.nextPage ?? null} onPage={setPage} />
    </div>
  )
}
