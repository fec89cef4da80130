import {
  passwordChangeBodySchema,
  passwordResetBodySchema,
  passwordResetRequestBodySchema,
  userUpdateBodySchema,
} from '@tipping/contract/auth'

// The account forms check what they can before sending, with the contract's own schemas (the
// server checks the same ones again), so the browser and the server never disagree on a rule.

export type FieldErrors = Record<string, string>

/** What the forms need of a contract schema (zod's safeParse), without depending on zod here. */
interface Checkable {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } }
}

/** The first message per field of a failed parse; an empty object when the value is valid. */
export function fieldErrorsOf(schema: Checkable, value: unknown): FieldErrors {
  const result = schema.safeParse(value)
  if (result.success) return {}
  const errors: FieldErrors = {}
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'form'
    errors[key] ??= issue.message
  }
  return errors
}

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
