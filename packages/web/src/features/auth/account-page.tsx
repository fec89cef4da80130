import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useNavigate } from 'react-router'
import type { UserSession } from '@tipping/contract/auth'
import type { ReminderLead } from '@tipping/contract/autopilot'
import { CONFIRMATION_DELAY_MS, PASSWORD_MIN, type Sport } from '@tipping/contract/constants'
import { failureMessage, isApiFailure } from '../../lib/api.ts'
import { useSport } from '../../lib/sport.ts'
import { useCurrentUser } from '../../lib/use-current-user.ts'
import { useFlash } from '../../lib/use-flash.ts'
import { Button } from '../../ui/button.tsx'
import { ConfirmModal } from '../../ui/confirm-modal.tsx'
import { FormField } from '../../ui/form-field.tsx'
import {
  PROFILE_MAX_LENGTH,
  validatePasswordChange,
  validateProfile,
  type FieldErrors,
} from './account-validation.ts'
import {
  useChangePasswordMutation,
  useDeactivateAccountMutation,
  useLazySessionUserQuery,
  useSquadsQuery,
  useUpdateUserMutation,
} from './auth-api.ts'
import styles from './account.module.css'
import { AutopilotCard } from './autopilot-card.tsx'
import { sessionActions } from '../../lib/session-slice.ts'
import { usePageTitle } from '../../lib/page-title.ts'

export const PROFILE_UPDATED = 'Your profile has been updated'
export const PASSWORD_CHANGED = 'Your password has been changed'

const text = (data: FormData, name: string): string => {
  const value = data.get(name)
  return typeof value === 'string' ? value : ''
}

const errorsOf = (err: unknown): FieldErrors => {
  if (isApiFailure(err) && err.param && err.param !== 'body') return { [err.param]: err.message }
  return { form: failureMessage(err, 'Something went wrong') }
}

/** `/{sport}/account` (spec 2): profile, password, deactivation and logout. */
export default function AccountPage() {
  usePageTitle('Your account')
  const sport = useSport()
  const user = useCurrentUser()
  return (
    <div className={styles.page}>
      <div className={styles.titleBar}>
        <h1>Your account</h1>
        <Link to="/logout" data-testid="account-logout">
          Logout
        </Link>
      </div>
      <p>
        Signed in as <strong>{user.email}</strong>
      </p>
      <div className={styles.columns}>
        <ProfileCard sport={sport} user={user} />
        <div className={styles.stack}>
          <AutopilotCard sport={sport} />
          <PasswordCard />
          <DeactivateCard />
        </div>
      </div>
    </div>
  )
}

function ProfileCard({ sport, user }: { sport: Sport; user: UserSession }) {
  const dispatch = useDispatch()
  // Without the squads file the choice is just "none" (as before it loads).
  const squads = useSquadsQuery(sport).data?.squads ?? []
  const [updateUser, { isLoading: busy }] = useUpdateUserMutation()
  const [checkSession] = useLazySessionUserQuery()
  const [errors, setErrors] = useState<FieldErrors>({})
  const [message, setMessage] = useState<string | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current)
    },
    [],
  )

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    // A name goes only when it was changed (see validateProfile).
    const changed = (field: 'first_name' | 'last_name') =>
      text(data, field).trim() === user[field] ? {} : { [field]: text(data, field) }
    const body = {
      ...changed('first_name'),
      ...changed('last_name'),
      team_name: text(data, 'team_name'),
      team_supported: Number(text(data, 'team_supported') || '0'),
      disabledNotifications: data.get('leagueEmails') !== 'on',
      reminderLead: text(data, 'reminderLead') as ReminderLead,
      successMsg: PROFILE_UPDATED,
    }
    const invalid = validateProfile(body)
    setErrors(invalid)
    if (Object.keys(invalid).length > 0) return
    dispatch(sessionActions.userUpdateRequested())
    try {
      const res = await updateUser({ sport, body }).unwrap()
      dispatch(sessionActions.userUpdated(res.user))
      // Spec 4: the success message shows, then after 2 seconds it is cleared and a refresh runs.
      setMessage(res.successMsg)
      if (timer.current) clearTimeout(timer.current)
      timer.current = setTimeout(() => {
        setMessage(null)
        dispatch(sessionActions.userUpdateReset())
        checkSession()
          .unwrap()
          .then(({ user: fresh }) => {
            if (fresh) dispatch(sessionActions.sessionChecked(fresh))
          })
          .catch(() => undefined)
      }, CONFIRMATION_DELAY_MS)
    } catch (err) {
      setErrors(errorsOf(err))
      dispatch(sessionActions.userUpdateReset())
      if (isApiFailure(err))
        dispatch(
          sessionActions.authFailed({ code: err.code, param: err.param, message: err.message }),
        )
    }
  }

  return (
    <section className={styles.card} aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      {message ? (
        <p className={styles.success} role="status" data-testid="profile-saved">
          {message}
        </p>
      ) : null}
      {errors.form ? (
        <p className={styles.formError} role="alert">
          {errors.form}
        </p>
      ) : null}
      <form
        className={styles.form}
        onSubmit={(e) => void submit(e)}
        noValidate
        data-testid="profile-form"
      >
        <div className={styles.names}>
          <FormField
            label="First name"
            name="first_name"
            autoComplete="given-name"
            maxLength={PROFILE_MAX_LENGTH.first_name}
            defaultValue={user.first_name}
            error={errors.first_name}
          />
          <FormField
            label="Last name"
            name="last_name"
            autoComplete="family-name"
            maxLength={PROFILE_MAX_LENGTH.last_name}
            defaultValue={user.last_name}
            error={errors.last_name}
          />
        </div>
        <FormField
          label="Tipping team name"
          name="team_name"
          autoComplete="off"
          defaultValue={user.team_name ?? ''}
          error={errors.team_name}
        />
        <label className={styles.label} htmlFor="team-supported">
          Team you support
        </label>
        <select
          id="team-supported"
          name="team_supported"
          className={styles.select}
          defaultValue={String(user.team_supported)}
          key={`${user.team_supported}-${squads.length}`}
          aria-invalid={errors.team_supported ? true : undefined}
          aria-describedby={errors.team_supported ? 'team-supported-error' : undefined}
        >
          <option value="0">No team</option>
          {squads.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
        {errors.team_supported ? (
          <span id="team-supported-error" className={styles.fieldError} role="alert">
            {errors.team_supported}
          </span>
        ) : null}
        <label className={styles.label} htmlFor="reminder-lead">
          Email me a reminder to tip
        </label>
        <select
          id="reminder-lead"
          name="reminderLead"
          className={styles.select}
          defaultValue={user.reminderLead}
          key={user.reminderLead}
        >
          <option value="round">A day before each round</option>
          <option value="match">2 hours before my first untipped match</option>
          <option value="off">Never</option>
        </select>
        <label className={styles.check}>
          <input type="checkbox" name="leagueEmails" defaultChecked={!user.disabledNotifications} />
          <span>Email me messages and news from my leagues</span>
        </label>
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save profile'}
        </Button>
      </form>
    </section>
  )
}

