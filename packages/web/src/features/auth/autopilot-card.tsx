import { useState, type FormEvent } from 'react'
import {
  AUTOPILOT_LEADS,
  AUTOPILOT_STRATEGIES,
  type AutopilotLead,
  type AutopilotStrategy,
} from '@tipping/contract/autopilot'
import type { Sport } from '@tipping/contract/constants'
import { failureMessage } from '../../lib/api.ts'
import { useFlash } from '../../lib/use-flash.ts'
import { Button } from '../../ui/button.tsx'
import { useAutopilotQuery, useSaveAutopilotMutation } from './autopilot-api.ts'
import styles from './account.module.css'

export const AUTOPILOT_SAVED = 'Autopilot saved'

const STRATEGY_LABELS: Record<AutopilotStrategy, string> = {
  off: 'Off',
  favourite: "The tippers' favourite",
  home: 'The home side',
  team: 'My team when it plays, else the favourite',
}

/**
 * Autopilot for this sport (issue 32): what to tip for a match the player has not tipped, and how
 * long before its start. The tips it places are ordinary tips, marked on the tipping page.
 */
export function AutopilotCard({ sport }: { sport: Sport }) {
  const { data, isLoading } = useAutopilotQuery(sport)
  const [save, { isLoading: busy }] = useSaveAutopilotMutation()
  const [error, setError] = useState<string | null>(null)
  const [message, flash] = useFlash()
  const current = data?.autopilot

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = new FormData(e.currentTarget)
    const field = (name: string) => {
      const v = form.get(name)
      return typeof v === 'string' ? v : ''
    }
    const strategy = field('strategy') as AutopilotStrategy
    const leadMinutes = Number(field('leadMinutes')) as AutopilotLead
    setError(null)
    try {
      await save({ sport, body: { strategy, leadMinutes } }).unwrap()
      flash(AUTOPILOT_SAVED)
    } catch (err) {
      setError(failureMessage(err, 'Autopilot could not be saved'))
    }
  }

  return (
    <section className={styles.card} aria-labelledby="autopilot-title" data-testid="autopilot-card">
      <h2 id="autopilot-title">Autopilot</h2>
      <p>
        If you have not tipped a match by this long before it starts, autopilot tips it for you.
        Your own tip always wins, and you can change an autopilot tip until the match starts.
      </p>
      {message ? (
        <p className={styles.success} role="status">
          {message}
        </p>
      ) : null}
      {error ? (
        <p className={styles.formError} role="alert">
          {error}
        </p>
      ) : null}
      {isLoading || !current ? null : (
        <form
          className={styles.form}
          onSubmit={(e) => void submit(e)}
          noValidate
          data-testid="autopilot-form"
          key={`${current.strategy}-${current.leadMinutes}`}
        >
          <label className={styles.label} htmlFor="autopilot-strategy">
            Tip for me with
          </label>
          <select
            id="autopilot-strategy"
            name="strategy"
            className={styles.select}
            defaultValue={current.strategy}
          >
            {AUTOPILOT_STRATEGIES.map((s) => (
              <option key={s} value={s}>
                {STRATEGY_LABELS[s]}
              </option>
            ))}
          </select>
          <label className={styles.label} htmlFor="autopilot-lead">
            When a match I have not tipped starts in
          </label>
          <select
            id="autopilot-lead"
            name="leadMinutes"
            className={styles.select}
            defaultValue={String(current.leadMinutes)}
          >
            {AUTOPILOT_LEADS.map((m) => (
              <option key={m} value={m}>
                {m < 60 ? `${m} minutes` : `${m / 60} hour${m === 60 ? '' : 's'}`}
              </option>
            ))}
          </select>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save autopilot'}
          </Button>
        </form>
      )}
    </section>
  )
}
