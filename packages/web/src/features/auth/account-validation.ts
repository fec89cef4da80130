import {
  loginBodySchema,
  passwordChangeBodySchema,
  passwordResetBodySchema,
  passwordResetRequestBodySchema,
  sportRegisterBodySchema,
  userUpdateBodySchema,
  type SportRegisterBody,
} from '@tipping/contract/auth'
import { PASSWORD_MIN } from '@tipping/contract/constants'
import { fieldErrorsOf, formErrors, maxLengthOf, type FieldErrors } from '../../lib/field-errors.ts'

// The account forms check what they can before sending, with the contract's own schemas (the
// server checks the same ones again), so the browser and the server never disagree on a rule.

export type { FieldErrors }

/** The registration form's fields, each as long as the contract lets it be. */
export const REGISTRATION_MAX_LENGTH = {
  firstName: maxLengthOf(sportRegisterBodySchema.shape.firstName),
  lastName: maxLengthOf(sportRegisterBodySchema.shape.lastName),
  email: maxLengthOf(sportRegisterBodySchema.shape.email),
  password: maxLengthOf(sportRegisterBodySchema.shape.password),
  team_name: maxLengthOf(sportRegisterBodySchema.shape.team_name),
} as const

/** Every field's problem at once (the server would name only the first). */
export const validateRegistration = (body: SportRegisterBody): FieldErrors =>
  formErrors(sportRegisterBodySchema, body, {
    firstName: 'Enter your first name',
    lastName: 'Enter your last name',
    email: 'Enter your email address',
    password: `Choose a password of at least ${PASSWORD_MIN} characters`,
  })

export const validateLogin = (body: { email: string; password: string }): FieldErrors =>
  formErrors(loginBodySchema, body, {
    email: 'Enter your email address',
    password: 'Enter your password',
  })

export const validateResetRequest = (email: string): FieldErrors =>
  email.trim() === ''
    ? { email: 'Enter your email address' }
    : fieldErrorsOf(passwordResetRequestBodySchema, { email })

/** The token is checked by the server; the form checks the password and its confirmation. */
export const validateNewPassword = (password: string, confirmation: string): FieldErrors => {
  const { token: _token, ...errors } = fieldErrorsOf(passwordResetBodySchema, {
    token: 'checked-by-the-server',
    password,
    confirmation,
  })
  return errors
}

export const validatePasswordChange = (body: {
  currentPassword: string
  password: string
  confirmation: string
}): FieldErrors => fieldErrorsOf(passwordChangeBodySchema, body)

/** The profile's names, as long as the contract lets them be (the team name has no limit on
 * the input: a longer one is refused with the schema's message, so a paste is not cut short). */
export const PROFILE_MAX_LENGTH = {
  first_name: maxLengthOf(userUpdateBodySchema.shape.first_name),
  last_name: maxLengthOf(userUpdateBodySchema.shape.last_name),
} as const

const NAME_MISSING = { first_name: 'Enter your first name', last_name: 'Enter your last name' }

/**
 * The profile form: a name sent (one the player changed) may not be empty; a name not sent is
 * left as it is (an account from single sign-on may have no last name, and must still be able to
 * save its team name).
 */
export const validateProfile = (body: {
  first_name?: string
  last_name?: string
  team_name: string
}): FieldErrors =>
  formErrors(
    userUpdateBodySchema,
    body,
    Object.fromEntries(Object.entries(NAME_MISSING).filter(([field]) => field in body)),
  )
