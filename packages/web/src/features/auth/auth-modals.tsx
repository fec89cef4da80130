import { useState, type FormEvent, type ReactNode } from 'react'
import { useDispatch, useSelector } from 'react-redux'
import { useNavigate } from 'react-router'
import { PASSWORD_MIN } from '@tipping/contract/constants'
import { failureMessage, isApiFailure } from '../../lib/api.ts'
import { editedField, focusFirstInvalid } from '../../lib/field-errors.ts'
import { tagRegistration } from '../../lib/integrations.ts'
import {
  deepLinkFor,
  INVITE_NOTICE,
  savedInvite,
  takeRouteAfterSignIn,
} from '../../lib/after-sign-in.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { Modal } from '../../ui/modal.tsx'
import {
  useLoginMutation,
  useRegisterMutation,
  useRequestPasswordResetMutation,
} from './auth-api.ts'
import {
  REGISTRATION_MAX_LENGTH,
  validateLogin,
  validateRegistration,
  validateResetRequest,
} from './account-validation.ts'
import styles from './auth-forms.module.css'
import { sessionActions } from '../../lib/session-slice.ts'
import { storedSport } from '../../lib/sport.ts'
import type { WithSession } from '../../lib/use-current-user.ts'

type Errors = Record<string, string>

const field = (data: FormData, name: string): string => {
  const value = data.get(name)
  return typeof value === 'string' ? value : ''
}

/** Editing a field takes its message away (the next submit checks it again). */
const clearedOnEdit =
  (set: (update: (e: { fields: Errors; form: string | null }) => typeof e) => void) =>
  (e: FormEvent<HTMLFormElement>) => {
    const name = editedField(e.target)
    set((prev) => {
      if (!name || !(name in prev.fields)) return prev
      const { [name]: _gone, ...fields } = prev.fields
      return { ...prev, fields }
    })
  }

const fieldErrors = (err: unknown): { fields: Errors; form: string | null } => {
  if (isApiFailure(err) && err.param && err.param !== 'body')
    return { fields: { [err.param]: err.message }, form: null }
  return { fields: {}, form: failureMessage(err, 'Something went wrong') }
}

/**
 * The login and registration modals: at most one open at a time (spec 2). `loginWith`: other
 * ways to sign in, composed by the app (the single sign-on button).
 */
export function AuthModals({ loginWith }: { loginWith?: ReactNode }) {
  const session = useSelector((s: WithSession) => s.session)
  const dispatch = useDispatch()
  const close = () => dispatch(sessionActions.authModalOpened(null))
  // Read when a form opens: the invite is saved by the redirect that opens the login form.
  const invite = session.authModal !== null && savedInvite() !== null
  const inviteNotice = invite ? (
    <p className={styles.notice} data-testid="invite-notice">
      {INVITE_NOTICE}
    </p>
  ) : null
  return (
    <>
      <Modal open={session.authModal === 'login'} title="Log in" onClose={close}>
        {inviteNotice}
        <LoginForm notice={session.authNotice} />
        {loginWith}
      </Modal>
      <Modal
        open={session.authModal === 'registration'}
        title="Create your account"
        onClose={close}
      >
        {inviteNotice}
        <RegistrationForm />
      </Modal>
      <Modal
        open={session.authModal === 'forgot-password'}
        title="Forgot your password?"
        onClose={close}
      >
        <ForgotPasswordForm />
      </Modal>
    </>
  )
}

/**
 * After a sign-in: the sport is the one chosen when it happens (the landing page's BBL / WBBL
 * choice, or the sport of the page the session expired on), read then rather than when the forms
 * were drawn: the frame that draws them does not re-render when the landing page's choice changes,
 * and a player who chose WBBL was sent to the BBL leagues.
 */
function useSignedIn() {
  const dispatch = useDispatch()
  const navigate = useNavigate()
  return (user: Parameters<typeof sessionActions.loginSucceeded>[0], registered = false) => {
    const sport = storedSport()
    dispatch(sessionActions.loginSucceeded(user))
    if (registered) void tagRegistration({ userId: user.id, sport, step: 'registration' })
    const next = takeRouteAfterSignIn(user, sport)
    // An invite opened while signed out: back to it, joining straight away (spec 4).
    void navigate(next, deepLinkFor(next) === 'joinLink' ? { state: { autoJoin: true } } : {})
  }
}

function LoginForm({ notice }: { notice: string | null }) {
  const dispatch = useDispatch()
  const signedIn = useSignedIn()
  const [login, { isLoading: busy }] = useLoginMutation()
  const [errors, setErrors] = useState<{ fields: Errors; form: string | null }>({
    fields: {},
    form: null,
  })

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    const body = { email: field(data, 'email'), password: field(data, 'password') }
    const invalid = validateLogin(body)
    setErrors({ fields: invalid, form: null })
    if (Object.keys(invalid).length > 0) return focusFirstInvalid(form, invalid)
    dispatch(sessionActions.loginRequested())
    try {
      const { user } = await login(body).unwrap()
      signedIn(user)
    } catch (err) {
      // A wrong password is reported on the form, not against one field.
      setErrors(
        isApiFailure(err) && err.code === 'INVALID_CREDENTIALS'
          ? { fields: {}, form: err.message }
          : fieldErrors(err),
      )
      if (isApiFailure(err))
        dispatch(
          sessionActions.authFailed({ code: err.code, param: err.param, message: err.message }),
        )
    }
  }

  return (
    <form
      className={styles.form}
      onSubmit={(e) => void submit(e)}
      onChange={clearedOnEdit(setErrors)}
      noValidate
    >
      {notice ? <p className={styles.notice}>{notice}</p> : null}
      {errors.form ? (
        <p className={styles.formError} role="alert">
          {errors.form}
        </p>
      ) : null}
      <FormField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={errors.fields.email}
      />
      <FormField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        error={errors.fields.password}
      />
      <Button type="submit" block disabled={busy}>
        {busy ? 'Logging in…' : 'Log in'}
      </Button>
      <p className={styles.switch}>
        New here?{' '}
        <button
          type="button"
          className={styles.link}
          onClick={() => dispatch(sessionActions.authModalOpened('registration'))}
        >
          Create an account
        </button>
        {' · '}
        <button
          type="button"
          className={styles.link}
          onClick={() => dispatch(sessionActions.authModalOpened('forgot-password'))}
        >
          Forgot password?
        </button>
      </p>
    </form>
  )
}

