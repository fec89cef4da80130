import { z } from 'zod'
import {
  matchIdParamSchema,
  reportedMatchIdSchema,
  reportedRoundNumberSchema,
  reportedSquadIdSchema,
  squadIdSchema,
} from './ids.ts'
import { lifecycleSchema, matchOutcomeSchema, matchSchema } from './predictions.ts'
import { ballsFromOvers } from './rules/cricket.ts'
import { FULL_INNINGS_BALLS } from './rules/live.ts'

// Live scores and the push channel's events (docs/decisions/015-live-push.md). A live score is
// never a result: it scores nothing. The super over is left out: it settles a tie, which the
// result records (a tie won in the super over is a win), and the card shows the two innings.

const OVERS = /^\d{1,2}(\.[0-5])?$/
/** Legal balls of an overs figure; null when it is not one (zod runs every check). */
const ballsOf = (o: string) => (OVERS.test(o) ? ballsFromOvers(o) : null)

/** Cricket notation, as the scorers write it: "12.3" is 12 overs and 3 legal balls. */
const overs = z
  .string()
  .regex(OVERS, 'Overs as cricket notation: whole overs, then 0-5 balls (12.3)')
  .refine((o) => (ballsOf(o) ?? 0) <= FULL_INNINGS_BALLS, 'At most 20 overs')

export const liveInningsSchema = z.object({
  battingSquadId: squadIdSchema,
  runs: z.number().int().min(0).max(999),
  wickets: z.number().int().min(0).max(10),
  overs,
  /** Only for a rain-reduced innings: the overs it was allotted. */
  oversAllotted: overs.optional(),
  sixes: z.number().int().min(0).max(100),
})
export type LiveInnings = z.infer<typeof liveInningsSchema>

/** An admin's (or the feed's) live score: the innings so far, first innings first. */
export const liveScoreBodySchema = z
  .object({ innings: z.array(liveInningsSchema).min(1).max(2) })
  .superRefine((body, ctx) => {
    const [first, second] = body.innings
    if (first && second && first.battingSquadId === second.battingSquadId)
      ctx.addIssue({
        code: 'custom',
        message: 'The second innings is batted by the other side',
        path: ['innings', 1, 'battingSquadId'],
      })
    body.innings.forEach((inn, i) => {
      const allotted = inn.oversAllotted === undefined ? null : ballsOf(inn.oversAllotted)
      if (allotted !== null && (ballsOf(inn.overs) ?? 0) > allotted)
        ctx.addIssue({
          code: 'custom',
          message: 'More overs than the innings was allotted',
          path: ['innings', i, 'overs'],
        })
    })
  })
export type LiveScoreBody = z.infer<typeof liveScoreBodySchema>

export const liveMatchParamsSchema = z.object({ id: matchIdParamSchema })

const liveInningsStateSchema = z.object({
  battingSquadId: reportedSquadIdSchema,
  runs: z.number().int(),
  wickets: z.number().int(),
  overs: z.string(),
  oversAllotted: z.string().nullable(),
  sixes: z.number().int(),
})

/** rules/live.ts liveFigures, as sent. */
export const liveFiguresSchema = z.object({
  runRates: z.array(z.number().nullable()),
  target: z.number().int().nullable(),
  runsNeeded: z.number().int().nullable(),
  ballsLeft: z.number().int().nullable(),
  requiredRate: z.number().nullable(),
})

/** One match's live state: what a live card shows, whole, so an event needs no refetch. */
export const liveMatchSchema = z.object({
  matchId: reportedMatchIdSchema,
  roundNumber: reportedRoundNumberSchema,
  /** The match's own status: a completed match keeps its last live score beside the result. */
  status: lifecycleSchema,
  /** Bumped by every change: a page keeps the highest it has seen. */
  version: z.number().int(),
  updatedAt: z.string(),
  innings: z.array(liveInningsStateSchema),
  /** Sixes so far, both innings (the margin game's count while live). */
  sixes: z.number().int(),
  figures: liveFiguresSchema,
})
export type LiveMatch = z.infer<typeof liveMatchSchema>

export const liveRoundResponseSchema = z.object({
  round: reportedRoundNumberSchema,
  matches: z.array(liveMatchSchema),
})
export type LiveRoundResponse = z.infer<typeof liveRoundResponseSchema>

/**
 * A result set or corrected: the result itself and the competition's new scores version, so a
 * page updates the match from the event and refetches scores only when its version is older.
 */
export const resultEventSchema = z.object({
  matchId: reportedMatchIdSchema,
  roundNumber: reportedRoundNumberSchema,
  roundStatus: lifecycleSchema,
  change: z.enum(['set', 'corrected']),
  outcome: matchOutcomeSchema,
  winnerSquadId: reportedSquadIdSchema.nullable(),
  sixes: z.number().int().nullable(),
  scoresVersion: z.number().int(),
})
export type ResultEvent = z.infer<typeof resultEventSchema>

/**
 * A round's pick split moved: per match the share of tippers on each side, the fields (and their
 * names) the round read's matches carry, so a page replaces them in place. Coalesced per round
 * (decision 015): at most every PICK_SPLIT_EVENT_MS while tips change, and at each lockout.
 */
export const picksEventSchema = z.object({
  roundNumber: reportedRoundNumberSchema,
  matches: z.array(matchSchema.pick({ id: true, home_percent: true, away_percent: true })),
})
export type PicksEvent = z.infer<typeof picksEventSchema>

/** The push channel's events by name (the SSE `event:` field); `data:` is the payload's JSON. */
export const liveEventPayloadSchemas = {
  live: liveMatchSchema,
  result: resultEventSchema,
  picks: picksEventSchema,
  /**
   * The events since the client's Last-Event-ID are no longer kept (or the id is unknown): the page
   * refetches what it shows, after a random wait of up to `spreadMs` so pages do not all at once.
   */
  reset: z.object({ spreadMs: z.number().int() }),
} as const
export type LiveEventType = keyof typeof liveEventPayloadSchemas
export type LiveEventPayload<T extends LiveEventType> = z.infer<(typeof liveEventPayloadSchemas)[T]>
