import { Link } from 'react-router'
import type { AdminHealthResponse, JobName, JobRun } from '@tipping/contract/admin'
import { Button } from '../../ui/button.tsx'
import { failureMessage } from '../../lib/api.ts'
import { useHealthQuery } from './admin-api.ts'
import styles from './admin.module.css'
import { FormMessage } from './form-message.tsx'
import { usePageTitle } from '../../lib/page-title.ts'
import { formatInstant } from '../../lib/dates.ts'

/** 850 ms, 2.4 s, 3 min: a duration as someone on call reads it. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  const s = ms / 1000
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`
  if (s < 3600) return `${Math.round(s / 60)} min`
  return `${(s / 3600).toFixed(1)} h`
}

/** How long before the server's `now` an instant was (the server's clock, not the browser's). */
const ago = (iso: string, now: string) =>
  `${formatDuration(Math.max(0, Date.parse(now) - Date.parse(iso)))} ago`

/** Every job the server names has a label: a new job fails the typecheck until it gets one. */
const JOB_LABELS: Record<JobName, string> = {
  scheduler: 'Scheduler pass',
  autopilot: 'Autopilot tips',
  lockouts: 'Lockouts',
  pick_split: 'Pick split events',
  season_history: 'Season rank history',
  publishing: 'Publishing',
  reminders: 'Reminders to tip',
  email_delivery: 'Email delivery',
}
const jobLabel = (job: string) => JOB_LABELS[job as JobName] ?? job

function Badge({ ok, children }: { ok: boolean; children: string }) {
  return (
    <span className={`${styles.badge} ${ok ? styles.badgeGood : styles.badgeBad}`}>{children}</span>
  )
}

/** The last run of one job: when, how long, and its error if it failed. */
function JobCard({ title, run, now }: { title: string; run: JobRun | null; now: string }) {
  return (
    <section className={styles.card} aria-labelledby={`health-${title}`}>
      <h2 id={`health-${title}`}>{title}</h2>
      {run ? (
        <dl className={styles.facts}>
          <dt>Last run</dt>
          <dd>
            {formatInstant(run.lastRunAt)} ({ago(run.lastRunAt, now)})
          </dd>
          <dt>Took</dt>
          <dd>{formatDuration(run.durationMs)}</dd>
          <dt>Result</dt>
          <dd>
            {run.error ? (
              <>
                <Badge ok={false}>Failed</Badge> {run.error}
              </>
            ) : (
              <Badge ok>OK</Badge>
            )}
          </dd>
          <dt>Runs</dt>
          <dd>
            {run.runs} ({run.failures} failed)
          </dd>
        </dl>
      ) : (
        <p className={styles.meta}>Not run yet.</p>
      )}
    </section>
  )
}

function SchedulerCard({ health }: { health: AdminHealthResponse }) {
  const s = health.scheduler
  const status =
    s.status === 'ok' ? (
      <Badge ok>On time</Badge>
    ) : (
      <Badge ok={false}>{s.status === 'late' ? 'Late' : 'Never ran'}</Badge>
    )
  return (
    <section className={styles.card} aria-labelledby="health-scheduler">
      <h2 id="health-scheduler">Scheduler</h2>
      <p>{status}</p>
      {s.status === 'never' ? (
        <p className={styles.meta}>
          No scheduler pass is recorded: matches are not locking. Is the worker running?
        </p>
      ) : (
        <dl className={styles.facts}>
          <dt>Last pass</dt>
          <dd>
            {s.lastTickAt
              ? `${formatInstant(s.lastTickAt)} (${ago(s.lastTickAt, health.now)})`
              : '-'}
          </dd>
          <dt>Every</dt>
          <dd>{s.intervalMs ? formatDuration(s.intervalMs) : 'by hand'}</dd>
          <dt>Started late by</dt>
          <dd>{formatDuration(s.lagMs ?? 0)}</dd>
          <dt>Overdue by</dt>
          <dd>{formatDuration(s.overdueMs ?? 0)}</dd>
        </dl>
      )}
    </section>
  )
}

/**
 * System health: the scheduler's last lockout and publish runs, how late it is, the email outbox
 * and recent job failures, so a stuck match day shows here before players notice.
 */
export default function HealthPage() {
  usePageTitle('System health · Admin')
  const { data, error, refetch } = useHealthQuery()
  const outbox = data?.emailOutbox

  return (
    <div className={styles.page}>
      <h1>System health</h1>
      <div className={styles.row}>
        <Button variant="secondary" onClick={() => void refetch()}>
          Refresh
        </Button>
        {data ? <span className={styles.meta}>As of {formatInstant(data.now)}</span> : null}
      </div>
      <FormMessage error={error ? failureMessage(error, 'Could not load') : undefined} />
      {data && outbox ? (
        <>
          <div className={styles.healthGrid}>
            <SchedulerCard health={data} />
            <JobCard title="Lockouts" run={data.lockouts} now={data.now} />
            <JobCard title="Publishing" run={data.publishing} now={data.now} />
            <section className={styles.card} aria-labelledby="health-outbox">
              <h2 id="health-outbox">Email outbox</h2>
              <dl className={styles.facts}>
                <dt>Queued</dt>
                <dd>{outbox.queued}</dd>
                <dt>Oldest queued</dt>
                <dd>
                  {outbox.oldestQueuedAgeSeconds === null
                    ? 'none waiting'
                    : formatDuration(outbox.oldestQueuedAgeSeconds * 1000)}
                </dd>
                <dt>Failed</dt>
                <dd>{outbox.failed > 0 ? <Badge ok={false}>{String(outbox.failed)}</Badge> : 0}</dd>
              </dl>
              <Link to="/admin/emails">Open the email outbox</Link>
            </section>
          </div>
          <section className={styles.card} aria-labelledby="health-failures">
            <h2 id="health-failures">Failed jobs</h2>
            {data.recentFailures.length === 0 ? (
              <p className={styles.meta}>No job failures in the last 24 hours.</p>
            ) : (
              <ul className={styles.list}>
                {data.recentFailures.map((f) => (
                  <li key={f.job}>
                    <strong>{jobLabel(f.job)}</strong>{' '}
                    <span className={styles.meta}>
                      {formatInstant(f.at)} ({ago(f.at, data.now)})
                    </span>
                    <pre className={styles.pre}>{f.error}</pre>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {data.jobs.length === 0 ? null : (
            <div className={styles.tableWrap}>
              <table className={`${styles.table} ${styles.stackTable}`}>
                <caption className={styles.meta}>Every job's last run</caption>
                <thead>
                  <tr>
                    <th scope="col">Job</th>
                    <th scope="col">Last run</th>
                    <th scope="col">Result</th>
                  </tr>
                </thead>
                <tbody>
                  {data.jobs.map((j) => (
                    <tr key={j.job}>
                      <td>
                        <strong>{jobLabel(j.job)}</strong>
                      </td>
                      <td>
                        {formatInstant(j.lastRunAt)}
                        <br />
                        <span className={styles.meta}>took {formatDuration(j.durationMs)}</span>
                      </td>
                      <td>
                        {j.error ? <Badge ok={false}>Failed</Badge> : <Badge ok>OK</Badge>}
                        <br />
                        <span className={styles.meta}>
                          {j.runs} runs, {j.failures} failed
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : null}
    </div>
  )
}
