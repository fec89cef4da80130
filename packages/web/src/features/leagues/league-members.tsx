import { useEffect, useState } from 'react'
import type { Sport } from '@tipping/contract/constants'
import type { League } from '@tipping/contract/leagues'
import { tipperName } from '@tipping/contract/names'
import { Button } from '../../ui/button.tsx'
import { ConfirmModal } from '../../ui/confirm-modal.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import * as leaguesApi from './leagues-api.ts'
import styles from './leagues.module.css'

/** The league's tippers, page by page; the commissioner may remove any but themself. */
export function LeagueMembers({
  sport,
  league,
  onChanged,
}: {
  sport: Sport
  league: League
  onChanged: () => void
}) {
  const [users, setUsers] = useState<leaguesApi.JoinedUser[]>([])
  const [nextPage, setNextPage] = useState<number | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [removing, setRemoving] = useState<leaguesApi.JoinedUser[] | null>(null)
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  const [busy, setBusy] = useState(false)

  const load = (page: number) => {
    setLoading(true)
    leaguesApi
      .joinedUsers(sport, league.id, page)
      .then((res) => {
        setUsers((prev) => (page === 1 ? res.users : [...prev, ...res.users]))
        setNextPage(res.nextPage)
        setError(null)
      })
      .catch((err: unknown) =>
        setError(err instanceof Error ? err.message : 'Could not load the members'),
      )
      .finally(() => setLoading(false))
  }
  useEffect(() => {
    load(1)
    // Reload when the league changes (a member removed or joined).
  }, [sport, league.id, league.numUser])

  const toggle = (userId: number) =>
    setSelected((prev) => {
      const next = new Set(prev)
      if (next.has(userId)) next.delete(userId)
      else next.add(userId)
      return next
    })

  // One member or several at once (tipping_join/delete_multi): all or nothing on the server.
  const remove = async () => {
    if (!removing) return
    setBusy(true)
    const ids = removing.map((u) => u.userId)
    try {
      if (ids.length === 1) await leaguesApi.removeMember(sport, league.id, ids[0]!)
      else await leaguesApi.removeMembers(league.id, ids)
      setUsers((prev) => prev.filter((u) => !ids.includes(u.userId)))
      setSelected(new Set())
      onChanged()
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Those members were not removed')
    } finally {
      setBusy(false)
      setRemoving(null)
    }
  }

  const chosen = users.filter((u) => selected.has(u.userId))
  return (
    <section className={styles.card} aria-label="Members">
      <div className={styles.titleBar}>
        <h2>Members ({league.numUser})</h2>
        {league.isCommissioner && chosen.length > 0 ? (
          <Button variant="secondary" onClick={() => setRemoving(chosen)}>
            Remove selected ({chosen.length})
          </Button>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className={styles.formError}>
          {error}
        </p>
      ) : null}
      <ul className={styles.list} style={{ gap: 0 }}>
        {users.map((u) => (
          <li key={u.userId} className={styles.memberRow}>
            {league.isCommissioner && !u.isCommissioner ? (
              <input
                type="checkbox"
                className={styles.check}
                checked={selected.has(u.userId)}
                onChange={() => toggle(u.userId)}
                aria-label={`Select ${tipperName(u)}`}
              />
            ) : null}
            <span className={styles.memberName}>{tipperName(u)}</span>
            {u.isCommissioner ? (
              <span className={`${styles.badge} ${styles.badgeGold}`}>Commissioner</span>
            ) : null}
            {league.isCommissioner && !u.isCommissioner ? (
              <Button
                variant="secondary"
                aria-label={`Remove ${tipperName(u)}`}
                onClick={() => setRemoving([u])}
              >
                Remove
              </Button>
            ) : null}
          </li>
        ))}
      </ul>
      {loading ? <Spinner label="Loading members" /> : null}
      {nextPage !== null && !loading ? (
        <div className={styles.more}>
          <Button variant="secondary" onClick={() => load(nextPage)}>
            Load more
          </Button>
        </div>
      ) : null}
      <ConfirmModal
        open={removing !== null}
        title={removing && removing.length > 1 ? 'Remove members?' : 'Remove member?'}
        question={
          removing && removing.length > 1
            ? `Are you sure you want to remove ${removing.length} members from this league?`
            : `Are you sure you want to remove ${removing?.[0] ? tipperName(removing[0]) : ''} from this league?`
        }
        busy={busy}
        onYes={() => void remove()}
        onNo={() => setRemoving(null)}
      />
    </section>
  )
}
