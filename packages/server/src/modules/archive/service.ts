import { LADDER_PAGE_SIZE, type Sport } from '@tipping/contract/constants'
import type {
  ArchivedLadderResponse,
  ArchivedLeague,
  ArchiveRankingsResponse,
  ArchiveTeamLadder,
  LeagueHistoryResponse,
  PastSeason,
  PastSeasonsResponse,
  RenewalOffersResponse,
  RenewLeagueBody,
  SeasonArchive,
} from '@tipping/contract/archive'
import { asRoundNumber } from '@tipping/contract/ids'
import type { League } from '@tipping/contract/leagues'
import { tipperName } from '@tipping/contract/names'
import { initialOf } from '@tipping/contract/scores'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import { ReadCache } from '../../read-cache.ts'
import type { CurrentCompetitions } from '../competitions/service.ts'
import {
  addLeagueMember,
  firstOpenRoundOf,
  leagueLadderRows,
  lockLeagueRow,
  newLeagueCode,
  roundCountOf,
  type LeaguesService,
} from '../leagues/service.ts'
import { queueToLeagueMembers } from '../mail/service.ts'
import { teamLadderOf } from '../publisher/service.ts'
import { toRankingRow } from '../scores/ranking-row.ts'
import type { SeasonService } from '../season/service.ts'
import { renewalEmail } from './renewal-email.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../db/transaction.ts'

/** The caller's leagues listed for one past season (the archive page shows a phone's worth). */
const MAX_LEAGUES = 50
/** How many rows of a past ladder are read for its champions (rank 1; ties past this are rare). */
const CHAMPION_ROWS = 10

const toPastSeason = (c: q.PastCompetition): PastSeason => ({
  year: c.year,
  season: c.season,
  name: c.name,
  tippers: c.tippers,
})

/**
 * The season archive and league history across seasons (issue 31, decision 024). A past season
 * is read as scoring left it: its standings, round scores, leagues and matches. Nothing here
 * writes to a past competition; the one write, a renewal, creates a league in the current one.
 */
export class ArchiveService {
  /** The past seasons of each sport: a few rows, with a registration count worth keeping. */
  private readonly seasons: ReadCache<q.PastCompetition[]>

  constructor(
    private readonly db: Database,
    private readonly competitions: CurrentCompetitions,
    private readonly season: SeasonService,
    private readonly leagues: LeaguesService,
    private readonly mail: { clock: Clock; appOrigin: string },
    readCacheMs = 0,
  ) {
    this.seasons = new ReadCache(readCacheMs, 4)
  }

  private past(sport: Sport): Promise<q.PastCompetition[]> {
    return this.seasons.get(sport, () => q.pastCompetitions(this.db, sport))
  }

  async list(sport: Sport): Promise<PastSeasonsResponse> {
    return { seasons: (await this.past(sport)).map(toPastSeason) }
  }

  /** A past season by its year, or 404 naming `year` (the current season is not archived). */
  private async pastSeason(sport: Sport, year: string): Promise<q.PastCompetition> {
    const found = (await this.past(sport)).find((c) => c.year === year)
    if (!found) throw notFound('Past season', 'year')
    return found
  }

  async show(sport: Sport, userId: number, year: string): Promise<SeasonArchive> {
    const c = await this.pastSeason(sport, year)
    const [registered, [own], leagues] = await Promise.all([
      q.isRegistered(this.db, c.id, userId),
      q.finalRankings(this.db, { competitionId: c.id, offset: 0, limit: 1, userId }),
      q.leaguesOfUser(this.db, c.id, userId, MAX_LEAGUES),
    ])
    // One ladder read per league of the caller's (at most MAX_LEAGUES, of their own): their row.
    const ranks = await Promise.all(
      leagues.map((l) =>
        leagueLadderRows(this.db, {
          leagueId: l.id,
          competitionId: c.id,
          startRound: l.start_round,
          roundNumber: null,
          offset: 0,
          limit: 1,
          onlyUserId: userId,
        }),
      ),
    )
    return {
      season: toPastSeason(c),
      user: own ? toRankingRow(own) : null,
      mySeason: registered ? await this.season.seasonOf(c, userId) : null,
      leagues: leagues.map((l, i): ArchivedLeague => ({
        id: l.id,
        name: l.name,
        privacy: l.privacy,
        numUser: l.num_users,
        rank: ranks[i]?.[0]?.rank ?? 0,
        renewedBy: l.renewed_by,
        isCommissioner: l.user_id === userId,
      })),
    }
  }

