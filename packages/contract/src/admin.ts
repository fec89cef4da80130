import { z } from 'zod'
import { singleLineText } from './text.ts'
import {
  reportedMatchIdSchema,
  reportedRoundIdSchema,
  reportedRoundNumberSchema,
  reportedSquadIdSchema,
  roundNumberSchema,
  rowIdParamSchema,
  rowIdSchema,
  seasonNumberSchema,
} from './ids.ts'
import { ROLES } from './constants.ts'
import { cricsheetMatchSchema } from './cricsheet.ts'
import { lifecycleSchema, matchOutcomeSchema } from './predictions.ts'
import { sportSchema } from './sport.ts'

// The admin console's API (issue 7, item 6): every route under /api/admin needs ROLE_ADMIN and
// writes what it changes to the audit log. Results are entered through the results module's
// POST /api/admin/{sport}/matches/{id}/result (matchResultBodySchema in results.ts).

export const ADMIN_PAGE_SIZE = 25

export const adminIdParamsSchema = z.object({ id: rowIdParamSchema })
const page = z.coerce.number().int().min(1).max(100_000).default(1)
const nextPage = z.number().int().nullable()
const isoDate = z.string()

// Competitions and seasons ------------------------------------------------------------------

export const ladderPointsSchema = z.object({
  win: z.number().int().min(0).max(10),
  noResult: z.number().int().min(0).max(10),
  tie: z.number().int().min(0).max(10),
  loss: z.number().int().min(0).max(10),
})
export type LadderPoints = z.infer<typeof ladderPointsSchema>
export const DEFAULT_LADDER_POINTS: LadderPoints = { win: 2, noResult: 1, tie: 1, loss: 0 }

export const adminCompetitionSchema = z.object({
  id: z.number().int(),
  sport: sportSchema,
  identifier: z.string(),
  season: z.number().int(),
  name: z.string(),
  year: z.string(),
  isCurrent: z.boolean(),
  goldenWeekRound: reportedRoundNumberSchema.nullable(),
  ladderPoints: ladderPointsSchema,
  rounds: z.number().int(),
  matches: z.number().int(),
  completedMatches: z.number().int(),
})
export type AdminCompetition = z.infer<typeof adminCompetitionSchema>
export const competitionListResponseSchema = z.object({
  competitions: z.array(adminCompetitionSchema),
})
export type CompetitionListResponse = z.infer<typeof competitionListResponseSchema>
export const competitionResponseSchema = z.object({ competition: adminCompetitionSchema })
export type CompetitionResponse = z.infer<typeof competitionResponseSchema>

export const createCompetitionBodySchema = z.object({
  sport: sportSchema,
  season: seasonNumberSchema,
  name: singleLineText().min(1, 'Required').max(100),
  year: z
    .string()
    .trim()
    .regex(/^\d{4}(-\d{2})?$/, 'A year like 2026 or 2026-27'),
  goldenWeekRound: roundNumberSchema.nullable().default(null),
  ladderPoints: ladderPointsSchema.default(DEFAULT_LADDER_POINTS),
})
export type CreateCompetitionBody = z.input<typeof createCompetitionBodySchema>

/** Golden Week round (null for none), ladder points, and/or making the season the current one. */
export const competitionSettingsBodySchema = z
  .object({
    goldenWeekRound: roundNumberSchema.nullable().optional(),
    ladderPoints: ladderPointsSchema.optional(),
    isCurrent: z.literal(true).optional(),
  })
  .refine((b) => b.goldenWeekRound !== undefined || b.ladderPoints !== undefined || b.isCurrent, {
    message: 'Nothing to change',
    path: ['goldenWeekRound'],
  })
export type CompetitionSettingsBody = z.infer<typeof competitionSettingsBodySchema>

export const importFixtureResponseSchema = z.object({
  competition: adminCompetitionSchema,
  /** Matches added, and existing matches whose start, venue, squads or margin flag changed. */
  added: z.number().int(),
  changed: z.number().int(),
})
export type ImportFixtureResponse = z.infer<typeof importFixtureResponseSchema>

