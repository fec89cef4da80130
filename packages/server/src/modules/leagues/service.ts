import { randomInt } from 'node:crypto'
import { asRoundNumber } from '@tipping/contract/ids'
import { initialOf } from '@tipping/contract/scores'
import {
  LADDER_PAGE_SIZE,
  LEAGUE_LIST_PAGE_SIZE,
  roleForSport,
  SPORTS,
  type Sport,
} from '@tipping/contract/constants'
import {
  LEAGUE_CODE_ALPHABET,
  LEAGUE_CODE_LENGTH,
  type BulkMembersResponse,
  type CreateLeagueBody,
  type DeleteMultiBody,
  type EditUsersBody,
  type InviteBody,
  type League,
  type LeagueHonoursResponse,
  type LeagueListResponse,
  type SendEmailsBody,
  type UpdateLeagueBody,
} from '@tipping/contract/leagues'
import type { Lifecycle } from '@tipping/contract/predictions'
import { tipperName } from '@tipping/contract/names'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import {
  countLeagueRecipients,
  queueEmails,
  queueToLeagueMembers,
  useMailQuota,
} from '../mail/service.ts'
import { invitationEmail, leagueMessageEmail } from '../mail/templates.ts'
import { currentCompetitionsIn, type CurrentCompetitions } from '../competitions/service.ts'
import * as q from './queries.ts'
import { HonoursReads } from './honours/reads.ts'
import type { KeptLeague } from './kept-league.ts'
import { LeaguesReads, type LadderKey, type LeagueRow as Row } from './reads.ts'
import { inTransaction } from '../../db/transaction.ts'

export type { KeptLeague } from './kept-league.ts'

/** What the league emails need: the clock, the app's public origin for links, hourly quotas. */
export interface LeagueMailSettings {
  clock: Clock
  appOrigin: string
  invitesPerHour: number
  /** Addresses one league may invite in a day (LEAGUE_INVITES_PER_LEAGUE_PER_DAY); default 200. */
  invitesPerLeaguePerDay?: number
  messagesPerHour: number
  messageRecipientsPerHour: number
  /** How long a league's ladder may be served from memory (reads.ts); 0 computes it every time. */
  readCacheMs?: number
}

