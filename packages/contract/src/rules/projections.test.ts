import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { projectRound, projectTotals, rankIn, type ScoreGroup } from './projections.ts'
import {
  autoTips,
  rankRows,
  rankSeason,
  type RankedSeasonInput,
  type ScoringMatch,
  type ScoringTip,
} from './scoring.ts'

const LIVE_ROUND = 2
const home = (matchId: number) => 100 + 2 * matchId
const away = (matchId: number) => 101 + 2 * matchId
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute))

type Season = RankedSeasonInput & {
  matches: (ScoringMatch & { startsAt: Date; awaySquadId: number })[]
}

/**
 * A random two-round season whose second round has at least one live match: finished matches with
 * winners or none, other live and open matches, one margin game per round (finished, live or
 * open), the Golden Week or not, tippers registering between kick-offs (late ones have no tips and
 * no auto-tips on what started before them), tips missing (auto-tips) or without a margin, and
 * deactivated tippers.
 */
const seasonArb = fc
  .record({
    golden: fc.boolean(),
    firstRound: fc.array(fc.constantFrom<'home' | 'away' | null>('home', 'away', null), {
      minLength: 1,
      maxLength: 3,
    }),
    liveRound: fc.array(
      fc.constantFrom<'home' | 'away' | 'none' | 'live' | 'open'>(
        'home',
        'away',
        'none',
        'live',
        'open',
      ),
      { minLength: 1, maxLength: 6 },
    ),
    liveIndex: fc.nat(),
    marginIndex: fc.nat(),
    marginSixes: fc.nat({ max: 30 }),
    users: fc.array(
      fc.record({
        registeredMinute: fc.nat({ max: 12 }),
        active: fc.boolean(),
        tips: fc.array(
          fc.record({
            pick: fc.constantFrom<'home' | 'away' | null>('home', 'away', null),
            margin: fc.option(fc.nat({ max: 30 })),
          }),
          { minLength: 9, maxLength: 9 },
        ),
      }),
      { minLength: 1, maxLength: 7 },
    ),
    side: fc.constantFrom<'home' | 'away'>('home', 'away'),
    sixes: fc.nat({ max: 30 }),
  })
  .map((g) => {
    // The chosen live match is live whatever was drawn for it.
    const states = g.liveRound.map((s, i) => (i === g.liveIndex % g.liveRound.length ? 'live' : s))
    const liveId = 100 + (g.liveIndex % g.liveRound.length)
    const matches: Season['matches'] = []
    g.firstRound.forEach((w, i) => {
      const id = 1 + i
      matches.push({
        id,
        roundNumber: 1,
        status: 'complete',
        winnerSquadId: w === null ? null : w === 'home' ? home(id) : away(id),
        isMarginGame: i === g.firstRound.length - 1,
        sixes: i === g.firstRound.length - 1 ? g.marginSixes : null,
        startsAt: at(i),
        awaySquadId: away(id),
      })
    })
    const marginAt = g.marginIndex % states.length
    states.forEach((s, i) => {
      const id = 100 + i
      const complete = s === 'home' || s === 'away' || s === 'none'
      const isMarginGame = i === marginAt
      matches.push({
        id,
        roundNumber: LIVE_ROUND,
        status: complete ? 'complete' : s === 'live' ? 'active' : 'scheduled',
        winnerSquadId: s === 'home' ? home(id) : s === 'away' ? away(id) : null,
        isMarginGame,
        sixes: isMarginGame && complete ? g.marginSixes : null,
        // Open matches start last, so tippers registered now can still tip them.
        startsAt: at(s === 'open' ? 20 + i : 4 + i),
        awaySquadId: away(id),
      })
    })
    const registrations = g.users.map((u, i) => ({
      userId: i + 1,
      registeredAt: new Date(at(u.registeredMinute).getTime() + 30_000),
      active: u.active,
    }))
    const tips: ScoringTip[] = g.users.flatMap((u, i) =>
      matches.flatMap((m, j) => {
        const t = u.tips[j % u.tips.length]!
        // A tip is refused once its match has started: late registrants have none there.
        if (t.pick === null || registrations[i]!.registeredAt >= m.startsAt) return []
        return [
          {
            userId: i + 1,
            matchId: m.id,
            squadId: t.pick === 'home' ? home(m.id) : away(m.id),
            margin: m.isMarginGame ? t.margin : null,
            isAutoTip: false,
          },
        ]
      }),
    )
    const season: Season = {
      registrations,
      rounds: [
        { number: 1, isGoldenWeek: false },
        { number: LIVE_ROUND, isGoldenWeek: g.golden },
      ],
      matches,
      tips,
    }
    const winner = g.side === 'home' ? home(liveId) : away(liveId)
    return { season, outcome: { matchId: liveId, winnerSquadId: winner, sixes: g.sixes } }
  })

const sum = (rows: { points: number; margin: number }[]) => ({
  points: rows.reduce((a, r) => a + r.points, 0),
  margin: rows.reduce((a, r) => a + r.margin, 0),
})