// Rounds and matches ------------------------------------------------------------------------

const adminInningsSchema = z.object({
  runs: z.number().int().nullable(),
  wickets: z.number().int().nullable(),
  overs: z.string().nullable(),
})
export const adminMatchResultSchema = z.object({
  outcome: matchOutcomeSchema,
  winnerSquadId: reportedSquadIdSchema.nullable(),
  home: adminInningsSchema.nullable(),
  away: adminInningsSchema.nullable(),
  sixes: z.number().int().nullable(),
  method: z.string().nullable(),
})
export type AdminMatchResult = z.infer<typeof adminMatchResultSchema>

export const adminMatchSchema = z.object({
  id: reportedMatchIdSchema,
  number: z.number().int(),
  roundId: reportedRoundIdSchema,
  startsAt: isoDate,
  /** By the server clock: a scheduled match whose start has passed is active. */
  status: lifecycleSchema,
  venueId: z.number().int(),
  homeSquadId: reportedSquadIdSchema,
  awaySquadId: reportedSquadIdSchema,
  isMarginGame: z.boolean(),
  stage: z.enum(['regular', 'final']),
  result: adminMatchResultSchema.nullable(),
  /** What the lifecycle still allows (the server enforces the same rules). */
  editable: z.object({ startsAt: z.boolean(), venue: z.boolean(), marginGame: z.boolean() }),
})
export type AdminMatch = z.infer<typeof adminMatchSchema>

export const adminRoundSchema = z.object({
  id: reportedRoundIdSchema,
  number: reportedRoundNumberSchema,
  label: z.string(),
  status: lifecycleSchema,
  isGoldenWeek: z.boolean(),
  matches: z.array(adminMatchSchema),
})
export type AdminRound = z.infer<typeof adminRoundSchema>

export const competitionRoundsResponseSchema = z.object({
  competition: adminCompetitionSchema,
  rounds: z.array(adminRoundSchema),
  squads: z.array(z.object({ id: reportedSquadIdSchema, name: z.string(), shortName: z.string() })),
  venues: z.array(z.object({ id: z.number().int(), name: z.string(), city: z.string() })),
})
export type CompetitionRoundsResponse = z.infer<typeof competitionRoundsResponseSchema>

export const updateRoundBodySchema = z.object({
  label: singleLineText().min(1, 'Required').max(60),
})
export type UpdateRoundBody = z.infer<typeof updateRoundBodySchema>
export const roundResponseSchema = z.object({ round: adminRoundSchema })

/**
 * Any of: a new start time (future, ISO 8601), a venue, or the margin game mark: `true` makes this
 * match its round's margin game, `false` takes the mark off it, so the round's last match is
 * (GAME_RULES.md; rules/margin-game.ts).
 */
export const updateMatchBodySchema = z
  .object({
    startsAt: z.iso.datetime({ offset: true, message: 'A date and time, ISO 8601' }).optional(),
    venueId: rowIdSchema.optional(),
    isMarginGame: z.boolean({ message: 'true or false' }).optional(),
  })
  .refine(
    (b) => b.startsAt !== undefined || b.venueId !== undefined || b.isMarginGame !== undefined,
    { message: 'Nothing to change', path: ['startsAt'] },
  )
export type UpdateMatchBody = z.infer<typeof updateMatchBodySchema>
export const matchResponseSchema = z.object({ match: adminMatchSchema })
export type MatchResponse = z.infer<typeof matchResponseSchema>

// Results -----------------------------------------------------------------------------------

