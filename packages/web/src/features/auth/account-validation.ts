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

export const validateProfile = (body: { team_name: string }): FieldErrors =>
  fieldErrorsOf(userUpdateBodySchema, body)
