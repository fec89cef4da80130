import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import type { Sport } from '@tipping/contract/constants'
import { updateLeagueBodySchema, type League } from '@tipping/contract/leagues'
import { failureMessage } from '../../lib/api.ts'
import { asFailure } from '../../lib/api-failure.ts'
import { useFlash } from '../../lib/use-flash.ts'
import { Button } from '../../ui/button.tsx'
import { ConfirmModal } from '../../ui/confirm-modal.tsx'
import { FormField } from '../../ui/form-field.tsx'
import {
  useLeaveLeagueMutation,
  useRemoveLeagueMutation,
  useUpdateLeagueMutation,
} from './leagues-api.ts'
import styles from './leagues.module.css'
import { HandOverLeague } from './hand-over-league.tsx'
import { MessageMembers } from './message-members.tsx'

type Errors = Partial<Record<'name' | 'description' | 'privacy' | 'form', string>>

/** Spec 2 "League settings": the commissioner edits or removes the league (removal only while it is
 * scheduled) or hands it to another member; everyone else may leave it. */
export function LeagueSettings({ sport, league }: { sport: Sport; league: League }) {
  const navigate = useNavigate()
  const [confirm, setConfirm] = useState<'remove' | 'leave' | null>(null)
  const [busy, setBusy] = useState(false)
  const [errors, setErrors] = useState<Errors>({})
  const [saving, setSaving] = useState(false)
  const [flash, showFlash] = useFlash()
  const [updateLeague] = useUpdateLeagueMutation()
  const [removeLeague] = useRemoveLeagueMutation()
  const [leaveLeague] = useLeaveLeagueMutation()

  const save = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const parsed = updateLeagueBodySchema.safeParse({
      name: data.get('name'),
      description: data.get('description') ?? '',
      privacy: data.get('privacy'),
    })
    if (!parsed.success) {
      const next: Errors = {}
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form') as keyof Errors
        next[key] ??= issue.message
      }
      setErrors(next)
      return
    }
    setErrors({})
    setSaving(true)
    try {
      // The answer is the league as saved: the page shows it from the cache (leagues-api.ts).
      await updateLeague({ sport, id: league.id, body: parsed.data }).unwrap()
      showFlash('Saved.')
    } catch (err) {
      const failure = asFailure(err, 'Not saved')
      if (failure.param && failure.param !== 'body') setErrors({ [failure.param]: failure.message })
      else setErrors({ form: failure.message })
    } finally {
      setSaving(false)
    }
  }

  const act = async () => {
    setBusy(true)
    try {
      if (confirm === 'remove') await removeLeague({ sport, id: league.id }).unwrap()
      else await leaveLeague({ sport, id: league.id }).unwrap()
      void navigate(`/${sport}/leagues`)
    } catch (err) {
      setErrors({ form: failureMessage(err, 'That did not work') })
      setConfirm(null)
    } finally {
      setBusy(false)
    }
  }

  return (
    <section className={styles.card} aria-label="Settings">
      {league.isCommissioner ? (
        <form className={styles.form} onSubmit={(e) => void save(e)} noValidate>
          <h2>League details</h2>
          {errors.form ? (
            <p className={styles.formError} role="alert">
              {errors.form}
            </p>
          ) : null}
          {flash ? (
            <p className={styles.success} role="status">
              {flash}
            </p>
          ) : null}
          <FormField
            label="League name"
            name="name"
            defaultValue={league.name}
            error={errors.name}
          />
          <div className={styles.fieldset}>
            <label className={styles.label} htmlFor="settings-description">
              Description
            </label>
            <textarea
              id="settings-description"
              name="description"
              className={styles.textarea}
              defaultValue={league.description}
              aria-invalid={errors.description ? true : undefined}
            />
            {errors.description ? (
              <span className={styles.fieldError} role="alert">
                {errors.description}
              </span>
            ) : null}
          </div>
          <fieldset className={styles.fieldset}>
            <legend>Privacy</legend>
            <label className={styles.choice}>
              <input
                type="radio"
                name="privacy"
                value="private"
                defaultChecked={league.privacy === 'private'}
              />
              <span>
                <strong>Private</strong> — join by code or invite link only.
              </span>
            </label>
            <label className={styles.choice}>
              <input
                type="radio"
                name="privacy"
                value="public"
                defaultChecked={league.privacy === 'public'}
              />
              <span>
                <strong>Public</strong> — anyone can find it and join.
              </span>
            </label>
          </fieldset>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving…' : 'Save changes'}
          </Button>
        </form>
      ) : null}
      {league.isCommissioner ? (
        <div className={styles.danger}>
          <MessageMembers sport={sport} league={league} />
        </div>
      ) : (
        <>
          <h2>Your membership</h2>
          {errors.form ? (
            <p className={styles.formError} role="alert">
              {errors.form}
            </p>
          ) : null}
          {flash ? (
            <p className={styles.success} role="status">
              {flash}
            </p>
          ) : null}
          <p className={styles.meta}>
            Leaving takes you off this ladder. You can rejoin later with the code.
          </p>
        </>
      )}
      <div className={styles.danger}>
        {league.isCommissioner ? (
          league.status === 'scheduled' ? (
            <Button variant="secondary" onClick={() => setConfirm('remove')}>
              Remove League
            </Button>
          ) : (
            <p className={styles.meta}>
              The league has started, so it can no longer be removed. To step away, hand it to
              another member, then leave it.
            </p>
          )
        ) : (
          <Button variant="secondary" onClick={() => setConfirm('leave')}>
            Leave League
          </Button>
        )}
      </div>
      {league.isCommissioner ? (
        <div className={styles.danger}>
          <HandOverLeague
            sport={sport}
            league={league}
            onHandedOver={() => {
              showFlash('The league has a new commissioner. You can leave it now if you like.')
            }}
          />
        </div>
      ) : null}
      <ConfirmModal
        open={confirm !== null}
        title={confirm === 'remove' ? 'Remove league?' : 'Leave league?'}
        question={
          confirm === 'remove'
            ? 'Are you sure you want to remove this league?'
            : 'Are you sure you want to leave this league?'
        }
        busy={busy}
        onYes={() => void act()}
        onNo={() => setConfirm(null)}
      />
    </section>
  )
}