export const CRICSHEET_FILES_MAX = 100
/** Cricsheet JSON match files (cricsheet.org), posted as JSON. */
export const cricsheetImportBodySchema = z.object({
  files: z
    .array(cricsheetMatchSchema)
    .min(1, 'Add at least one Cricsheet match file')
    .max(CRICSHEET_FILES_MAX, `At most ${CRICSHEET_FILES_MAX} files at a time`),
})
export const cricsheetImportResponseSchema = z.object({
  applied: z.array(
    z.object({
      matchId: reportedMatchIdSchema,
      number: z.number().int(),
      round: reportedRoundNumberSchema,
    }),
  ),
  unmatched: z.array(z.object({ date: z.string(), teams: z.array(z.string()) })),
})
export type CricsheetImportResponse = z.infer<typeof cricsheetImportResponseSchema>

export const rescoreResponseSchema = z.object({
  rounds: z.number().int(),
  tippers: z.number().int(),
})
export const publishResponseSchema = z.object({ files: z.number().int() })

// Users ------------------------------------------------------------------------------------

export const adminUsersQuerySchema = z.object({
  search: singleLineText().max(100).optional(),
  page,
})
export const adminUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  teamName: z.string().nullable(),
  roles: z.array(z.enum(ROLES)),
  registeredAt: isoDate,
  deactivatedAt: isoDate.nullable(),
  /** Signs in through the single sign-on provider. */
  sso: z.boolean(),
})
export type AdminUser = z.infer<typeof adminUserSchema>
export const adminUsersResponseSchema = z.object({ users: z.array(adminUserSchema), nextPage })
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>
export const adminUserResponseSchema = z.object({ user: adminUserSchema })
export type AdminUserResponse = z.infer<typeof adminUserResponseSchema>

export const updateRolesBodySchema = z.object({
  roles: z
    .array(z.enum(ROLES))
    .max(ROLES.length)
    .refine((r) => new Set(r).size === r.length, 'Each role once'),
})
export type UpdateRolesBody = z.infer<typeof updateRolesBodySchema>

// Leagues ----------------------------------------------------------------------------------

export const adminLeaguesQuerySchema = z.object({
  search: singleLineText().max(50).optional(),
  sport: sportSchema.optional(),
  page,
})
export const adminLeagueSchema = z.object({
  id: z.number().int(),
  sport: sportSchema,
  competition: z.string(),
  name: z.string(),
  code: z.string(),
  privacy: z.enum(['private', 'public']),
  startRound: reportedRoundNumberSchema,
  numUsers: z.number().int(),
  commissioner: z.object({ id: z.number().int(), email: z.string(), name: z.string() }),
  createdAt: isoDate,
})
export type AdminLeague = z.infer<typeof adminLeagueSchema>
export const adminLeaguesResponseSchema = z.object({
  leagues: z.array(adminLeagueSchema),
  nextPage,
})
export type AdminLeaguesResponse = z.infer<typeof adminLeaguesResponseSchema>

// Email outbox -----------------------------------------------------------------------------

export const EMAIL_STATUSES = ['pending', 'sent', 'failed'] as const
export type EmailStatus = (typeof EMAIL_STATUSES)[number]
export const adminEmailsQuerySchema = z.object({
  status: z.enum([...EMAIL_STATUSES, 'all']).default('all'),
  page,
})
export const adminEmailSchema = z.object({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  /** The plain-text body, as sent (a password reset link's token hidden: see the admin service). */
  text: z.string(),
  status: z.enum(EMAIL_STATUSES),
  attempts: z.number().int(),
  createdAt: isoDate,
  sentAt: isoDate.nullable(),
  failedAt: isoDate.nullable(),
  nextAttemptAt: isoDate.nullable(),
  error: z.string().nullable(),
})
export type AdminEmail = z.infer<typeof adminEmailSchema>
export const adminEmailsResponseSchema = z.object({ emails: z.array(adminEmailSchema), nextPage })
export type AdminEmailsResponse = z.infer<typeof adminEmailsResponseSchema>
export const adminEmailResponseSchema = z.object({ email: adminEmailSchema })
export const adminEmailIdParamsSchema = z.object({
  id: z.string().regex(/^\d{1,18}$/, 'An email id'),
})

// Audit log --------------------------------------------------------------------------------