function PasswordCard() {
  const [errors, setErrors] = useState<FieldErrors>({})
  const [changePassword, { isLoading: busy }] = useChangePasswordMutation()
  const [message, flash] = useFlash()

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    const body = {
      currentPassword: text(data, 'currentPassword'),
      password: text(data, 'password'),
      confirmation: text(data, 'confirmation'),
    }
    const invalid = validatePasswordChange(body)
    setErrors(invalid)
    if (Object.keys(invalid).length > 0) return
    try {
      await changePassword(body).unwrap()
      form.reset()
      flash(PASSWORD_CHANGED)
    } catch (err) {
      setErrors(errorsOf(err))
    }
  }

  return (
    <section className={styles.card} aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <p>Changing it signs you out on your other devices.</p>
      {message ? (
        <p className={styles.success} role="status">
          {message}
        </p>
      ) : null}
      {errors.form ? (
        <p className={styles.formError} role="alert">
          {errors.form}
        </p>
      ) : null}
      <form
        className={styles.form}
        onSubmit={(e) => void submit(e)}
        noValidate
        data-testid="password-form"
      >
        <FormField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword}
        />
        <FormField
          label={`New password (at least ${PASSWORD_MIN} characters)`}
          name="password"
          type="password"
          autoComplete="new-password"
          error={errors.password}
        />
        <FormField
          label="Confirm new password"
          name="confirmation"
          type="password"
          autoComplete="new-password"
          error={errors.confirmation}
        />
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Change password'}
        </Button>
      </form>
    </section>
  )
}

function DeactivateCard() {
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const [deactivateAccount, { isLoading: busy }] = useDeactivateAccountMutation()
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const deactivate = async () => {
    try {
      await deactivateAccount().unwrap()
      // Spec 4: the stored session is cleared, then the user is logged out.
      dispatch(sessionActions.deactivated())
      void navigate('/logout', { replace: true })
    } catch (err) {
      setOpen(false)
      setError(failureMessage(err, 'Something went wrong'))
    }
  }

  return (
    <section className={`${styles.card} ${styles.danger}`} aria-labelledby="deactivate-title">
      <h2 id="deactivate-title">Deactivate account</h2>
      <p>
        Deactivating signs you out everywhere and you will no longer be able to sign in with this
        account.
      </p>
      {error ? (
        <p className={styles.formError} role="alert">
          {error}
        </p>
      ) : null}
      <Button variant="secondary" data-testid="deactivate-open" onClick={() => setOpen(true)}>
        Deactivate my account
      </Button>
      <ConfirmModal
        open={open}
        title="Deactivate account"
        question="Deactivate your account? You will be signed out and will not be able to sign in again."
        busy={busy}
        onYes={() => void deactivate()}
        onNo={() => setOpen(false)}
      />
    </section>
  )
}
