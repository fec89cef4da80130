import { z } from 'zod'
import { singleLineText } from './text.ts'
import { PASSWORD_MAX, PASSWORD_MIN, ROLES } from './constants.ts'
import { MAX_ROW_ID } from './ids.ts'
import { sportSchema } from './sport.ts'
import { reminderLeadSchema } from './autopilot.ts'

const email = z.email({ message: 'Enter a valid email address' }).max(254).trim().toLowerCase()
const personName = singleLineText().min(1, 'Required').max(60)

/** The password rule of every form that sets one (registration, reset, change). */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters`)

export const TEAM_NAME_MAX = 40

/**
 * `POST auth/register`. The team name is spelt as the user session and the profile update spell
 * it (`team_name`): one spelling per field across the API. An unknown field is a 400.
 */
export const registerBodySchema = z.object({
  email,
  password: newPasswordSchema,
  firstName: personName,
  lastName: personName,
  team_name: singleLineText()
    .min(1)
    .max(TEAM_NAME_MAX, `Team name must be at most ${TEAM_NAME_MAX} characters`)
    .optional(),
  /** Register for one competition only; both when omitted. */
  sport: sportSchema.optional(),
})
export type RegisterBody = z.infer<typeof registerBodySchema>

export const loginBodySchema = z.object({
  email,
  password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX),
})
export type LoginBody = z.infer<typeof loginBodySchema>

/** The specification's user session (section 3), as the server sends it. */
export const userSessionSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  team_name: z.string().nullable(),
  team_supported: z.number().int(),
  tipping_id: z.string(),
  disabledNotifications: z.boolean(),
  /** Kept for old clients: reminderLead is not 'off'. */
  isWeeklyReminderEnabled: z.boolean(),
  /** When reminder emails go (autopilot.ts REMINDER_LEADS). */
  reminderLead: reminderLeadSchema,
  roles: z.array(z.enum(ROLES)),
  recovered: z.boolean(),
  registeredAt: z.object({ date: z.string() }),
})
export type UserSession = z.infer<typeof userSessionSchema>

export const userResponseSchema = z.object({ user: userSessionSchema })
export type UserResponse = z.infer<typeof userResponseSchema>

/**
 * The boot's session check (`GET /api/session`): who is signed in, if anyone. A visitor is an
 * answer, not a failure, so it is a 200 with `user: null` (decision 019).
 */
export const sessionResponseSchema = z.object({ user: userSessionSchema.nullable() })
export type SessionResponse = z.infer<typeof sessionResponseSchema>

export const okResponseSchema = z.object({ ok: z.literal(true) })

/** `POST {sport}/auth/register`: the sport comes from the path. */
export const sportRegisterBodySchema = registerBodySchema.omit({ sport: true })
export type SportRegisterBody = z.infer<typeof sportRegisterBodySchema>

const confirmed = <T extends { password: string; confirmation: string }>(b: T) =>
  b.password === b.confirmation

const CONFIRMATION_MISMATCH = {
  message: 'The passwords do not match',
  path: ['confirmation'],
}

/** `POST auth/password_reset/request`: always the same answer, whether or not the account exists. */
export const passwordResetRequestBodySchema = z.object({ email })
export type PasswordResetRequestBody = z.infer<typeof passwordResetRequestBodySchema>

export const passwordResetRequestedSchema = z.object({ message: z.string() })
export type PasswordResetRequested = z.infer<typeof passwordResetRequestedSchema>

/** `POST auth/password_reset`: the emailed token, the new password and its confirmation. */
export const passwordResetBodySchema = z
  .object({
    token: singleLineText().min(1, 'The reset link is missing its token').max(200),
    password: newPasswordSchema,
    // No limit of its own: it must equal the password, which has one.
    confirmation: z.string(),
  })
  .refine(confirmed, CONFIRMATION_MISMATCH)
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>

/** `POST user/password`: the current password proves it is the owner. */
export const passwordChangeBodySchema = z
  .object({
    currentPassword: z.string().min(1, 'Enter your current password').max(PASSWORD_MAX),
    password: newPasswordSchema,
    // No limit of its own: it must equal the password, which has one.
    confirmation: z.string(),
  })
  .refine(confirmed, CONFIRMATION_MISMATCH)
  .refine((b) => b.password !== b.currentPassword, {
    message: 'Choose a password different from the current one',
    path: ['password'],
  })
export type PasswordChangeBody = z.infer<typeof passwordChangeBodySchema>

/**
 * `POST {sport}/user` (spec 7): the user fields to change, plus an optional success message the
 * client shows for 2 s (spec 4). Omitted fields are left as they are.
 */
export const userUpdateBodySchema = z.object({
  first_name: personName.optional(),
  last_name: personName.optional(),
  team_name: singleLineText()
    .max(TEAM_NAME_MAX, `Team name must be at most ${TEAM_NAME_MAX} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  /** A squad id of the sport, 0 for none. */
  team_supported: z.number().int().min(0).max(MAX_ROW_ID).optional(),
  disabledNotifications: z.boolean().optional(),
  /** Old clients' switch: false is reminderLead 'off'; true keeps a lead, or sets 'round'. */
  isWeeklyReminderEnabled: z.boolean().optional(),
  /** Wins over isWeeklyReminderEnabled when both are sent. */
  reminderLead: reminderLeadSchema.optional(),
  successMsg: singleLineText().max(200).optional(),
})
export type UserUpdateBody = z.infer<typeof userUpdateBodySchema>
export type UserUpdateInput = z.input<typeof userUpdateBodySchema>

export const userUpdateResponseSchema = z.object({
  user: userSessionSchema,
  successMsg: z.string().nullable(),
})
export type UserUpdateResponse = z.infer<typeof userUpdateResponseSchema>
