import { z } from 'zod'
import { reportedMatchIdSchema, reportedRoundNumberSchema, reportedSquadIdSchema } from './ids.ts'
import { matchOutcomeSchema, matchSchema, roundSchema } from './predictions.ts'
import { stateSchema } from './site.ts'

// Shapes of the JSON files the publisher writes under /static/ (ARCHITECTURE.md: static root).

export const squadSchema = z.object({
  id: reportedSquadIdSchema,
  code: z.string(),
  name: z.string(),
  nickname: z.string(),
  shortName: z.string(),
  colour: z.string(),
  secondColour: z.string(),
  logo: z.string(),
})
export type Squad = z.infer<typeof squadSchema>
export const squadsFileSchema = z.object({ squads: z.array(squadSchema) })
export type SquadsFile = z.infer<typeof squadsFileSchema>

export const venueSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  city: z.string(),
  state: z.string(),
  timezone: z.string(),
})
export type Venue = z.infer<typeof venueSchema>
export const venuesFileSchema = z.object({ venues: z.array(venueSchema) })
export type VenuesFile = z.infer<typeof venuesFileSchema>

/**
 * A match as rounds.json lists it: the predictions API's match (one definition of each field) without
 * its scores, sixes and pick percentages.
 */
export const fixtureMatchSchema = matchSchema.pick({
  id: true,
  number: true,
  status: true,
  date: true,
  homeSquadId: true,
  awaySquadId: true,
  venueId: true,
  isMarginGame: true,
  class: true,
  winnerSquadId: true,
  outcome: true,
})
export const fixtureRoundSchema = roundSchema.extend({ matches: z.array(fixtureMatchSchema) })
export type FixtureRound = z.infer<typeof fixtureRoundSchema>
export const roundsFileSchema = z.object({
  competition: z.object({
    identifier: z.string(),
    name: z.string(),
    season: z.number().int(),
    year: z.string(),
    goldenWeekRound: reportedRoundNumberSchema.nullable(),
  }),
  rounds: z.array(fixtureRoundSchema),
})
export type RoundsFile = z.infer<typeof roundsFileSchema>

/** checksums.json: path relative to the static root -> content hash. */
export const checksumsFileSchema = z.object({ files: z.record(z.string(), z.string()) })
export type ChecksumsFile = z.infer<typeof checksumsFileSchema>

/** states.json: Australia's states and territories (site.ts AUSTRALIAN_STATES). */
export const statesFileSchema = z.object({
  country: z.literal('AU'),
  states: z.array(stateSchema),
})
export type StatesFile = z.infer<typeof statesFileSchema>

/** ladder.json: the team ladder (GAME_RULES.md "Team ladder"), in ladder order. */
export const ladderRowSchema = z.object({
  position: z.number().int(),
  squadId: reportedSquadIdSchema,
  /** Spec 3 team ladder row; null where the competition has none (neither Big Bash has). */
  conference: z.string().nullable(),
  division: z.string().nullable(),
  played: z.number().int(),
  won: z.number().int(),
  lost: z.number().int(),
  tied: z.number().int(),
  noResult: z.number().int(),
  points: z.number().int(),
  /** Net run rate to 3 decimals; null before any innings with known overs. */
  percentage: z.number().nullable(),
})
export type LadderRow = z.infer<typeof ladderRowSchema>
export const ladderFileSchema = z.object({ ladder: z.array(ladderRowSchema) })
export type LadderFile = z.infer<typeof ladderFileSchema>

/** formguide.json: each squad's completed matches, most recent first. */
export const formEntrySchema = z.object({
  opponent: reportedSquadIdSchema,
  result: z.enum(['win', 'loss', 'draw']),
  round: reportedRoundNumberSchema,
  match: reportedMatchIdSchema,
})
export const formGuideFileSchema = z.object({
  squads: z.record(z.string(), z.array(formEntrySchema)),
})
export type FormGuideFile = z.infer<typeof formGuideFileSchema>

/** roundstats/{round}.json: per match the pick split, result and sixes. */
export const roundStatsFileSchema = z.object({
  round: reportedRoundNumberSchema,
  matches: z.record(
    z.string(),
    z.object({
      /** Exact counts once the match is complete (its tips public); null before: percentages only. */
      homePicks: z.number().int().nullable(),
      awayPicks: z.number().int().nullable(),
      home_percent: z.number().int(),
      away_percent: z.number().int(),
      winnerSquadId: reportedSquadIdSchema.nullable(),
      outcome: matchOutcomeSchema.nullable(),
      sixes: z.number().int().nullable(),
    }),
  ),
})
export type RoundStatsFile = z.infer<typeof roundStatsFileSchema>

/** app-config.json: the allow-listed settings the browser may know (STYLE.md: config). */
export const appConfigFileSchema = z.object({
  /** Match Centre link for live and upcoming matches; `{match}` is replaced by the match number. */
  matchCentreUrl: z.string().nullable(),
  /** Spec 2: the provider's name in the sign-up banner (signUpBannerText); null when none. */
  brand: z.string().nullable().default(null),
  /** Store links of the official app (spec 2 pre-registration card); null leaves one out. */
  appStoreUrl: z.string().nullable().default(null),
  playStoreUrl: z.string().nullable().default(null),
  /** Optional hooks (issue 7 item 8), null unless configured; see lib/integrations.ts. */
  errorReportUrl: z.string().nullable().default(null),
  taggingScriptUrl: z.string().nullable().default(null),
  /** Spec 2 offseason mode: only /, /privacy-policy and /terms exist (from the content settings). */
  offseason: z.boolean(),
  /** Spec 6 login-enabled flag: false hides sign-in and registration. */
  loginEnabled: z.boolean(),
  /** Spec 2 top banner message, null when none is shown. */
  topBanner: z.object({ message: z.string(), url: z.string().nullable() }).nullable(),
})
export type AppConfigFile = z.infer<typeof appConfigFileSchema>
