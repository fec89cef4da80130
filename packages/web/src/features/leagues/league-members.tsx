import { useEffect, useState } from 'react'
import type { Sport } from '@tipping/contract/constants'
import type { League } from '@tipping/contract/leagues'
import { tipperName } from '@tipping/contract/scores'
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
  const [removing, setRemoving] = useState<leaguesApi.JoinedUser | null>(null)
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

  const remove = async () => {
    if (!removing) return
    setBusy(true)
    try {
      await leaguesApi.removeMember(sport, league.id, removing.userId)
      setUsers((prev) => prev.filter((u) => u.userId !== removing.userId))
      onChanged()
    } catch (err) {
      setError(err instanceof Error ? err.message : 'That member was not removed')
    } finally {
      setBusy(false)
      setRemoving(null)
    }
  }

  return (
    <section className={styles.card} aria-label="Members">
      <h2>Members ({league.numUser})</h2>
      {error ? (
        <p role="alert" className={styles.formError}>
          {error}
        </p>
      ) : null}
      <ul className={styles.list} style={{ gap: 0 }}>
        {users.map((u) => (
          <li key={u.userId} className={styles.memberRow}>
            <span className={styles.memberName}>{tipperName(u)}</span>
            {u.isCommissioner ? (
              <span className={`${styles.badge} ${styles.badgeGold}`}>Commissioner</span>
            ) : null}
            {league.isCommissioner && !u.isCommissioner ? (
              <Button
                variant="secondary"
                aria-label={`Remove ${tipperName(u)}`}
                onClick={() => setRemoving(u)}
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
        title="Remove member?"
        question={`Are you sure you want to remove ${removing ? tipperName(removing) : ''} from this league?`}
        busy={busy}
        onYes={() => void remove()}
        onNo={() => setRemoving(null)}
      />
    </section>
  )
}
