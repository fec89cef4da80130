import { z } from 'zod'
import { ballsFromOvers } from './rules/cricket.ts'

// The parts of a Cricsheet JSON match file (cricsheet.org, ODC-BY) the importer reads.

const delivery = z.object({
  runs: z.object({
    batter: z.number(),
    extras: z.number(),
    total: z.number(),
    non_boundary: z.boolean().optional(),
  }),
  extras: z.record(z.string(), z.number()).optional(),
  wickets: z.array(z.object({ kind: z.string() })).optional(),
})
const innings = z.object({
  team: z.string(),
  super_over: z.boolean().optional(),
  overs: z.array(z.object({ over: z.number(), deliveries: z.array(delivery) })).default([]),
  target: z.object({ overs: z.number().optional(), runs: z.number().optional() }).optional(),
})

/**
 * Loose on purpose: a Cricsheet file carries much more than this (meta, players, officials), and
 * the server's strict request bodies (which refuse unknown fields) leave a loose object, and all
 * inside it, as it is.
 */
export const cricsheetMatchSchema = z.looseObject({
  info: z.object({
    dates: z.array(z.string()).min(1),
    teams: z.array(z.string()).length(2),
    overs: z.number().optional(),
    balls_per_over: z.number().optional(),
    venue: z.string().optional(),
    event: z
      .object({
        name: z.string().optional(),
        match_number: z.number().optional(),
        stage: z.string().optional(),
      })
      .optional(),
    outcome: z.object({
      winner: z.string().optional(),
      result: z.string().optional(),
      method: z.string().optional(),
      eliminator: z.string().optional(),
    }),
  }),
  innings: z.array(innings).default([]),
})
export type CricsheetMatch = z.infer<typeof cricsheetMatchSchema>

export interface InningsSummary {
  team: string
  runs: number
  wickets: number
  balls: number
  /** The balls the innings was allotted when fewer than the match's full overs, else null. */
  ballsAllotted: number | null
  /** Net run rate credit for the side batting first when the chase was revised: target - 1 runs
   * from the revised overs. Null when the innings counts as played. */
  nrrCredit: { runs: number; balls: number } | null
  sixes: number
}

export interface CricsheetSummary {
  date: string
  teams: [string, string]
  outcome: 'win' | 'no_result' | 'tie'
  winner: string | null
  method: string | null
  innings: InningsSummary[]
  sixes: number
  stage: string | null
}

// Retirements are not dismissals.
const NOT_OUT = new Set(['retired hurt', 'retired not out'])

/** Runs, wickets, legal balls and sixes per innings (super overs left out), and the result. */
export function summariseCricsheet(raw: unknown): CricsheetSummary {
  const m = cricsheetMatchSchema.parse(raw)
  const ballsPerOver = m.info.balls_per_over ?? 6
  const fullBalls = (m.info.overs ?? 20) * ballsPerOver
  const played = m.innings.filter((i) => !i.super_over)
  const summaries = played.map((inn, index): InningsSummary => {
    let runs = 0
    let wickets = 0
    let balls = 0
    let sixes = 0
    for (const over of inn.overs) {
      for (const d of over.deliveries) {
        runs += d.runs.total
        if (!d.extras?.wides && !d.extras?.noballs) balls++
        if (d.runs.batter === 6 && !d.runs.non_boundary) sixes++
        wickets += (d.wickets ?? []).filter((w) => !NOT_OUT.has(w.kind)).length
      }
    }
    // A revised chase carries its overs in cricket notation ("14.3" is 14 overs and 3 balls).
    const chaseTarget = played[1]?.target
    const revisedOvers = chaseTarget?.overs
    const revised = revisedOvers === undefined ? null : ballsFromOvers(String(revisedOvers))
    const reduced = revised !== null && revised < fullBalls ? revised : null
    const nrrCredit =
      index === 0 && reduced !== null && chaseTarget?.runs !== undefined
        ? { runs: chaseTarget.runs - 1, balls: reduced }
        : null
    return { team: inn.team, runs, wickets, balls, ballsAllotted: reduced, nrrCredit, sixes }
  })
  const o = m.info.outcome
  // A tie settled by a super over (the eliminator) is a win for tipping and the ladder.
  const winner = o.winner ?? o.eliminator ?? null
  const outcome = winner ? 'win' : o.result === 'tie' ? 'tie' : 'no_result'
  return {
    date: m.info.dates[0]!,
    teams: [m.info.teams[0]!, m.info.teams[1]!],
    outcome,
    winner,
    method: o.method ?? null,
    innings: summaries,
    sixes: summaries.reduce((s, i) => s + i.sixes, 0),
    stage: m.info.event?.stage ?? null,
  }
}
