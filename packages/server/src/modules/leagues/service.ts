import { randomInt } from 'node:crypto'
import { LADDER_PAGE_SIZE, LEAGUE_LIST_PAGE_SIZE, type Sport } from '@tipping/contract/constants'
import {
  LEAGUE_CODE_ALPHABET,
  LEAGUE_CODE_LENGTH,
  type CreateLeagueBody,
  type League,
  type LeagueListResponse,
  type UpdateLeagueBody,
} from '@tipping/contract/leagues'
import type { Lifecycle } from '@tipping/contract/predictions'
import type { Database } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import { currentCompetition } from '../predictions/service.ts'
import { toRankingRow } from '../scores/ranking-row.ts'
import * as q from './queries.ts'

type Row = NonNullable<Awaited<ReturnType<typeof q.findLeague>>>

/** A hard-to-guess join code from an alphabet without look-alike characters. */
export const newLeagueCode = (): string =>
  Array.from(
    { length: LEAGUE_CODE_LENGTH },
    () => LEAGUE_CODE_ALPHABET[randomInt(LEAGUE_CODE_ALPHABET.length)],
  ).join('')

function toLeague(r: Row, userId: number): League {
  const isMember = Boolean(r.is_member)
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    description: r.description,
    status: r.status as Lifecycle,
    class: r.league_class,
    startRound: r.start_round,
    privacy: r.privacy,
    // A private league's code is its key: only its members see it.
    code: isMember || r.privacy === 'public' ? r.code : null,
    numUser: r.num_users,
    isMember,
    isCommissioner: r.user_id === userId,
  }
}

/**
 * Leagues and their ladders. Authorisation lives here: a private league is invisible (404) to
 * non-members, only the commissioner manages it, and a join code is the only way in.
 */
export class LeaguesService {
  constructor(private readonly db: Database) {}

  private async visible(
    sport: Sport,
    leagueId: number,
    userId: number,
  ): Promise<{ row: Row; competitionId: number }> {
    const c = await currentCompetition(this.db, sport)
    const row = await q.findLeague(this.db, c.id, leagueId, userId)
    if (!row || (!row.is_member && row.privacy !== 'public')) throw notFound('League', 'id')
    return { row, competitionId: c.id }
  }

  private async managed(sport: Sport, leagueId: number, userId: number) {
    const found = await this.visible(sport, leagueId, userId)
    if (found.row.user_id !== userId)
      throw new AppError('FORBIDDEN', 'Only the league commissioner can do that')
    return found
  }

  private async checkStartRound(competitionId: number, startRound: number): Promise<void> {
    const [open, count] = await Promise.all([
      q.firstOpenRound(this.db, competitionId),
      q.roundCount(this.db, competitionId),
    ])
    if (open === null || startRound < open || startRound > count) {
      throw new AppError(
        'VALIDATION',
        `Start from week ${open ?? count} or later (up to week ${count})`,
        'startRound',
      )
    }
  }