  async rankings(
    sport: Sport,
    userId: number,
    year: string,
    page: number,
  ): Promise<ArchiveRankingsResponse> {
    const c = await this.pastSeason(sport, year)
    const limit = LADDER_PAGE_SIZE
    const [rows, [own]] = await Promise.all([
      q.finalRankings(this.db, { competitionId: c.id, offset: (page - 1) * limit, limit }),
      q.finalRankings(this.db, { competitionId: c.id, offset: 0, limit: 1, userId }),
    ])
    const last = page * limit
    return {
      rankings: rows.filter((r) => (r.position ?? 0) <= last).map(toRankingRow),
      nextPage: rows.some((r) => (r.position ?? 0) > last) ? page + 1 : null,
      user: own ? toRankingRow(own) : null,
    }
  }

  async teamLadder(sport: Sport, year: string): Promise<ArchiveTeamLadder> {
    const c = await this.pastSeason(sport, year)
    return teamLadderOf(this.db, c.id, sport)
  }

  /**
   * A league of any season of the sport that the caller may read: public, or they are a member
   * of it or of a later season's league renewed from it. Else 404 (never confirming a private one).
   */
  private async readable(sport: Sport, leagueId: number, userId: number) {
    const l = await q.leagueWithCompetition(this.db, sport, leagueId)
    if (!l) throw notFound('League', 'id')
    if (l.privacy !== 'public' && !(await q.isMemberAlongChain(this.db, l.id, userId)))
      throw notFound('League', 'id')
    return l
  }

  async leagueLadder(
    sport: Sport,
    userId: number,
    year: string,
    leagueId: number,
    page: number,
  ): Promise<ArchivedLadderResponse> {
    const c = await this.pastSeason(sport, year)
    const l = await this.readable(sport, leagueId, userId)
    if (l.competition_id !== c.id) throw notFound('League', 'id')
    const limit = LADDER_PAGE_SIZE
    const base = {
      leagueId: l.id,
      competitionId: c.id,
      startRound: l.start_round,
      roundNumber: null,
    }
    const [rows, [own]] = await Promise.all([
      leagueLadderRows(this.db, { ...base, offset: (page - 1) * limit, limit }),
      leagueLadderRows(this.db, { ...base, offset: 0, limit: 1, onlyUserId: userId }),
    ])
    return {
      league: {
        id: l.id,
        name: l.name,
        privacy: l.privacy,
        numUser: l.num_users,
        renewedBy: l.renewed_by,
        isCommissioner: l.user_id === userId,
      },
      rankings: rows.slice(0, limit).map(toRankingRow),
      nextPage: rows.length > limit ? page + 1 : null,
      user: own ? toRankingRow(own) : null,
    }
  }

  /** Every past season of a league (the leagues it was renewed from): champions and my row. */
  async history(sport: Sport, userId: number, leagueId: number): Promise<LeagueHistoryResponse> {
    await this.readable(sport, leagueId, userId)
    const earlier = await q.earlierSeasons(this.db, leagueId)
    const seasons = await Promise.all(
      earlier.map(async (e) => {
        const base = {
          leagueId: e.id,
          competitionId: e.competition_id,
          startRound: e.start_round,
          roundNumber: null,
          offset: 0,
        }
        const [top, [own], rounds] = await Promise.all([
          leagueLadderRows(this.db, { ...base, limit: CHAMPION_ROWS }),
          leagueLadderRows(this.db, { ...base, limit: 1, onlyUserId: userId }),
          // The season's round honours, by the live honours' own statements (a member join up
          // to 2,000 members, the ranking walk above) and cache, keyed by that competition's
          // scores version: a re-score of the past season shows, nothing else moves it.
          this.leagues.roundHonoursOf({
            competitionId: e.competition_id,
            leagueId: e.id,
            startRound: e.start_round,
            scoresVersion: e.scores_version,
            numUsers: e.num_users,
          }),
        ])
        return {
          leagueId: e.id,
          year: e.year,
          name: e.name,
          numUser: e.num_users,
          champions: top.filter((r) => r.rank === 1).map(toRankingRow),
          user: own ? toRankingRow(own) : null,
          rounds,
        }
      }),
    )
    return { seasons }
  }

