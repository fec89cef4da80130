import { z } from 'zod'
import { PASSWORD_MAX, PASSWORD_MIN, ROLES } from './constants.ts'
import { sportSchema } from './sport.ts'

const email = z.email({ message: 'Enter a valid email address' }).max(254).trim().toLowerCase()
const personName = z.string().trim().min(1, 'Required').max(60)

export const registerBodySchema = z.object({
  email,
  password: z
    .string()
    .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`)
    .max(PASSWORD_MAX),
  firstName: personName,
  lastName: personName,
  teamName: z.string().trim().min(1).max(40).optional(),
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
  isWeeklyReminderEnabled: z.boolean(),
  roles: z.array(z.enum(ROLES)),
  recovered: z.boolean(),
  registeredAt: z.object({ date: z.string() }),
})
export type UserSession = z.infer<typeof userSessionSchema>

export const userResponseSchema = z.object({ user: userSessionSchema })
export type UserResponse = z.infer<typeof userResponseSchema>

export const okResponseSchema = z.object({ ok: z.literal(true) })
