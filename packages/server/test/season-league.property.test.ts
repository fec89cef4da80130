import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { averageOf, leagueSeason } from '@tipping/contract/rules/season'
import { systemClock } from '../src/clock.ts'
import { AppError } from '../src/errors.ts'
import { CurrentCompetitions } from '../src/modules/competitions/service.ts'
import { LeaguesService } from '../src/modules/leagues/service.ts'
import { SeasonLeagues } from '../src/modules/season/service.ts'
import { LEAGUE_SHAPE, loadSeason, seasonArb, useSeasonDatabase } from './generated-season.ts'

// Issue 31 "the same for each of my leagues" on My season: GET /api/{sport}/season/leagues/{id}'s
// service (SeasonLeagues over the real LeaguesService, so the membership check is the route's)
// must equal the contract's leagueSeason for every member of the league, on random seasons: late
// registrations (before and after the scoring), deactivated members, ties, auto-tips, no results,
// Golden Week, a random start round and a random subset of tippers in the league. The generator
// and loader are generated-season.ts's. SEASON_LEAGUE_RUNS raises the number of seasons.
const RUNS = Number(process.env.SEASON_LEAGUE_RUNS ?? 40)
const database = useSeasonDatabase()

const fullArb = seasonArb(LEAGUE_SHAPE).chain((s) =>
  fc.record({
    season: fc.constant(s),
    late: fc.integer({ min: 0, max: 2 }),
    inLeague: fc.array(
      fc.nat(3).map((n) => n > 0),
      { minLength: s.users + 2, maxLength: s.users + 2 },
    ),
    startRound: fc.integer({ min: 1, max: s.rounds.length }),
  }),
)

describe('My season league charts equal the reference', () => {
  it(`on ${RUNS} random seasons, for every member`, async () => {
    await fc.assert(
      fc.asyncProperty(fullArb, async ({ season, late, inLeague, startRound }) => {
        const db = database().handle.db
        const { registrations, matches, reference, competitionId } = await loadSeason(
          database(),
          season,
          {
            late,
            roundStatuses: true,
          },
        )
        const members = registrations.filter((_, i) => inLeague[i]).map((r) => r.userId)
        const owner = members[0] ?? registrations[0]!.userId
        const league = await db
          .insertInto('leagues')
          .values({
            competition_id: competitionId,
            user_id: owner,
            name: 'Charts',
            description: '',
            privacy: 'private',
            code: 'CHARTS1234',
            start_round: startRound,
            num_users: members.length,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        if (members.length > 0)
          await db
            .insertInto('league_members')
            .values(members.map((user_id) => ({ league_id: league.id, user_id })))
            .execute()
        const competitions = new CurrentCompetitions(db)
        const leagues = new LeaguesService(
          db,
          {
            clock: systemClock,
            appOrigin: 'http://x.test',
            invitesPerHour: 1,
            messagesPerHour: 1,
            messageRecipientsPerHour: 1,
          },
          competitions,
        )
        const service = new SeasonLeagues(db, leagues)
        const active = registrations.filter((r) => r.active).map((r) => r.userId)
        // The chart's rounds: every round with a completed match.
        const played = [
          ...new Set(matches.filter((m) => m.status === 'complete').map((m) => m.roundNumber)),
        ].sort((a, b) => a - b)

        // A deactivated tipper cannot sign in: every active member is a possible caller.
        for (const userId of members.filter((m) => active.includes(m))) {
          const want = leagueSeason({
            userId,
            members: members.filter((m) => active.includes(m)),
            startRound,
            rounds: played,
            scores: reference.rounds,
          }).map((r) => ({
            round: r.roundNumber,
            points: r.points,
            tippers: r.tippers,
            average: averageOf(r.totalPoints, r.tippers),
            best: r.best,
            rank: r.rank,
          }))
          const got = await service.league('bbl', userId, league.id)
          expect(got.league).toEqual({ id: league.id, name: 'Charts', startRound })
          expect(got.rounds).toEqual(want)
        }

        // A tipper outside the (private) league is told it is not there, as by its other reads.
        const outsider = registrations.find((r) => !members.includes(r.userId))
        if (outsider) {
          const refused = await service.league('bbl', outsider.userId, league.id).then(
            () => null,
            (e: unknown) => e,
          )
          expect(refused).toBeInstanceOf(AppError)
          expect((refused as AppError).code).toBe('NOT_FOUND')
        }
      }),
      { numRuns: RUNS },
    )
  }, 600_000)
})
