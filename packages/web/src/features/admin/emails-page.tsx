import { useState } from 'react'
import { EMAIL_STATUSES, type EmailStatus } from '@tipping/contract/admin'
import { failureMessage } from '../../lib/api.ts'
import { Button } from '../../ui/button.tsx'
import { SelectField } from '../../ui/form-field.tsx'
import { useEmailsQuery, useRetryEmailMutation } from './admin-api.ts'
import styles from './admin.module.css'
import { apiError } from './form-errors.ts'
import { FormMessage } from './form-message.tsx'
import { Pager } from './pager.tsx'
import { usePageTitle } from '../../lib/page-title.ts'
import { formatInstant } from '../../lib/dates.ts'

const isStatus = (value: string): value is EmailStatus | 'all' =>
  value === 'all' || EMAIL_STATUSES.some((s) => s === value)

const at = (iso: string | null) => (iso ? formatInstant(iso) : '')

/** The email outbox: what was sent, what waits, what failed (and retry it), each email readable. */
export default function EmailsPage() {
  usePageTitle('Email outbox · Admin')
  const [status, setStatus] = useState<EmailStatus | 'all'>('all')
  const [page, setPage] = useState(1)
  const { data, error } = useEmailsQuery({ status, page })
  const [retryEmail] = useRetryEmailMutation()
  const [message, setMessage] = useState<{ ok?: string; error?: string | undefined }>({})

  // The list shows the retried email again by itself: the retry invalidates it (admin-api.ts).
  const retry = async (id: string, to: string) => {
    try {
      await retryEmail(id).unwrap()
      setMessage({ ok: `The email to ${to} is queued again.` })
    } catch (err) {
      setMessage({ error: apiError(err) })
    }
  }

  return (
    <div className={styles.page}>
      <h1>Email outbox</h1>
      <div className={styles.row}>
        <SelectField
          compact
          label="Status"
          value={status}
          onChange={(e) => {
            if (!isStatus(e.target.value)) return
            setPage(1)
            setStatus(e.target.value)
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
      <FormMessage
        error={error ? failureMessage(error, 'Could not load') : message.error}
        ok={message.ok ?? null}
      />
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
