import { z } from 'zod'
import { LEAGUE_DESCRIPTION_MAX, LEAGUE_NAME_MAX, LEAGUE_NAME_MIN } from './constants.ts'
import { lifecycleSchema } from './predictions.ts'

// Leagues (spec 3, 4 "Leagues", 7 "Leagues and rankings"; GAME_RULES.md "Leagues").

export const LEAGUE_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
export const LEAGUE_CODE_LENGTH = 10

const name = z
  .string()
  .trim()
  .min(LEAGUE_NAME_MIN, `League name must be at least ${LEAGUE_NAME_MIN} characters`)
  .max(LEAGUE_NAME_MAX, `League name must be at most ${LEAGUE_NAME_MAX} characters`)
const description = z
  .string()
  .trim()
  .max(LEAGUE_DESCRIPTION_MAX, `Description must be at most ${LEAGUE_DESCRIPTION_MAX} characters`)
export const privacySchema = z.enum(['private', 'public'])

export const createLeagueBodySchema = z.object({
  name,
  description: description.default(''),
  privacy: privacySchema.default('private'),
  startRound: z.number().int().min(1).max(1000),
})
export type CreateLeagueBody = z.infer<typeof createLeagueBodySchema>

export const updateLeagueBodySchema = z
  .object({
    name,
    description,
    privacy: privacySchema,
    startRound: z.number().int().min(1).max(1000),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Nothing to change', path: ['name'] })
export type UpdateLeagueBody = z.infer<typeof updateLeagueBodySchema>

export const leagueSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  description: z.string(),
  status: lifecycleSchema,
  class: z.string(),
  startRound: z.number().int(),
  privacy: privacySchema,
  /** The join pin: shown to members, and for public leagues to anyone signed in. */
  code: z.string().nullable(),
  numUser: z.number().int(),
  isMember: z.boolean(),
  isCommissioner: z.boolean(),
})
export type League = z.infer<typeof leagueSchema>

export const leagueIdParamsSchema = z.object({ id: z.coerce.number().int().positive() })
export const leagueCodeParamsSchema = z.object({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9]{4,20}$/, 'Not a join code'),
})
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
})
export const showForJoinQuerySchema = pageQuerySchema.extend({
  code: z.string().trim().toUpperCase().max(20).optional(),
  search: z.string().trim().min(1).max(50).optional(),
})

export const leagueResponseSchema = z.object({ league: leagueSchema })
export const leagueListResponseSchema = z.object({
  leagues: z.array(leagueSchema),
  next: z.number().int().nullable(),
})
export type LeagueListResponse = z.infer<typeof leagueListResponseSchema>

export const joinedUserSchema = z.object({
  userId: z.number().int(),
  teamName: z.string().nullable(),
  firstName: z.string(),
  lastNameInitial: z.string(),
  isCommissioner: z.boolean(),
})
export const joinedUsersResponseSchema = z.object({
  users: z.array(joinedUserSchema),
  nextPage: z.number().int().nullable(),
})
export const removeMemberParamsSchema = leagueIdParamsSchema.extend({
  userId: z.coerce.number().int().positive(),
})
