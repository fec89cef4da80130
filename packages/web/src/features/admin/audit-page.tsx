import { useState } from 'react'
import { Button } from '../../ui/button.tsx'
import * as adminApi from './admin-api.ts'
import styles from './admin.module.css'
import { Field, FormMessage, Pager } from './fields.tsx'
import { formText } from './form-errors.ts'
import { useLoad } from './use-load.ts'

/** The audit log: every admin change, newest first, by who and what. */
export default function AuditPage() {
  const [filter, setFilter] = useState({ actor: '', kind: '' })
  const [page, setPage] = useState(1)
  const { data, error } = useLoad(
    () => adminApi.audit(filter.actor, filter.kind, page),
    [filter, page],
  )

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
        <Field label="Who (user id or email)" name="actor" />
        <Field label="What (e.g. result. or user.roles)" name="kind" />
        <Button type="submit">Filter</Button>
      </form>
      <FormMessage error={error ?? undefined} />
      {data && data.entries.length === 0 ? <p>Nothing recorded.</p> : null}
      <div className={styles.tableWrap}>
        <table className={styles.table}>
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
                <td>{new Date(a.at).toLocaleString('en-AU')}</td>
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
                  <pre className={styles.pre} tabIndex={0}>
                    {JSON.stringify(a.data, null, 1)}
                  </pre>
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