/** One change of a bulk member edit; `param` names the entry in the request for errors. */
interface MemberChange {
  userId: number
  remove: boolean
  param: string
}

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
    startRound: asRoundNumber(r.start_round),
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
  private readonly reads: LeaguesReads
  private readonly honoursReads: HonoursReads

  constructor(
    private readonly db: Database,
    private readonly mail: LeagueMailSettings,
    private readonly competitions: CurrentCompetitions,
  ) {
    this.reads = new LeaguesReads(db, mail.readCacheMs ?? 0)
    this.honoursReads = new HonoursReads(db, mail.readCacheMs ?? 0)
  }

  private async visible(
    sport: Sport,
    leagueId: number,
    userId: number,
  ): Promise<{ row: Row; competitionId: number }> {
    const c = await this.competitions.get(sport)
    const row = await q.findLeague(this.db, c.id, leagueId, userId)
    if (!row || (!row.is_member && row.privacy !== 'public'))
      throw await this.missing(sport, { id: leagueId }, userId, 'id')
    return { row, competitionId: c.id }
  }

  /**
   * Why a league is not in the current season: one the caller may see in a past season is over
   * and can no longer be changed (409, issue 31: the season archive shows it); else 404, so a
   * private league of any season is never confirmed to a non-member. A join code is the key.
   */
  private async missing(
    sport: Sport,
    by: { id: number } | { code: string },
    userId: number,
    param: string,
  ): Promise<AppError> {
    const past = await q.findPastLeague(this.db, sport, by, userId)
    if (past && ('code' in by || past.is_member || past.privacy === 'public'))
      return new AppError(
        'CONFLICT',
        `That league played the ${past.year} season, which is over: it can no longer be changed (see the season archive)`,
        param,
      )
    return notFound('League', param)
  }

  /** visible() for reads: requests arriving together share the league row and one membership query. */
  private async visibleForRead(sport: Sport, leagueId: number, userId: number) {
    const c = await this.competitions.get(sport)
    const row = await this.reads.league(c.id, leagueId, userId)
    if (!row || (!row.is_member && row.privacy !== 'public')) throw notFound('League', 'id')
    return { row, competitionId: c.id, scoresVersion: c.scores_version }
  }

  /**
   * A league the user is a member of, as a live rank lookup keys it (modules/projections): a
   * position on its ladder is a member's only, so a public league's visitors are refused too.
   */
  async forLiveRank(sport: Sport, leagueId: number, userId: number) {
    const { row, competitionId, scoresVersion } = await this.visibleForRead(sport, leagueId, userId)
    if (!row.is_member)
      throw new AppError('FORBIDDEN', 'Only the league’s members have a place on its ladder', 'id')
    return {
      competitionId,
      scoresVersion,
      startRound: row.start_round,
      numUsers: row.num_users,
      name: row.name,
    }
  }

  /**
   * The league as its ladder keeps it (reads.ts kept), for a league forLiveRank has let the
   * caller see: My season's league chart is drawn from it.
   */
  keptLeague(at: Omit<LadderKey, 'round'>): Promise<KeptLeague> {
    return this.reads.kept(at)
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
    const c = await this.competitions.get(sport)
    // Decision 049: a create sent again with its key finds the league the first send made, even
    // if its start week has locked since.
    const made = await this.madeBefore(this.db, c.id, userId, body)
    if (made !== null) return this.show(sport, userId, made)
    await this.checkStartRound(c.id, body.startRound)
    const id = await inTransaction(this.db, async (trx) => {
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
        // Not inserted: the code was taken, or the same create, sent twice at once, committed
        // its league first (this insert waited for it on the key's index).
        const raced = await this.madeBefore(trx, c.id, userId, body)
        if (raced !== null) return raced
      }
      throw new AppError('INTERNAL', 'Could not find a free join code')
    })
    return this.show(sport, userId, id)
  }

  /**
   * The league this owner already made with the body's create key, or null (no key, or none made
   * with it yet). The same key with other values is a client's mistake, refused on the key.
   */
  private async madeBefore(
    db: Database,
    competitionId: number,
    userId: number,
    body: CreateLeagueBody,
  ): Promise<number | null> {
    if (body.requestId === undefined) return null
    const row = await q.leagueByCreateKey(db, userId, body.requestId)
    if (row === undefined) return null
    const same =
      row.competition_id === competitionId &&
      row.name === body.name &&
      row.description === body.description &&
      row.privacy === body.privacy &&
      row.start_round === body.startRound
    if (!same)
      throw new AppError(
        'CONFLICT',
        'This request id already made a different league; send a new one',
        'requestId',
      )
    return row.id
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
    const c = await this.competitions.get(sport)
    return this.paged(await q.ownLeagues(this.db, c.id, userId, page), userId, page)
  }

  /** By join code (any league: the code is the key), or public leagues by name. */
  async showForJoin(
    sport: Sport,
    userId: number,
    query: { code?: string | undefined; search?: string | undefined; page: number },
  ): Promise<LeagueListResponse> {
    const c = await this.competitions.get(sport)
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
    const c = await this.competitions.get(sport)
    const row = await q.findLeagueByCode(this.db, c.id, code, userId)
    if (!row) throw await this.missing(sport, { code }, userId, 'code')
    await inTransaction(this.db, async (trx) => {
      await q.lockLeague(trx, row.id)
      await q.addMember(trx, row.id, userId)
    })
    return this.show(sport, userId, row.id)
  }

  async leave(sport: Sport, userId: number, leagueId: number): Promise<void> {
    const { row } = await this.visible(sport, leagueId, userId)
    if (!row.is_member) throw notFound('League membership', 'id')
    if (row.user_id === userId)
      throw new AppError(
        'CONFLICT',
        'The commissioner cannot leave; hand the league to another member first',
      )
    await inTransaction(this.db, async (trx) => {
      await q.lockLeague(trx, leagueId)
      await q.removeMember(trx, leagueId, userId)
    })
  }

  /**
   * The commissioner hands the league to another member: a current
   * member whose account is active and plays the sport, never themself. Under the league's row
   * lock, and only while the caller is still the commissioner, so two hand-overs cannot both win.
   * The former commissioner stays a member, and may leave like any other.
   */
  async handOver(sport: Sport, userId: number, leagueId: number, to: number): Promise<League> {
    await this.managed(sport, leagueId, userId)
    if (to === userId)
      throw new AppError('VALIDATION', 'Choose another member to hand the league to', 'userId')
    await inTransaction(this.db, async (trx) => {
      await q.lockLeague(trx, leagueId)
      const member = await q.memberAccount(trx, leagueId, to)
      if (!member || member.deactivated_at !== null || !member.roles.includes(roleForSport(sport)))
        throw notFound('Member', 'userId')
      if (!(await q.setCommissioner(trx, leagueId, userId, to)))
        throw new AppError('FORBIDDEN', 'Only the league commissioner can do that')
    })
    return this.show(sport, userId, leagueId)
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
    const removed = await inTransaction(this.db, async (trx) => {
      await q.lockLeague(trx, leagueId)
      return q.removeMember(trx, leagueId, memberId)
    })
    if (!removed) throw notFound('Member', 'userId')
  }

  /**
   * Emails an invitation with the join link to each address (GAME_RULES.md: the commissioner may
   * invite by email). Queued with the quota use in one transaction; the delivery job sends them.
   */
  async invite(
    sport: Sport,
    userId: number,
    leagueId: number,
    { emails, requestId }: InviteBody,
  ): Promise<{ invited: number }> {
    const { row } = await this.managed(sport, leagueId, userId)
    const addresses = [...new Set(emails)]
    const email = invitationEmail({
      sport,
      appOrigin: this.mail.appOrigin,
      leagueName: row.name,
      code: row.code,
      startRound: row.start_round,
      privacy: row.privacy,
      commissioner: await this.displayName(userId),
    })
    const now = this.mail.clock.now()
    return inTransaction(this.db, async (trx) => {
      const { repeated } = await useMailQuota(trx, {
        userId,
        requestId,
        action: 'league.invite',
        entity: 'league',
        entityId: String(leagueId),
        recipients: addresses.length,
        limit: { recipients: this.mail.invitesPerHour },
        perEntity: {
          recipients: this.mail.invitesPerLeaguePerDay ?? 200,
          windowMs: 24 * 3_600_000,
          what: 'this league',
          period: 'a day',
        },
        now,
        param: 'emails',
      })
      // Decision 049: sent again with its key, the first send's answer, and no mail.
      if (repeated !== null) return { invited: repeated }
      await queueEmails(
        trx,
        addresses.map((to) => ({ ...email, to })),
        now,
      )
      return { invited: addresses.length }
    })
  }

  /**
   * The commissioner's message to every member (themself included, as a copy). Members who turned
   * notifications off or were deactivated are skipped. The league row is locked so the members
   * counted against the quota are the members the message is queued for.
   */
  async sendEmails(
    sport: Sport,
    userId: number,
    body: SendEmailsBody,
  ): Promise<{ recipients: number }> {
    const { row } = await this.managed(sport, body.leagueId, userId)
    const email = leagueMessageEmail({
      sport,
      appOrigin: this.mail.appOrigin,
      leagueName: row.name,
      commissioner: await this.displayName(userId),
      subject: body.subject,
      message: body.message,
    })
    const now = this.mail.clock.now()
    const recipients = await inTransaction(this.db, async (trx) => {
      await q.lockLeague(trx, body.leagueId)
      const count = await countLeagueRecipients(trx, body.leagueId)
      const { repeated } = await useMailQuota(trx, {
        userId,
        requestId: body.requestId,
        action: 'league.message',
        entity: 'league',
        entityId: String(body.leagueId),
        recipients: count,
        limit: {
          actions: this.mail.messagesPerHour,
          recipients: this.mail.messageRecipientsPerHour,
        },
        now,
        param: 'message',
      })
      // Decision 049: sent again with its key, the first send's answer, and no mail.
      if (repeated !== null) return repeated
      return queueToLeagueMembers(trx, body.leagueId, email, now)
    })
    return { recipients }
  }

  /** tipping_join/delete_multi: remove several members at once (see editUsersBodySchema). */
  deleteMembers(
    userId: number,
    roles: readonly string[],
    body: DeleteMultiBody,
  ): Promise<BulkMembersResponse> {
    return this.changeMembers(
      userId,
      roles,
      body.leagueId,
      body.userIds.map((id, i) => ({ userId: id, remove: true, param: `userIds.${i}` })),
    )
  }

  /** tipping_join/edit_users: keep or remove each listed member, all in one go. */
  editMembers(
    userId: number,
    roles: readonly string[],
    body: EditUsersBody,
  ): Promise<BulkMembersResponse> {
    return this.changeMembers(
      userId,
      roles,
      body.leagueId,
      body.users.map((u, i) => ({
        userId: u.userId,
        remove: u.remove,
        param: `users.${i}.userId`,
      })),
    )
  }

  /**
   * All or nothing, under the league's row lock (as single joins and removals take it): every
   * listed user must be a member, the commissioner cannot remove themself, and num_users drops
   * by exactly the rows removed. These routes carry no sport in their path, so the league is
   * looked up in every current competition and the caller must be registered for its sport.
   */
  private async changeMembers(
    userId: number,
    roles: readonly string[],
    leagueId: number,
    changes: MemberChange[],
  ): Promise<BulkMembersResponse> {
    const row = await q.findCurrentLeague(this.db, leagueId, userId)
    if (!row || (!row.is_member && row.privacy !== 'public')) throw notFound('League', 'leagueId')
    const sport = SPORTS.find((s) => s === row.sport)
    if (!sport || !roles.includes(roleForSport(sport)))
      throw new AppError(
        'NOT_REGISTERED',
        `You are not registered for ${row.sport.toUpperCase()} tipping`,
      )
    if (row.user_id !== userId)
      throw new AppError('FORBIDDEN', 'Only the league commissioner can do that')
    const self = changes.find((c) => c.remove && c.userId === userId)
    if (self)
      throw new AppError('CONFLICT', 'The commissioner cannot remove themselves', self.param)
    return inTransaction(this.db, async (trx) => {
      await q.lockLeague(trx, leagueId)
      const members = new Set(
        await q.membersAmong(
          trx,
          leagueId,
          changes.map((c) => c.userId),
        ),
      )
      const missing = changes.find((c) => !members.has(c.userId))
      if (missing) throw notFound('Member', missing.param)
      const { numUsers } = await q.removeMembers(
        trx,
        leagueId,
        changes.filter((c) => c.remove).map((c) => c.userId),
      )
      return {
        leagueId,
        removed: changes.filter((c) => c.remove).map((c) => c.userId),
        numUser: numUsers,
      }
    })
  }

  private async displayName(userId: number): Promise<string> {
    const u = await q.userNames(this.db, userId)
    return tipperName({
      teamName: u.team_name,
      firstName: u.first_name,
      lastNameInitial: initialOf(u.last_name),
    })
  }

  async joinedUsers(sport: Sport, userId: number, leagueId: number, page: number) {
    await this.visible(sport, leagueId, userId)
    const rows = await q.joinedUsers(this.db, leagueId, page, LADDER_PAGE_SIZE)
    return {
      users: rows.slice(0, LADDER_PAGE_SIZE).map((u) => ({
        userId: u.id,
        teamName: u.team_name,
        firstName: u.first_name,
        lastNameInitial: initialOf(u.last_name),
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
    const { row, competitionId, scoresVersion } = await this.visibleForRead(sport, leagueId, userId)
    const ladder = await this.reads.ladder({
      competitionId,
      leagueId,
      startRound: row.start_round,
      round: query.round ?? null,
      scoresVersion,
      numUsers: row.num_users,
    })
    const offset = (query.page - 1) * query.limit
    return {
      rankings: ladder.rows(offset, query.limit),
      nextPage: ladder.size > offset + query.limit ? query.page + 1 : null,
      user: ladder.of(userId) ?? null,
      isCommissioner: row.user_id === userId,
      scoresVersion: ladder.scoresVersion,
    }
  }

  /**
   * Builds the biggest leagues' overall ladders of every current competition ahead of their
   * readers (reads.ts warmBig; decision 020): app.ts calls it at start-up and whenever a result
   * moved the scores. Off the request path and one ladder at a time; never rejects (a failed
   * build leaves the ladder to its first reader, as before).
   */
  async warmLadders(): Promise<void> {
    // Without a ladder cache there is nothing to build ahead.
    if (!this.mail.readCacheMs) return
    try {
      // Read afresh, not through the shared cache: a warm-up at start-up must not keep "no
      // season yet" there for a process whose season is imported a moment later.
      for (const c of await currentCompetitionsIn(this.db))
        await this.reads.warmBig(c.id, c.scores_version)
    } catch {
      // the database is away or closing: the readers build it, as without the warm-up
    }
  }

  /**
   * Issue 31: the league's round honours (who came first in each completed week from its start
   * week) and the points still to play for in the competition (for "Can I still win?"). Visible
   * to whoever may read the ladder: they are its first places.
   */
  async honours(sport: Sport, userId: number, leagueId: number): Promise<LeagueHonoursResponse> {
    const { row, competitionId, scoresVersion } = await this.visibleForRead(sport, leagueId, userId)
    const [rounds, remaining] = await Promise.all([
      this.honoursReads.rounds({
        competitionId,
        leagueId,
        startRound: row.start_round,
        scoresVersion,
        numUsers: row.num_users,
      }),
      this.honoursReads.remaining(competitionId, scoresVersion),
    ])
    return { rounds, remaining }
  }

  /**
   * Round honours of a league of any competition, past ones included (the league's history
   * across seasons, decision 024): the same statements and cache as honours(), no visibility
   * check (the caller has made it).
   */
  roundHonoursOf(l: {
    competitionId: number
    leagueId: number
    startRound: number
    scoresVersion: number
    numUsers: number
  }): Promise<LeagueHonoursResponse['rounds']> {
    return this.honoursReads.rounds(l)
  }

  private paged(rows: Row[], userId: number, page: number): LeagueListResponse {
    const size = LEAGUE_LIST_PAGE_SIZE
    return {
      leagues: rows.slice(0, size).map((r) => toLeague(r, userId)),
      next: rows.length > size ? page + 1 : null,
    }
  }
}

/** Deletes a league and, by cascade, its memberships (the console's removal, inside its audit). */
export const deleteLeagueRow = (db: Database, id: number) => q.deleteLeague(db, id)

// The season archive and league renewal (modules/archive, issue 31) reach leagues through these.
export type { LadderQuery } from './queries.ts'
export const leagueLadderRows = (db: Database, query: q.LadderQuery) => q.ladderPage(db, query)
export const addLeagueMember = (db: Database, leagueId: number, userId: number) =>
  q.addMember(db, leagueId, userId)
export const lockLeagueRow = (db: Database, leagueId: number) => q.lockLeague(db, leagueId)
export const firstOpenRoundOf = (db: Database, competitionId: number) =>
  q.firstOpenRound(db, competitionId)
export const roundCountOf = (db: Database, competitionId: number) => q.roundCount(db, competitionId)
