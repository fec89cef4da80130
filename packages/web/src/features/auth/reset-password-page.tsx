import { useState, type FormEvent } from 'react'
import { useDispatch } from 'react-redux'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { PASSWORD_MIN } from '@tipping/contract/constants'
import { api, failureMessage, isApiFailure } from '../../lib/api.ts'
import { Button } from '../../ui/button.tsx'
import { FormField } from '../../ui/form-field.tsx'
import { validateNewPassword, type FieldErrors } from './account-validation.ts'
import { useResetPasswordMutation } from './auth-api.ts'
import styles from './account.module.css'
import { sessionActions } from '../../lib/session-slice.ts'
import { usePageTitle } from '../../lib/page-title.ts'

export const PASSWORD_CHANGED_NOTICE = 'Your password has been changed. Log in with the new one.'

const text = (data: FormData, name: string): string => {
  const value = data.get(name)
  return typeof value === 'string' ? value : ''
}

/**
 * `/reset-password?token=...`, the link of the reset email: a new password and its confirmation;
 * success opens the login modal.
 */
export default function ResetPasswordPage() {
  usePageTitle('Choose a new password')
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const dispatch = useDispatch()
  const navigate = useNavigate()
  const [resetPassword, { isLoading: busy }] = useResetPasswordMutation()
  const [errors, setErrors] = useState<FieldErrors>({})

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const password = text(data, 'password')
    const confirmation = text(data, 'confirmation')
    const invalid = validateNewPassword(password, confirmation)
    setErrors(invalid)
    if (Object.keys(invalid).length > 0) return
    dispatch(sessionActions.resetPasswordReset())
    try {
      await resetPassword({ token, password, confirmation }).unwrap()
      dispatch(sessionActions.resetPasswordSucceeded())
      // The reset ends every session of the account: nothing cached for it stays.
      dispatch(sessionActions.loggedOut())
      dispatch(api.util.resetApiState())
      dispatch(sessionActions.loginPrompted(PASSWORD_CHANGED_NOTICE))
      void navigate('/login', { replace: true })
    } catch (err) {
      const message = failureMessage(err, 'Something went wrong')
      dispatch(sessionActions.resetPasswordFailed(message))
      // A token problem is about the link, not a field the user can fix: say it above the form.
      if (isApiFailure(err) && err.param && err.param !== 'token' && err.param !== 'body')
        setErrors({ [err.param]: message })
      else setErrors({ form: message })
    }
  }

  return (
    <section className={`${styles.card} ${styles.narrow}`} aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      {token ? null : (
        <p className={styles.formError} role="alert">
          This link is missing its reset token. Open the link from the email again, or request a new
          one.
        </p>
      )}
      {errors.form ? (
        <p className={styles.formError} role="alert" data-testid="reset-error">
          {errors.form}
        </p>
      ) : null}
      <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
        <FormField
          label={`New password (at least ${PASSWORD_MIN} characters)`}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          disabled={!token}
          error={errors.password}
        />
        <FormField
          label="Confirm new password"
          name="confirmation"
          type="password"
          autoComplete="new-password"
          required
          disabled={!token}
          error={errors.confirmation}
        />
        <Button type="submit" block disabled={busy || !token}>
          {busy ? 'Saving…' : 'Set new password'}
        </Button>
      </form>
      <div className={styles.links}>
        <Link to="/forgot-password">Request a new link</Link>
        <Link to="/login">Back to log in</Link>
      </div>
    </section>
  )
}
