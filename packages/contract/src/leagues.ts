import { z } from 'zod'
import { multiLineText, singleLineText } from './text.ts'
import {
  reportedRoundNumberSchema,
  roundNumberSchema,
  requestIdSchema,
  rowIdParamSchema,
  rowIdSchema,
} from './ids.ts'
import { LEAGUE_DESCRIPTION_MAX, LEAGUE_NAME_MAX, LEAGUE_NAME_MIN } from './constants.ts'
import { lifecycleSchema } from './predictions.ts'
import { tipperSchema } from './scores.ts'

// Leagues (spec 3, 4 "Leagues", 7 "Leagues and rankings"; GAME_RULES.md "Leagues").

export const LEAGUE_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
export const LEAGUE_CODE_LENGTH = 10

const name = singleLineText()
  .min(LEAGUE_NAME_MIN, `League name must be at least ${LEAGUE_NAME_MIN} characters`)
  .max(LEAGUE_NAME_MAX, `League name must be at most ${LEAGUE_NAME_MAX} characters`)
const description = multiLineText().max(
  LEAGUE_DESCRIPTION_MAX,
  `Description must be at most ${LEAGUE_DESCRIPTION_MAX} characters`,
)
export const privacySchema = z.enum(['private', 'public'])

export const createLeagueBodySchema = z.object({
  name,
  description: description.default(''),
  privacy: privacySchema.default('private'),
  startRound: roundNumberSchema,
  /** Sent again with the same values, the league the first send made; other values: 409. */
  requestId: requestIdSchema,
})
export type CreateLeagueBody = z.infer<typeof createLeagueBodySchema>

export const updateLeagueBodySchema = z
  .object({
    name,
    description,
    privacy: privacySchema,
    startRound: roundNumberSchema,
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
  startRound: reportedRoundNumberSchema,
  privacy: privacySchema,
  /** The join pin: shown to members, and for public leagues to anyone signed in. */
  code: z.string().nullable(),
  numUser: z.number().int(),
  isMember: z.boolean(),
  isCommissioner: z.boolean(),
})
export type League = z.infer<typeof leagueSchema>

export const leagueIdParamsSchema = z.object({ id: rowIdParamSchema })
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
  code: singleLineText().toUpperCase().max(20).optional(),
  search: singleLineText().min(1).max(50).optional(),
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
export type JoinedUser = z.infer<typeof joinedUserSchema>
export const joinedUsersResponseSchema = z.object({
  users: z.array(joinedUserSchema),
  nextPage: z.number().int().nullable(),
})
export type JoinedUsersResponse = z.infer<typeof joinedUsersResponseSchema>
export const removeMemberParamsSchema = leagueIdParamsSchema.extend({
  userId: rowIdParamSchema,
})

/**
 * `POST {sport}/league/{id}/commissioner`: the commissioner hands the league to another active
 * member, who becomes its commissioner; the former one stays a member and may then leave. The
 * only way out for the commissioner of a league that has started (it can no longer be removed).
 */
export const handOverBodySchema = z.object({
  userId: rowIdSchema,
})
export type HandOverBody = z.infer<typeof handOverBodySchema>

// Inviting by email and messaging members (spec 7 "Leagues and rankings": invite, send_emails).

export const LEAGUE_INVITE_MAX = 50
export const LEAGUE_MESSAGE_SUBJECT_MAX = 150
export const LEAGUE_MESSAGE_MAX = 5000

const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Email address is too long')
  .pipe(z.email('Not an email address'))

/** Up to 50 addresses; each is checked on its own so the error names the one at fault. */
export const inviteBodySchema = z.object({
  emails: z
    .array(emailAddress)
    .min(1, 'Enter at least one email address')
    .max(LEAGUE_INVITE_MAX, `Invite at most ${LEAGUE_INVITE_MAX} addresses at a time`),
  /** Sent again, the invitations are not queued twice: the first send's answer is repeated. */
  requestId: requestIdSchema,
})
export type InviteBody = z.infer<typeof inviteBodySchema>
export const inviteResponseSchema = z.object({
  /** Invitations queued: one per distinct address. */
  invited: z.number().int(),
})

