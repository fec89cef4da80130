import { useState } from 'react'
import type { Sport } from '@tipping/contract/constants'
import type { JoinedUser, League } from '@tipping/contract/leagues'
import { tipperName } from '@tipping/contract/names'
import { Button } from '../../ui/button.tsx'
import { ConfirmModal } from '../../ui/confirm-modal.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { failureMessage } from '../../lib/api.ts'
import {
  FRESH,
  useJoinedUsersInfiniteQuery,
  useRemoveMemberMutation,
  useRemoveMembersMutation,
} from './leagues-api.ts'
import styles from './leagues.module.css'
import { useLeagueHonours, WeeksWon } from './honours.tsx'

/** The league's tippers, page by page; the commissioner may remove any but themself. */
export function LeagueMembers({ sport, league }: { sport: Sport; league: League }) {
  // Read again when the member count changes (someone joined or was removed).
  const query = useJoinedUsersInfiniteQuery({ sport, id: league.id }, FRESH)
  const users = query.currentData?.pages.flatMap((p) => p.users) ?? []
  const loading = query.isFetching
  // Issue 31: each member's round honours under their name.
  const honours = useLeagueHonours(sport, league.id)
  const [removeMember] = useRemoveMemberMutation()
  const [removeMembers] = useRemoveMembersMutation()
  const [removeError, setRemoveError] = useState<string | null>(null)
  const error =
    removeError ??
    (query.isError ? failureMessage(query.error, 'Could not load the members') : null)
  const [removing, setRemoving] = useState<JoinedUser[] | null>(null)
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  const [busy, setBusy] = useState(false)

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
      // The league, its members and its ladder are read again (their tags are invalidated).
      if (ids.length === 1) await removeMember({ sport, id: league.id, userId: ids[0]! }).unwrap()
      else await removeMembers({ id: league.id, userIds: ids }).unwrap()
      setSelected(new Set())
      setRemoveError(null)
    } catch (err) {
      setRemoveError(failureMessage(err, 'Those members were not removed'))
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
            <span className={styles.memberName}>
              {tipperName(u)}
              <WeeksWon rounds={honours.weeksWon.get(u.userId)} />
            </span>
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
      {query.hasNextPage && !loading ? (
        <div className={styles.more}>
          <Button variant="secondary" onClick={() => void query.fetchNextPage()}>
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
