import { z } from 'zod'
import { roundNumberSchema, seasonNumberSchema } from './ids.ts'
import { ladderPointsSchema } from './admin.ts'
import { sportSchema } from './sport.ts'
import { matchOutcomeSchema } from './predictions.ts'
import { marginGameOf, tooManyMarginGamesMessage } from './rules/margin-game.ts'

// Files under data/seasons/ and data/results/ that `npm run import` reads.

/** A match's number within its season. */
const matchNumber = z.number().int().min(1).max(1000)
const code = z.string().regex(/^[A-Z]{2,4}$/)
const hex = z.string().regex(/^#[0-9a-fA-F]{6}$/)

export const seasonFileSchema = z.object({
  sport: sportSchema,
  season: seasonNumberSchema,
  name: z.string().min(1),
  year: z.string(),
  goldenWeekRound: roundNumberSchema.nullable(),
  ladderPoints: ladderPointsSchema,
  squads: z
    .array(
      z.object({
        code,
        name: z.string(),
        shortName: z.string(),
        nickname: z.string(),
        colour: hex,
        secondColour: hex,
      }),
    )
    .min(2),
  venues: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      city: z.string(),
      state: z.string(),
      timezone: z.string(),
    }),
  ),
  rounds: z
    .array(
      z
        .object({
          number: roundNumberSchema,
          label: z.string(),
          matches: z
            .array(
              z.object({
                number: matchNumber,
                startsAt: z.iso.datetime(),
                venue: z.string(),
                home: code,
                away: code,
                /** This match is the round's margin game; with none marked, the last match is. */
                marginGame: z.boolean(),
                stage: z.enum(['regular', 'final']),
                assumed: z.array(z.string()),
              }),
            )
            .min(1),
        })
        .superRefine((round, ctx) => {
          // GAME_RULES.md: a fixture that marks two margin games in one round is refused.
          const choice = marginGameOf(
            round.matches.map((m, i) => ({
              id: i,
              number: m.number,
              startsAt: m.startsAt,
              flagged: m.marginGame,
            })),
          )
          if (!choice.ok)
            ctx.addIssue({
              code: 'custom',
              message: tooManyMarginGamesMessage(round.number, choice.flagged.length),
              path: ['matches', choice.flagged[1]!, 'marginGame'],
            })
        }),
    )
    .min(1),
  assumptions: z.array(z.string()),
  sources: z.array(z.string()),
})
export type SeasonFile = z.infer<typeof seasonFileSchema>

const innings = z.object({ runs: z.number().int(), wickets: z.number().int(), overs: z.string() })

export const resultsFileSchema = z.object({
  sport: sportSchema,
  season: z.number().int().positive(),
  results: z.array(
    z.object({
      match: z.number().int().positive(),
      winner: code.nullable(),
      outcome: matchOutcomeSchema,
      home: innings.nullable(),
      away: innings.nullable(),
      sixes: z.number().int().nullable(),
      method: z.string().nullable(),
      cricsheetId: z.string().nullable(),
      note: z.string().nullable(),
    }),
  ),
})
export type ResultsFile = z.infer<typeof resultsFileSchema>