describe('live projections (GAME_RULES "Live projections")', () => {
  it('equal the scorer once the live match ends that way: round, totals and overall rank', () => {
    fc.assert(
      fc.property(seasonArb, ({ season, outcome }) => {
        const before = rankSeason(season)
        // The result landing that way, written out here rather than through withOutcome.
        const after = rankSeason({
          ...season,
          matches: season.matches.map((m) =>
            m.id === outcome.matchId
              ? {
                  ...m,
                  status: 'complete' as const,
                  winnerSquadId: outcome.winnerSquadId,
                  sixes: m.isMarginGame ? outcome.sixes : null,
                }
              : m,
          ),
        })
        const auto = autoTips(season.registrations, season.matches, season.tips)
        const roundMatches = season.matches.filter((m) => m.roundNumber === LIVE_ROUND)
        const golden = season.rounds[1]!.isGoldenWeek
        const projected = season.registrations.map(({ userId, active }) => {
          // What a page has: its own tips of the round (auto-tips included) and its stored scores.
          const tips = [...season.tips, ...auto].filter(
            (t) => t.userId === userId && roundMatches.some((m) => m.id === t.matchId),
          )
          const round = projectRound({
            userId,
            roundNumber: LIVE_ROUND,
            goldenWeek: golden,
            matches: roundMatches,
            tips,
            outcome,
          })
          const mine = before.rounds.filter((r) => r.userId === userId)
          const storedRound = mine.find((r) => r.roundNumber === LIVE_ROUND)!
          const stored = sum(mine)
          const totals = projectTotals(
            {
              totalPoints: stored.points,
              totalMargin: stored.margin,
              roundPoints: storedRound.points,
              roundMargin: storedRound.margin,
            },
            round,
          )
          const scored = after.rounds.find(
            (r) => r.userId === userId && r.roundNumber === LIVE_ROUND,
          )!
          expect(round).toEqual({ points: scored.points, margin: scored.margin })
          expect(totals).toEqual(sum(after.rounds.filter((r) => r.userId === userId)))
          return { userId, active, ...totals }
        })
        // The overall rank among active tippers, from the distribution of projected totals.
        const groups = new Map<string, ScoreGroup>()
        for (const p of projected.filter((p) => p.active)) {
          const key = `${p.points}:${p.margin}`
          const g = groups.get(key) ?? { points: p.points, margin: p.margin, count: 0 }
          g.count++
          groups.set(key, g)
        }
        for (const row of after.standings)
          expect(rankIn([...groups.values()], row.points, row.margin)).toBe(row.rank)
      }),
      { numRuns: 300 },
    )
  })

  it('leaves every other live match undecided and uses the sixes only on the margin game', () => {
    const ms: ScoringMatch[] = [
      {
        id: 1,
        roundNumber: 1,
        status: 'active',
        winnerSquadId: null,
        isMarginGame: false,
        sixes: null,
      },
      {
        id: 2,
        roundNumber: 1,
        status: 'active',
        winnerSquadId: null,
        isMarginGame: true,
        sixes: null,
      },
    ]
    const tips: ScoringTip[] = [
      { userId: 1, matchId: 1, squadId: 10, margin: null, isAutoTip: false },
      { userId: 1, matchId: 2, squadId: 20, margin: 9, isAutoTip: false },
    ]
    const input = { userId: 1, roundNumber: 1, goldenWeek: false, matches: ms, tips }
    // Match 1 won as tipped: a point, no bonus (match 2 undecided), margin not known yet.
    expect(
      projectRound({ ...input, outcome: { matchId: 1, winnerSquadId: 10, sixes: 4 } }),
    ).toEqual({ points: 1, margin: 0 })
    // The margin game won as tipped with 4 sixes so far: margin 5.
    expect(
      projectRound({ ...input, outcome: { matchId: 2, winnerSquadId: 20, sixes: 4 } }),
    ).toEqual({ points: 1, margin: 5 })
    // Golden Week doubles; the other side wins: nothing, margin still measured.
    expect(
      projectRound({
        ...input,
        goldenWeek: true,
        outcome: { matchId: 2, winnerSquadId: 21, sixes: 12 },
      }),
    ).toEqual({ points: 0, margin: 3 })
  })

  it('gives the clean sweep bonus when the live match is the last one and completes it', () => {
    const ms: ScoringMatch[] = [
      {
        id: 1,
        roundNumber: 1,
        status: 'complete',
        winnerSquadId: 10,
        isMarginGame: false,
        sixes: null,
      },
      {
        id: 2,
        roundNumber: 1,
        status: 'active',
        winnerSquadId: null,
        isMarginGame: true,
        sixes: null,
      },
    ]
    const tips: ScoringTip[] = [
      { userId: 1, matchId: 1, squadId: 10, margin: null, isAutoTip: false },
      { userId: 1, matchId: 2, squadId: 20, margin: 7, isAutoTip: false },
    ]
    expect(
      projectRound({
        userId: 1,
        roundNumber: 1,
        goldenWeek: true,
        matches: ms,
        tips,
        outcome: { matchId: 2, winnerSquadId: 20, sixes: 7 },
      }),
    ).toEqual({ points: 6, margin: 0 })
  })
})

describe('rankIn', () => {
  it('equals rankRows for every row of a distribution', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ points: fc.nat({ max: 6 }), margin: fc.nat({ max: 4 }) }), {
          minLength: 1,
          maxLength: 30,
        }),
        (rows) => {
          const groups = new Map<string, ScoreGroup>()
          for (const r of rows) {
            const g = groups.get(`${r.points}:${r.margin}`) ?? { ...r, count: 0 }
            g.count++
            groups.set(`${r.points}:${r.margin}`, g)
          }
          for (const r of rankRows(rows))
            expect(rankIn([...groups.values()], r.points, r.margin)).toBe(r.rank)
        },
      ),
    )
  })
})
