import { useState, type FormEvent } from 'react'
import type { Sport } from '@tipping/contract/constants'
import type { League } from '@tipping/contract/leagues'
import { tipperName } from '@tipping/contract/names'
import { Button } from '../../ui/button.tsx'
import { ConfirmModal } from '../../ui/confirm-modal.tsx'
import { failureMessage } from '../../lib/api.ts'
import { useHandOverLeagueMutation, useJoinedUsersInfiniteQuery } from './leagues-api.ts'
import styles from './leagues.module.css'

/**
 * The commissioner hands the league to another member, who becomes its commissioner. Once a league
 * has started it can no longer be removed, so this (then Leave League) is how its commissioner
 * steps away. Members are listed a page at a time, as the members page lists them.
 */
export function HandOverLeague({
  sport,
  league,
  onHandedOver,
}: {
  sport: Sport
  league: League
  onHandedOver: () => void
}) {
  // The members page's list (one cache entry): the first page, more only when asked for.
  const query = useJoinedUsersInfiniteQuery({ sport, id: league.id })
  const members = query.currentData?.pages.flatMap((p) => p.users) ?? []
  const loading = query.isFetching
  const [handOverLeague] = useHandOverLeagueMutation()
  const [choice, setChoice] = useState('')
  const [actionError, setError] = useState<string | null>(null)
  const error =
    actionError ??
    (query.isError ? failureMessage(query.error, 'The members could not be loaded') : null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)

  const others = members.filter((m) => !m.isCommissioner)
  const chosen = others.find((m) => String(m.userId) === choice)

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    if (!chosen) return setError('Choose the member to hand the league to')
    setError(null)
    setConfirming(true)
  }

  const handOver = async () => {
    if (!chosen) return
    setBusy(true)
    try {
      await handOverLeague({
        sport,
        id: league.id,
        userId: chosen.userId,
      }).unwrap()
      setConfirming(false)
      onHandedOver()
    } catch (err) {
      setConfirming(false)
      setError(failureMessage(err, 'That did not work'))
    } finally {
      setBusy(false)
    }
  }

  if (!loading && !query.hasNextPage && others.length === 0)
    return (
      <p className={styles.meta}>
        To hand the league over, invite someone first: only a member can become its commissioner.
      </p>
    )

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="hand-over-title">
      <h3 id="hand-over-title">Hand over the league</h3>
      <p className={styles.meta}>
        Make another member the commissioner. You stay in the league as a member, and can then leave
        it.
      </p>
      {error ? (
        <p className={styles.formError} role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.fieldset}>
        <label className={styles.label} htmlFor="hand-over-member">
          New commissioner
        </label>
        <select
          id="hand-over-member"
          className={styles.select}
          value={choice}
          onChange={(e) => setChoice(e.target.value)}
          aria-invalid={error && !chosen ? true : undefined}
        >
          <option value="">Choose a member</option>
          {others.map((m) => (
            <option key={m.userId} value={m.userId}>
              {tipperName(m)}
            </option>
          ))}
        </select>
        {query.hasNextPage ? (
          <Button
            type="button"
            variant="secondary"
            disabled={loading}
            onClick={() => void query.fetchNextPage()}
          >
            {loading ? 'Loading members…' : 'List more members'}
          </Button>
        ) : null}
      </div>
      <Button type="submit" variant="secondary" data-testid="hand-over">
        Hand over
      </Button>
      <ConfirmModal
        open={confirming && chosen !== undefined}
        title="Hand over league?"
        question={`Are you sure you want to make ${chosen ? tipperName(chosen) : ''} the commissioner of this league? You will no longer manage it.`}
        busy={busy}
        onYes={() => void handOver()}
        onNo={() => setConfirming(false)}
      />
    </form>
  )
}
