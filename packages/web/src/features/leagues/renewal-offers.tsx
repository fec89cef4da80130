import { useState } from 'react'
import type { Sport } from '@tipping/contract/constants'
import { failureMessage } from '../../lib/api.ts'
import { Button } from '../../ui/button.tsx'
import {
  useAcceptRenewalMutation,
  useDeclineRenewalMutation,
  useRenewalOffersQuery,
} from './renewal-api.ts'
import styles from './leagues.module.css'

/**
 * Leagues back for this season (issue 31): a commissioner renewed a league the user played in
 * last season. The user is asked, not moved: join with one click, or say no thanks. Shows
 * nothing when there is no offer.
 */
export function RenewalOffers({ sport }: { sport: Sport }) {
  const offers = useRenewalOffersQuery(sport)
  const [accept, accepting] = useAcceptRenewalMutation()
  const [decline, declining] = useDeclineRenewalMutation()
  const [error, setError] = useState<string | null>(null)
  const list = offers.data?.offers ?? []
  if (list.length === 0) return null
  const busy = accepting.isLoading || declining.isLoading
  const run = (p: Promise<unknown>) =>
    p.catch((e: unknown) => setError(failureMessage(e, 'That did not work; please try again')))
  return (
    <section className={styles.card} aria-labelledby="renewal-offers">
      <h2 id="renewal-offers">Leagues back for this season</h2>
      {error ? (
        <p role="alert" className={styles.formError}>
          {error}
        </p>
      ) : null}
      <ul className={styles.list}>
        {list.map((o) => (
          <li key={o.id}>
            <p>
              <strong>{o.name}</strong>, renewed by {o.commissioner} from {o.from.year}, starts week{' '}
              {o.startRound}.
            </p>
            <div className={styles.actions}>
              <Button
                disabled={busy}
                onClick={() => void run(accept({ sport, id: o.id }).unwrap())}
              >
                Join {o.name}
              </Button>
              <Button
                variant="secondary"
                disabled={busy}
                onClick={() => void run(decline({ sport, id: o.id }).unwrap())}
              >
                No thanks
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