export const adminAuditQuerySchema = z.object({
  /** A user id or an email address. */
  actor: singleLineText().max(254).optional(),
  /** An action or the start of one: `content.` matches every content change. */
  kind: z
    .string()
    .trim()
    .max(60)
    .regex(/^[a-z_.-]*$/, 'Lower-case letters, dots, dashes and underscores')
    .optional(),
  page,
})
export const auditEntrySchema = z.object({
  id: z.string(),
  at: isoDate,
  actor: z.object({ id: z.number().int(), email: z.string() }).nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  data: z.unknown(),
})
export type AuditEntry = z.infer<typeof auditEntrySchema>
export const adminAuditResponseSchema = z.object({ entries: z.array(auditEntrySchema), nextPage })
export type AdminAuditResponse = z.infer<typeof adminAuditResponseSchema>

/** The kinds of change the console writes (the audit log holds other actions too). */
export const ADMIN_AUDIT_KINDS = [
  'competition.create',
  'competition.import',
  'competition.settings',
  'competition.rescore',
  'round.update',
  'match.update',
  'result.set',
  'result.correct',
  'results.cricsheet',
  'static.publish',
  'content.update',
  'user.create',
  'user.roles',
  'user.deactivate',
  'user.reactivate',
  'league.remove',
  'email.retry',
] as const

// Making an admin (the CLI, and a test-only route) ---------------------------------------------

export const grantAdminBodySchema = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email('Not an email address')),
})
export const grantAdminResponseSchema = z.object({
  userId: z.number().int(),
  created: z.boolean(),
})

// System health (GET /api/admin/health) ------------------------------------------------------

/**
 * The scheduler's jobs, in the order a pass runs them; 'scheduler' is the pass itself. Each
 * records its last run in the database, so the console sees a separate worker's runs too.
 */
export const JOB_NAMES = [
  'scheduler',
  'autopilot',
  'lockouts',
  'pick_split',
  'season_history',
  'publishing',
  'reminders',
  'email_delivery',
] as const
export type JobName = (typeof JOB_NAMES)[number]

export const jobRunSchema = z.object({
  job: z.string(),
  /** When the last run started, and how long it took. */
  lastRunAt: isoDate,
  durationMs: z.number().int(),
  /** The last run's failure; null when it succeeded. */
  error: z.string().nullable(),
  /** The latest failure of any run, kept after later successes. */
  lastErrorAt: isoDate.nullable(),
  lastError: z.string().nullable(),
  runs: z.number().int(),
  failures: z.number().int(),
})
export type JobRun = z.infer<typeof jobRunSchema>

export const SCHEDULER_STATUSES = ['ok', 'late', 'never'] as const
export const adminHealthResponseSchema = z.object({
  /** The server's clock when this was read; ages below are measured from it. */
  now: isoDate,
  scheduler: z.object({
    /**
     * never: no pass recorded; late: the next pass is over a whole interval overdue (stuck or
     * stopped: lockouts and auto-tips are not happening).
     */
    status: z.enum(SCHEDULER_STATUSES),
    lastTickAt: isoDate.nullable(),
    intervalMs: z.number().int().nullable(),
    /** How late the last pass started against its interval (a slow pass delays the next). */
    lagMs: z.number().int().nullable(),
    /** How long past its interval the next pass is now; 0 while on time. */
    overdueMs: z.number().int().nullable(),
  }),
  lockouts: jobRunSchema.nullable(),
  publishing: jobRunSchema.nullable(),
  jobs: z.array(jobRunSchema),
  emailOutbox: z.object({
    queued: z.number().int(),
    failed: z.number().int(),
    /** Age of the oldest email still waiting to go; null when none waits. */
    oldestQueuedAgeSeconds: z.number().int().nullable(),
  }),
  /** Job failures of the last 24 hours, newest first. */
  recentFailures: z.array(z.object({ job: z.string(), at: isoDate, error: z.string() })),
})
export type AdminHealthResponse = z.infer<typeof adminHealthResponseSchema>
