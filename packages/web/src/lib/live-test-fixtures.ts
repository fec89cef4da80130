import { vi } from 'vitest'
import { asMatchId, asRoundId, asRoundNumber, asSquadId } from '@tipping/contract/ids'
import type { LiveMatch } from '@tipping/contract/live'
import type { Match, PredictionsResponse } from '@tipping/contract/predictions'
import type { LiveStandingResponse } from '@tipping/contract/projections'

// Fixtures of the live stakes' tests, the tipping page's and a league ladder's: week 1 of bbl,
// match 1 won as tipped, match 2 live between the Sixers (3) and the Hurricanes (4) with the
// Sixers tipped, match 3 to come; the tipper's stored numbers with one league (9, "Office mates");
// and the API as the tests' stubbed fetch answers it. Only for tests.

/** A scheduled match between squads 1 and 2, with what a test changes in `over`. */
export const scheduledMatch = (id: number, over: Partial<Match> = {}): Match => ({
  id: asMatchId(id),
  number: id,
  status: 'scheduled' as const,
  date: '2026-12-01T08:00:00Z',
  homeSquadId: asSquadId(1),
  awaySquadId: asSquadId(2),
  homeRuns: null,
  awayRuns: null,
  homeWicketsFallen: null,
  awayWicketsFallen: null,
  homeOvers: null,
  awayOvers: null,
  venueId: 1,
  class: 'match',
  isMarginGame: false,
  winnerSquadId: null,
  outcome: null,
  sixes: null,
  home_percent: 0,
  away_percent: 0,
  ...over,
})

export const liveRound = asRoundNumber(1)

const livePick = (id: number, squad: number, margin: number | null = null) => ({
  match: asMatchId(id),
  squad: asSquadId(squad),
  margin,
  isMarginGame: margin !== null,
  isAutoTip: false,
  isCorrect: null,
  counted: null,
  marginResult: null,
  status: 'active' as const,
})

/** The week's read; when match 2 is the margin game, the Sixers are tipped by 10 sixes. */
export function liveRoundAnswer({ marginGame }: { marginGame: boolean }): PredictionsResponse {
  return {
    round: {
      id: asRoundId(1),
      number: liveRound,
      label: 'Week 1',
      status: 'active',
      startDate: '2026-12-01T08:00:00Z',
      endDate: '2026-12-08T08:00:00Z',
      isGoldenWeek: false,
    },
    matches: [
      scheduledMatch(1, { status: 'complete', winnerSquadId: asSquadId(1), outcome: 'win' }),
      scheduledMatch(2, {
        status: 'active',
        homeSquadId: asSquadId(3),
        awaySquadId: asSquadId(4),
        isMarginGame: marginGame,
      }),
      scheduledMatch(3),
    ],
    predictions: [livePick(1, 1), livePick(2, 3, marginGame ? 10 : null), livePick(3, 1)],
  }
}

/** The stored numbers: week 1 point, total 5 points and margin 3, 3 points in the league. */
export const liveStanding: LiveStandingResponse = {
  scoresVersion: 7,
  round: { points: 1, margin: 0 },
  total: { points: 5, margin: 3 },
  leagues: [{ id: 9, name: 'Office mates', startRound: liveRound, points: 3, margin: 0 }],
}

export const liveSquads = {
  squads: [1, 2, 3, 4].map((id) => ({
    id,
    code: `S${id}`,
    name: ['Strikers', 'Heat', 'Sydney Sixers', 'Hobart Hurricanes'][id - 1],
    nickname: ['Strikers', 'Heat', 'Sixers', 'Hurricanes'][id - 1],
    shortName: `S${id}`,
    colour: '#000000',
    secondColour: '#ffffff',
    logo: '',
  })),
}

/** Match 2's live score with `sixes` hit so far. */
export const liveScore = (sixes: number, over: Partial<LiveMatch> = {}): LiveMatch => ({
  matchId: asMatchId(2),
  roundNumber: liveRound,
  status: 'active',
  version: sixes,
  updatedAt: '2026-12-01T09:00:00Z',
  innings: [],
  sixes,
  figures: { runRates: [], target: null, runsNeeded: null, ballsLeft: null, requiredRate: null },
  ...over,
})

export const okJson = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The season's fixture (rounds.json) holding the week's matches. */
function fixtureOf(answer: PredictionsResponse) {
  return {
    competition: {
      identifier: 'x',
      name: 'BBL',
      season: 2026,
      year: '2026-27',
      goldenWeekRound: null,
    },
    rounds: [
      {
        ...answer.round,
        matches: answer.matches.map((m) => ({
          id: m.id,
          number: m.number,
          status: m.status,
          date: m.date,
          homeSquadId: m.homeSquadId,
          awaySquadId: m.awaySquadId,
          venueId: m.venueId,
          isMarginGame: m.isMarginGame,
          class: m.class,
          winnerSquadId: m.winnerSquadId,
          outcome: m.outcome,
        })),
      },
    ],
  }
}

/**
 * Stubs fetch with the API of the week: `answer` and `live` as the round's reads, the stored
 * numbers, and made-up ranks: overall the projected points' distance from 10 of 1,234, in league 9
 * their distance from 6 of 4. Returns every address asked, in order, with its query.
 */
export function stubLiveApi(
  answer: PredictionsResponse,
  live: LiveMatch,
): { path: string; params: URLSearchParams }[] {
  const asked: { path: string; params: URLSearchParams }[] = []
  vi.stubGlobal('fetch', async (url: string) => {
    const [path, query] = url.split('?') as [string, string | undefined]
    const params = new URLSearchParams(query)
    asked.push({ path, params })
    if (path === '/api/bbl/predictions/1') return okJson({ success: answer })
    if (path === '/api/bbl/live/1')
      return okJson({ success: { round: liveRound, matches: [live] } })
    if (path === '/api/bbl/live/1/standing') return okJson({ success: liveStanding })
    if (path === '/static/checksums.json') return okJson({ files: {} })
    if (path === '/static/bbl/squads.json') return okJson(liveSquads)
    if (path === '/static/bbl/rounds.json') return okJson(fixtureOf(answer))
    const points = Number(params.get('totalPoints'))
    if (path === '/api/bbl/live/1/rank')
      return okJson({ success: { rank: 10 - points, totalUsers: 1234 } })
    if (path === '/api/bbl/league/9/live-rank')
      return okJson({ success: { rank: 6 - points, totalUsers: 4 } })
    return okJson({ errors: [{ code: 'NOT_FOUND', message: 'no', param: null }] }, 404)
  })
  return asked
}
