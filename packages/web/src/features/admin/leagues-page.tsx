import { useState } from 'react'
import type { AdminLeague } from '@tipping/contract/admin'
import type { Sport } from '@tipping/contract/constants'
import { failureMessage } from '../../lib/api.ts'
import { isSport } from '../../lib/sport.ts'
import { Button } from '../../ui/button.tsx'
import { ConfirmModal } from '../../ui/confirm-modal.tsx'
import { FormField, SelectField } from '../../ui/form-field.tsx'
import { useLeaguesQuery, useRemoveLeagueMutation } from './admin-api.ts'
import styles from './admin.module.css'
import { apiError, formText } from './form-errors.ts'
import { FormMessage } from './form-message.tsx'
import { Pager } from './pager.tsx'
import { usePageTitle } from '../../lib/page-title.ts'

/** Leagues: search by name, code or commissioner email; remove one (its members leave it). */
export default function LeaguesPage() {
  usePageTitle('Leagues · Admin')
  const [filter, setFilter] = useState<{ search: string; sport: Sport | '' }>({
    search: '',
    sport: '',
  })
  const [page, setPage] = useState(1)
  const { data, error } = useLeaguesQuery({ ...filter, page })
  const [removeLeague] = useRemoveLeagueMutation()
  const [removing, setRemoving] = useState<AdminLeague | null>(null)
  const [message, setMessage] = useState<{ ok?: string; error?: string | undefined }>({})

  const remove = async () => {
    if (!removing) return
    try {
      await removeLeague(removing.id).unwrap()
      setMessage({ ok: `Removed ${removing.name}.` })
    } catch (err) {
      setMessage({ error: apiError(err) })
    } finally {
      setRemoving(null)
    }
  }

  return (
    <div className={styles.page}>
      <h1>Leagues</h1>
      <form
        role="search"
        className={styles.row}
        onSubmit={(e) => {
          e.preventDefault()
          const d = new FormData(e.currentTarget)
          setPage(1)
          const sport = formText(d, 'sport')
          setFilter({ search: formText(d, 'search').trim(), sport: isSport(sport) ? sport : '' })
        }}
      >
        <FormField compact label="Name, code or commissioner email" name="search" type="search" />
        <SelectField compact label="Competition" name="sport" defaultValue="">
          <option value="">Both</option>
          <option value="bbl">BBL</option>
          <option value="wbbl">WBBL</option>
        </SelectField>
        <Button type="submit">Search</Button>
      </form>
      <FormMessage
        error={error ? failureMessage(error, 'Could not load') : message.error}
        ok={message.ok ?? null}
      />
      {data && data.leagues.length === 0 ? <p>No leagues found.</p> : null}
      <div className={styles.tableWrap}>
        <table className={`${styles.table} ${styles.stackTable}`}>
          <caption className={styles.meta}>Leagues, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">League</th>
              <th scope="col">Commissioner</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {data?.leagues.map((l) => (
              <tr key={l.id}>
                <td>
                  <strong>{l.name}</strong>
                  <br />
                  <span className={styles.meta}>
                    {l.sport.toUpperCase()} · {l.privacy} · {l.code} · from round {l.startRound} ·{' '}
                    {l.numUsers} {l.numUsers === 1 ? 'tipper' : 'tippers'}
                  </span>
                </td>
                <td>
                  {l.commissioner.name}
                  <br />
                  <span className={styles.meta}>{l.commissioner.email}</span>
                </td>
                <td>
                  <Button variant="secondary" onClick={() => setRemoving(l)}>
                    Remove <span className="visually-hidden">{l.name}</span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={page} nextPage={data?.nextPage ?? null} onPage={setPage} />
      <ConfirmModal
        open={removing !== null}
        title="Remove league"
        question={`Remove ${removing?.name ?? 'this league'} and its ${removing?.numUsers ?? 0} memberships? Tippers keep their scores.`}
        onYes={() => void remove()}
        onNo={() => setRemoving(null)}
      />
    </div>
  )
}