function RegistrationForm() {
  const dispatch = useDispatch()
  const signedIn = useSignedIn()
  const [register, { isLoading: busy }] = useRegisterMutation()
  const [errors, setErrors] = useState<{ fields: Errors; form: string | null }>({
    fields: {},
    form: null,
  })

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const form = e.currentTarget
    const data = new FormData(form)
    const teamName = field(data, 'team_name').trim()
    const body = {
      firstName: field(data, 'firstName'),
      lastName: field(data, 'lastName'),
      email: field(data, 'email'),
      password: field(data, 'password'),
      ...(teamName ? { team_name: teamName } : {}),
    }
    // Every field's problem at once, before anything is sent.
    const invalid = validateRegistration(body)
    setErrors({ fields: invalid, form: null })
    if (Object.keys(invalid).length > 0) return focusFirstInvalid(form, invalid)
    try {
      const { user } = await register(body).unwrap()
      signedIn(user, true)
    } catch (err) {
      setErrors(fieldErrors(err))
      if (isApiFailure(err))
        dispatch(
          sessionActions.authFailed({ code: err.code, param: err.param, message: err.message }),
        )
    }
  }

  return (
    <form
      className={styles.form}
      onSubmit={(e) => void submit(e)}
      onChange={clearedOnEdit(setErrors)}
      noValidate
    >
      {errors.form ? (
        <p className={styles.formError} role="alert">
          {errors.form}
        </p>
      ) : null}
      <div className={styles.row}>
        <FormField
          label="First name"
          name="firstName"
          autoComplete="given-name"
          required
          maxLength={REGISTRATION_MAX_LENGTH.firstName}
          error={errors.fields.firstName}
        />
        <FormField
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          required
          maxLength={REGISTRATION_MAX_LENGTH.lastName}
          error={errors.fields.lastName}
        />
      </div>
      <FormField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={REGISTRATION_MAX_LENGTH.email}
        error={errors.fields.email}
      />
      <FormField
        label={`Password (at least ${PASSWORD_MIN} characters)`}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN}
        maxLength={REGISTRATION_MAX_LENGTH.password}
        required
        error={errors.fields.password}
      />
      <FormField
        label="Tipping team name (optional)"
        name="team_name"
        autoComplete="off"
        maxLength={REGISTRATION_MAX_LENGTH.team_name}
        error={errors.fields.team_name}
      />
      <Button type="submit" block disabled={busy}>
        {busy ? 'Creating account…' : 'Sign up and start tipping'}
      </Button>
      <p className={styles.switch}>
        Already tipping?{' '}
        <button
          type="button"
          className={styles.link}
          onClick={() => dispatch(sessionActions.authModalOpened('login'))}
        >
          Log in
        </button>
      </p>
    </form>
  )
}

/**
 * Forgot password (spec 2, 4): one email field; the answer is the same neutral message whether
 * or not an account exists, and the request's result is kept in the session state.
 */
function ForgotPasswordForm() {
  const dispatch = useDispatch()
  const result = useSelector((s: WithSession) => s.session.resetPassword)
  const [requestReset, { isLoading: busy }] = useRequestPasswordResetMutation()
  const [sent, setSent] = useState<string | null>(null)
  const [errors, setErrors] = useState<Errors>({})

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const email = field(new FormData(e.currentTarget), 'email')
    const invalid = validateResetRequest(email)
    setErrors(invalid)
    if (Object.keys(invalid).length > 0) return
    dispatch(sessionActions.resetPasswordReset())
    try {
      const { message } = await requestReset(email).unwrap()
      setSent(message)
      dispatch(sessionActions.resetPasswordSucceeded())
    } catch (err) {
      const { fields, form } = fieldErrors(err)
      setErrors(form ? { form } : fields)
      dispatch(sessionActions.resetPasswordFailed(failureMessage(err, String(err))))
    }
  }

  if (sent && result.success)
    return (
      <div className={styles.form}>
        <p className={styles.notice} role="status" data-testid="reset-requested">
          {sent}
        </p>
        <Button block onClick={() => dispatch(sessionActions.authModalOpened('login'))}>
          Back to log in
        </Button>
      </div>
    )
  return (
    <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
      <p>
        Enter the email you signed up with and we will send you a link to choose a new password.
      </p>
      {errors.form ? (
        <p className={styles.formError} role="alert">
          {errors.form}
        </p>
      ) : null}
      <FormField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={errors.email}
      />
      <Button type="submit" block disabled={busy}>
        {busy ? 'Sending…' : 'Send reset link'}
      </Button>
      <p className={styles.switch}>
        Remembered it?{' '}
        <button
          type="button"
          className={styles.link}
          onClick={() => dispatch(sessionActions.authModalOpened('login'))}
        >
          Log in
        </button>
      </p>
    </form>
  )
}