export const sendEmailsBodySchema = z.object({
  leagueId: rowIdSchema,
  subject: singleLineText()
    .min(1, 'Enter a subject')
    .max(
      LEAGUE_MESSAGE_SUBJECT_MAX,
      `Subject must be at most ${LEAGUE_MESSAGE_SUBJECT_MAX} characters`,
    ),
  message: multiLineText()
    .min(1, 'Enter a message')
    .max(LEAGUE_MESSAGE_MAX, `Message must be at most ${LEAGUE_MESSAGE_MAX} characters`),
  /** Sent again, the message is not queued twice: the first send's answer is repeated. */
  requestId: requestIdSchema,
})
export type SendEmailsBody = z.infer<typeof sendEmailsBodySchema>
export const sendEmailsResponseSchema = z.object({
  /** Members the message was queued for (those who turned notifications off are skipped). */
  recipients: z.number().int(),
})

// Bulk member changes (spec 7: POST tipping_join/delete_multi and tipping_join/edit_users).

export const LEAGUE_BULK_MAX = 100

const memberId = rowIdSchema
const distinct = (ids: number[]) => new Set(ids).size === ids.length

/** The commissioner removes several members of one league at once (never themself). */
export const deleteMultiBodySchema = z.object({
  leagueId: rowIdSchema,
  userIds: z
    .array(memberId)
    .min(1, 'Choose at least one member')
    .max(LEAGUE_BULK_MAX, `At most ${LEAGUE_BULK_MAX} members at a time`)
    .refine(distinct, 'A member is listed twice'),
})
export type DeleteMultiBody = z.infer<typeof deleteMultiBodySchema>

/**
 * The commissioner changes several members at once. A member's only changeable state is being in
 * the league, so an entry either keeps the member (`remove` false or absent: checked to be a
 * member, nothing changes) or removes them. It is the member-list editor's whole form sent in one
 * call; delete_multi is its shorthand with every entry removed. Same rules, all or nothing.
 */
export const editUsersBodySchema = z.object({
  leagueId: rowIdSchema,
  users: z
    .array(z.object({ userId: memberId, remove: z.boolean().default(false) }))
    .min(1, 'Choose at least one member')
    .max(LEAGUE_BULK_MAX, `At most ${LEAGUE_BULK_MAX} members at a time`)
    .refine((us) => distinct(us.map((u) => u.userId)), 'A member is listed twice'),
})
export type EditUsersBody = z.infer<typeof editUsersBodySchema>

export const bulkMembersResponseSchema = z.object({
  leagueId: z.number().int(),
  /** Members removed by this call, in the order asked. */
  removed: z.array(z.number().int()),
  numUser: z.number().int(),
})
export type BulkMembersResponse = z.infer<typeof bulkMembersResponseSchema>

// Issue 31 "Leagues with a memory": round honours and what is still to play for
// (references: rules/honours.ts).

/** Names listed per round; a round shared by more winners says how many (winnerCount). */
export const HONOURS_WINNERS_MAX = 20

export const roundHonourSchema = z.object({
  round: reportedRoundNumberSchema,
  /** The winners' points and margin in that round. */
  points: z.number().int(),
  margin: z.number().int(),
  /** Every member ranked first in the round; `winners` lists the first HONOURS_WINNERS_MAX. */
  winnerCount: z.number().int(),
  winners: z.array(tipperSchema),
})
export type RoundHonourRow = z.infer<typeof roundHonourSchema>

/** `GET {sport}/league/{id}/honours`. */
export const leagueHonoursResponseSchema = z.object({
  /** Each completed round from the league's start round, oldest first. */
  rounds: z.array(roundHonourSchema),
  /** rules/honours.ts remainingChances: the same for every tipper of the competition. */
  remaining: z.object({
    maxPoints: z.number().int(),
    rounds: z.number().int(),
    marginGameLeft: z.boolean(),
  }),
})
export type LeagueHonoursResponse = z.infer<typeof leagueHonoursResponseSchema>
