import { useState } from 'react'
import { EMAIL_STATUSES, type EmailStatus } from '@tipping/contract/admin'
import { Button } from '../../ui/button.tsx'
import * as adminApi from './admin-api.ts'
import styles from './admin.module.css'
import { FormMessage, Pager, SelectField } from './fields.tsx'
import { apiFieldErrors } from './form-errors.ts'
import { useLoad } from './use-load.ts'

const at = (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-AU') : '')

/** The email outbox: what was sent, what waits, what failed (and retry it), each email readable. */
export default function EmailsPage() {
  const [status, setStatus] = useState<EmailStatus | 'all'>('all')
  const [page, setPage] = useState(1)
  const { data, error, reload } = useLoad(() => adminApi.emails(status, page), [status, page])
  const [message, setMessage] = useState<{ ok?: string; error?: string }>({})

  const retry = async (id: string, to: string) => {
    try {
      await adminApi.retryEmail(id)
      setMessage({ ok: `The email to ${to} is queued again.` })
      reload()
    } catch (err) {
      setMessage({ error: Object.values(apiFieldErrors(err))[0] })
    }
  }

  return (
    <div className={styles.page}>
      <h1>Email outbox</h1>
      <div className={styles.row}>
        <SelectField
          label="Status"
          value={status}
          onChange={(e) => {
            setPage(1)
            setStatus(e.target.value as EmailStatus | 'all')
          }}
        >
          <option value="all">All</option>
          {EMAIL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s[0]!.toUpperCase() + s.slice(1)}
            </option>
          ))}
        </SelectField>
      </div>
      <FormMessage error={error ?? message.error} ok={message.ok ?? null} />
      {data && data.emails.length === 0 ? <p>No emails.</p> : null}
      <div className={styles.tableWrap}>
        <table className={`${styles.table} ${styles.stackTable}`}>
          <caption className={styles.meta}>Newest first</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Status</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {data?.emails.map((e) => (
              <tr key={e.id}>
                <td>
                  <strong>{e.subject}</strong>
                  <br />
                  <span className={styles.meta}>
                    to {e.to} · {e.kind} · queued {at(e.createdAt)}
                  </span>
                  {/* Closed until asked for: a page of bodies would bury the list. React writes
                      the text as text, so a body's markup shows as typed and never runs. */}
                  <details className={styles.emailBody}>
                    <summary>
                      Message <span className="visually-hidden">of the email to {e.to}</span>
                    </summary>
                    <pre className={styles.emailText}>{e.text}</pre>
                  </details>
                </td>
                <td>
                  <span className={styles.badge}>{e.status}</span>
                  <br />
                  <span className={styles.meta}>
                    {e.attempts} attempts
                    {e.sentAt ? ` · sent ${at(e.sentAt)}` : ''}
                    {e.failedAt ? ` · failed ${at(e.failedAt)}` : ''}
                    {e.error ? ` · ${e.error}` : ''}
                  </span>
                </td>
                <td>
                  {e.status === 'failed' ? (
                    <Button variant="secondary" onClick={() => void retry(e.id, e.to)}>
                      Retry <span className="visually-hidden">the email to {e.to}</span>
                    </Button>
                  ) : null}
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