  async create(sport: Sport, userId: number, body: CreateLeagueBody): Promise<League> {
    const c = await currentCompetition(this.db, sport)
    await this.checkStartRound(c.id, body.startRound)
    const id = await this.db.transaction().execute(async (trx) => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const inserted = await q.insertLeague(trx, {
          competitionId: c.id,
          userId,
          ...body,
          code: newLeagueCode(),
        })
        if (inserted) {
          await q.addMember(trx, inserted.id, userId)
          return inserted.id
        }
      }
      throw new AppError('INTERNAL', 'Could not find a free join code')
    })
    return this.show(sport, userId, id)
  }

  async show(sport: Sport, userId: number, leagueId: number): Promise<League> {
    return toLeague((await this.visible(sport, leagueId, userId)).row, userId)
  }

  async update(
    sport: Sport,
    userId: number,
    leagueId: number,
    body: UpdateLeagueBody,
  ): Promise<League> {
    const { row, competitionId } = await this.managed(sport, leagueId, userId)
    if (body.startRound !== undefined && body.startRound !== row.start_round) {
      if (row.status !== 'scheduled')
        throw new AppError(
          'CONFLICT',
          'The league has started; its start week is fixed',
          'startRound',
        )
      await this.checkStartRound(competitionId, body.startRound)
    }
    await q.updateLeague(this.db, leagueId, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.privacy !== undefined ? { privacy: body.privacy } : {}),
      ...(body.startRound !== undefined ? { start_round: body.startRound } : {}),
    })
    return this.show(sport, userId, leagueId)
  }

  async remove(sport: Sport, userId: number, leagueId: number): Promise<void> {
    const { row } = await this.managed(sport, leagueId, userId)
    if (row.status !== 'scheduled')
      throw new AppError('CONFLICT', 'A league can only be removed before it starts')
    await q.deleteLeague(this.db, leagueId)
  }

  async own(sport: Sport, userId: number, page: number): Promise<LeagueListResponse> {
    const c = await currentCompetition(this.db, sport)
    return this.paged(await q.ownLeagues(this.db, c.id, userId, page), userId, page)
  }

  /** By join code (any league: the code is the key), or public leagues by name. */
  async showForJoin(
    sport: Sport,
    userId: number,
    query: { code?: string | undefined; search?: string | undefined; page: number },
  ): Promise<LeagueListResponse> {
    const c = await currentCompetition(this.db, sport)
    if (query.code) {
      const row = await q.findLeagueByCode(this.db, c.id, query.code, userId)
      return { leagues: row ? [{ ...toLeague(row, userId), code: row.code }] : [], next: null }
    }
    if (!query.search)
      throw new AppError('VALIDATION', 'Enter a join code or a league name', 'code')
    return this.paged(
      await q.publicLeaguesByName(this.db, c.id, query.search, userId, query.page),
      userId,
      query.page,
    )
  }

  /** Joining twice is a no-op, not an error (GAME_RULES.md). */
  async join(sport: Sport, userId: number, code: string): Promise<League> {
    const c = await currentCompetition(this.db, sport)
    const row = await q.findLeagueByCode(this.db, c.id, code, userId)
    if (!row) throw notFound('League', 'code')
    await this.db.transaction().execute(async (trx) => {
      await q.lockLeague(trx, row.id)
      await q.addMember(trx, row.id, userId)
    })
    return this.show(sport, userId, row.id)
  }

  async leave(sport: Sport, userId: number, leagueId: number): Promise<void> {
    const { row } = await this.visible(sport, leagueId, userId)
    if (!row.is_member) throw notFound('League membership', 'id')
    if (row.user_id === userId)
      throw new AppError('CONFLICT', 'The commissioner cannot leave; remove the league instead')
    await this.db.transaction().execute(async (trx) => {
      await q.lockLeague(trx, leagueId)
      await q.removeMember(trx, leagueId, userId)
    })
  }

  async removeMember(
    sport: Sport,
    userId: number,
    leagueId: number,
    memberId: number,
  ): Promise<void> {
    await this.managed(sport, leagueId, userId)
    if (memberId === userId)
      throw new AppError('CONFLICT', 'The commissioner cannot remove themselves', 'userId')
    const removed = await this.db.transaction().execute(async (trx) => {
      await q.lockLeague(trx, leagueId)
      return q.removeMember(trx, leagueId, memberId)
    })
    if (!removed) throw notFound('Member', 'userId')
  }

  async joinedUsers(sport: Sport, userId: number, leagueId: number, page: number) {
    await this.visible(sport, leagueId, userId)
    const rows = await q.joinedUsers(this.db, leagueId, page, LADDER_PAGE_SIZE)
    return {
      users: rows.slice(0, LADDER_PAGE_SIZE).map((u) => ({
        userId: u.id,
        teamName: u.team_name,
        firstName: u.first_name,
        lastNameInitial: u.last_name.slice(0, 1),
        isCommissioner: u.is_commissioner,
      })),
      nextPage: rows.length > LADDER_PAGE_SIZE ? page + 1 : null,
    }
  }

  async ladder(
    sport: Sport,
    userId: number,
    leagueId: number,
    query: { page: number; limit: number; round?: number | undefined },
  ) {
    const { row, competitionId } = await this.visible(sport, leagueId, userId)
    const base = {
      leagueId,
      competitionId,
      startRound: row.start_round,
      roundNumber: query.round ?? null,
      limit: query.limit,
    }
    const [rows, own] = await Promise.all([
      q.ladderPage(this.db, { ...base, offset: (query.page - 1) * query.limit }),
      q.ladderPage(this.db, { ...base, offset: 0, onlyUserId: userId }),
    ])
    const toRow = toRankingRow
    return {
      rankings: rows.slice(0, query.limit).map(toRow),
      nextPage: rows.length > query.limit ? query.page + 1 : null,
      user: own[0] ? toRow(own[0]) : null,
      isCommissioner: row.user_id === userId,
    }
  }

  private paged(rows: Row[], userId: number, page: number): LeagueListResponse {
    const size = LEAGUE_LIST_PAGE_SIZE
    return {
      leagues: rows.slice(0, size).map((r) => toLeague(r, userId)),
      next: rows.length > size ? page + 1 : null,
    }
  }
}