  /**
   * The commissioner renews a past league into the sport's current season (issue 31): a new
   * league with the same name, description and privacy, a new join code, renewed_from set, and
   * the commissioner its first member. The old members are asked, not moved: each gets an email
   * and an offer on their leagues page, and joins with one click or declines. One transaction,
   * under the old league's row lock; a league is renewed once (leagues_renewed_from).
   */
  async renew(
    sport: Sport,
    userId: number,
    leagueId: number,
    body: RenewLeagueBody,
  ): Promise<League> {
    const current = await this.competitions.get(sport)
    const old = await q.leagueWithCompetition(this.db, sport, leagueId)
    if (
      !old ||
      (old.privacy !== 'public' && !(await q.isMemberAlongChain(this.db, old.id, userId)))
    )
      throw notFound('League', 'id')
    if (old.user_id !== userId)
      throw new AppError('FORBIDDEN', 'Only the league commissioner can renew it')
    if (old.is_current || old.season >= current.season)
      throw new AppError('CONFLICT', 'This league is already in the current season', 'id')
    const [open, count] = await Promise.all([
      firstOpenRoundOf(this.db, current.id),
      roundCountOf(this.db, current.id),
    ])
    if (open === null)
      throw new AppError('CONFLICT', `The ${current.year} season has no week left to start from`)
    const startRound = body.startRound ?? open
    if (startRound < open || startRound > count)
      throw new AppError(
        'VALIDATION',
        `Start from week ${open} or later (up to week ${count})`,
        'startRound',
      )
    const names = await q.userNames(this.db, userId)
    const email = renewalEmail({
      sport,
      appOrigin: this.mail.appOrigin,
      leagueName: old.name,
      year: current.year,
      startRound,
      commissioner: tipperName({
        teamName: names.team_name,
        firstName: names.first_name,
        lastNameInitial: initialOf(names.last_name),
      }),
    })
    const id = await inTransaction(this.db, async (trx) => {
      await lockLeagueRow(trx, old.id)
      if (await q.renewedBy(trx, old.id))
        throw new AppError('CONFLICT', 'This league has already been renewed', 'id')
      for (let attempt = 0; attempt < 5; attempt++) {
        const inserted = await q.insertRenewedLeague(trx, {
          competitionId: current.id,
          userId,
          name: old.name,
          description: old.description,
          privacy: old.privacy,
          code: newLeagueCode(),
          startRound,
          renewedFrom: old.id,
        })
        if (inserted) {
          await addLeagueMember(trx, inserted.id, userId)
          // Set-based: one insert for every old member who takes email (the commissioner a copy).
          await queueToLeagueMembers(trx, old.id, email, this.mail.clock.now())
          return inserted.id
        }
      }
      throw new AppError('INTERNAL', 'Could not find a free join code')
    })
    return this.leagues.show(sport, userId, id)
  }

  async offers(sport: Sport, userId: number): Promise<RenewalOffersResponse> {
    const current = await this.competitions.get(sport)
    const rows = await q.renewalOffers(this.db, current.id, userId)
    return {
      offers: rows.map((r) => ({
        id: r.id,
        name: r.name,
        privacy: r.privacy,
        startRound: asRoundNumber(r.start_round),
        numUser: r.num_users,
        commissioner: tipperName({
          teamName: r.team_name,
          firstName: r.first_name,
          lastNameInitial: initialOf(r.last_name),
        }),
        from: { id: r.from_id, year: r.from_year },
      })),
    }
  }

  /** An open offer for the caller, or 404: only last season's members are asked. */
  private async offer(sport: Sport, userId: number, leagueId: number) {
    const current = await this.competitions.get(sport)
    const [row] = await q.renewalOffers(this.db, current.id, userId, leagueId)
    if (!row) throw notFound('Renewal offer', 'id')
    return row
  }

  /** One click: the caller joins the renewed league (a private one too: the offer is the key). */
  async accept(sport: Sport, userId: number, leagueId: number): Promise<League> {
    await this.offer(sport, userId, leagueId)
    await inTransaction(this.db, async (trx) => {
      await lockLeagueRow(trx, leagueId)
      await addLeagueMember(trx, leagueId, userId)
    })
    return this.leagues.show(sport, userId, leagueId)
  }

  async decline(sport: Sport, userId: number, leagueId: number): Promise<void> {
    await this.offer(sport, userId, leagueId)
    await inTransaction(this.db, (trx) => q.declineRenewal(trx, leagueId, userId))
  }
}
