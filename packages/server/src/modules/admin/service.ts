import {
  ADMIN_PAGE_SIZE,
  type AdminAuditResponse,
  type AdminCompetition,
  type AdminEmail,
  type AdminEmailsResponse,
  type AdminLeaguesResponse,
  type AdminMatch,
  type AdminRound,
  type AdminUser,
  type AdminUsersResponse,
  type CompetitionRoundsResponse,
  type CompetitionSettingsBody,
  type CreateCompetitionBody,
  type CricsheetImportResponse,
  type EmailStatus,
  type ImportFixtureResponse,
  type UpdateMatchBody,
  type UpdateRolesBody,
  createCompetitionBodySchema,
} from '@tipping/contract/admin'
import type { Role, Sport } from '@tipping/contract/constants'
import { summariseCricsheet, type CricsheetMatch } from '@tipping/contract/cricsheet'
import type { Lifecycle } from '@tipping/contract/predictions'
import { oversFromBalls } from '@tipping/contract/rules/cricket'
import type { SeasonFile } from '@tipping/contract/season-file'
import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import { AppError, notFound } from '../../errors.ts'
import { recordAudit } from '../audit/queries.ts'
import { insertUser } from '../auth/queries.ts'
import { enterCurrentCompetitions } from '../auth/service.ts'
import { deleteLeague } from '../leagues/queries.ts'
import { effectiveStatus } from '@tipping/contract/rules/status'
import type { Publisher } from '../publisher/service.ts'
import { rescoreInTransaction } from '../scoring/service.ts'
import {
  competitionIdentifier,
  importCricsheetInTransaction,
  importSeasonInTransaction,
  settleMarginGames,
  startedRoundMessage,
} from '../seasons/service.ts'
import * as q from './queries.ts'

const iso = (d: Date) => d.toISOString()
const offsetOf = (page: number) => (page - 1) * ADMIN_PAGE_SIZE
/** Reads one row more than a page, so the answer knows whether there is a next one. */
function paged<T>(rows: T[], page: number): { rows: T[]; nextPage: number | null } {
  return rows.length > ADMIN_PAGE_SIZE
    ? { rows: rows.slice(0, ADMIN_PAGE_SIZE), nextPage: page + 1 }
    : { rows, nextPage: null }
}

const toCompetition = (c: q.CompetitionRow): AdminCompetition => ({
  id: c.id,
  sport: c.sport as Sport,
  identifier: c.identifier,
  season: c.season,
  name: c.name,
  year: c.year,
  isCurrent: c.is_current,
  goldenWeekRound: c.golden_week_round,
  ladderPoints: c.ladder_points,
  rounds: c.rounds,
  matches: c.matches,
  completedMatches: c.completed_matches,
})

const toUser = (u: q.AdminUserRow): AdminUser => ({
  id: u.id,
  email: u.email,
  firstName: u.first_name,
  lastName: u.last_name,
  teamName: u.team_name,
  roles: u.roles.filter((r): r is Role =>
    ['ROLE_USER_BBL', 'ROLE_USER_WBBL', 'ROLE_ADMIN'].includes(r),
  ),
  registeredAt: iso(u.registered_at),
  deactivatedAt: u.deactivated_at ? iso(u.deactivated_at) : null,
  sso: u.external_id !== null,
})

/**
 * A password reset link is a key to the account until it is used or expires: the console shows the
 * email without it, so reading the outbox never lets an admin take over someone's account.
 */
const hideResetTokens = (text: string): string =>
  text.replace(/([?&]token=)[^\s&#]+/g, '$1(hidden)')

const toEmail = (e: q.EmailRow): AdminEmail => ({
  id: e.id,
  kind: e.kind,
  to: e.to_address,
  subject: e.subject,
  text: hideResetTokens(e.text_body),
  status: (e.sent_at ? 'sent' : e.failed_at ? 'failed' : 'pending') satisfies EmailStatus,
  attempts: e.attempts,
  createdAt: iso(e.created_at),
  sentAt: e.sent_at ? iso(e.sent_at) : null,
  failedAt: e.failed_at ? iso(e.failed_at) : null,
  nextAttemptAt: e.sent_at || e.failed_at ? null : iso(e.next_attempt_at),
  error: e.error,
})

/** A scheduled match whose start has passed is active, whether or not the scheduler has run. */
const matchStatus = (m: { status: Lifecycle; starts_at: Date }, now: Date): Lifecycle =>
  effectiveStatus(m.status, m.starts_at, now)

function toMatch(m: q.AdminMatchRow, now: Date, roundStarted: boolean): AdminMatch {
  const status = matchStatus(m, now)
  const innings = (runs: number | null, wickets: number | null, balls: number | null) =>
    runs === null && wickets === null && balls === null
      ? null
      : { runs, wickets, overs: balls === null ? null : oversFromBalls(balls) }
  return {
    id: m.id,
    number: m.number,
    roundId: m.round_id,
    startsAt: iso(m.starts_at),
    status,
    venueId: m.venue_id,
    homeSquadId: m.home_squad_id,
    awaySquadId: m.away_squad_id,
    isMarginGame: m.is_margin_game,
    stage: m.stage,
    result:
      m.outcome === null
        ? null
        : {
            outcome: m.outcome,
            winnerSquadId: m.winner_squad_id,
            home: innings(m.home_runs, m.home_wickets, m.home_balls),
            away: innings(m.away_runs, m.away_wickets, m.away_balls),
            sixes: m.sixes,
            method: m.method,
          },
    editable: {
      startsAt: status === 'scheduled',
      venue: status !== 'complete',
      marginGame: !roundStarted && !m.is_margin_game,
    },
  }
}

export interface AdminServiceOptions {
  clock: Clock
  publisher: Publisher
  sponsorPrefix: string
  /** Called after a user's roles or sessions change, so cached sessions are read again. */
  onUserChanged?: (userId: number) => void
  /** Called after a competition's settings (which one is current, Golden Week) change. */
  onCompetitionChanged?: () => void
}

/**
 * The admin console: runs a season without touching the database. Every change and its audit row
 * commit in one transaction; anything the public site shows is republished after it.
 */
export class AdminService {
  private readonly clock: Clock
  private readonly publisher: Publisher
  private readonly sponsorPrefix: string
  private readonly onUserChanged: (userId: number) => void
  private readonly onCompetitionChanged: () => void

  constructor(
    private readonly db: Database,
    opts: AdminServiceOptions,
  ) {
    this.clock = opts.clock
    this.publisher = opts.publisher
    this.sponsorPrefix = opts.sponsorPrefix
    this.onUserChanged = opts.onUserChanged ?? (() => {})
    this.onCompetitionChanged = opts.onCompetitionChanged ?? (() => {})
  }

  private async publish(): Promise<void> {
    await this.publisher.publishAll()
  }

  // Competitions ----------------------------------------------------------------------------

  async competitions(): Promise<AdminCompetition[]> {
    return (await q.competitions(this.db)).map(toCompetition)
  }

  async competition(id: number, db: Database = this.db): Promise<AdminCompetition> {
    const [row] = await q.competitions(db, id)
    if (!row) throw notFound('Competition', 'id')
    return toCompetition(row)
  }

  async createCompetition(actor: number, input: CreateCompetitionBody): Promise<AdminCompetition> {
    const body = createCompetitionBodySchema.parse(input)
    const id = await this.db.transaction().execute(async (trx) => {
      const identifier = competitionIdentifier(this.sponsorPrefix, body.sport, body.season)
      if (await q.competitionIdBySportSeason(trx, body.sport, body.season))
        throw new AppError(
          'CONFLICT',
          `${body.sport.toUpperCase()} season ${body.season} already exists`,
          'season',
        )
      const row = await q.insertCompetition(trx, { ...body, identifier })
      if (!row) throw new AppError('CONFLICT', `${identifier} already exists`, 'season')
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'competition.create',
        entity: 'competition',
        entityId: row.id,
        data: { ...body, identifier },
      })
      return row.id
    })
    return this.competition(id)
  }

  /** Loads or updates a fixture (season file); the imported season becomes its sport's current. */
  async importFixture(actor: number, file: SeasonFile): Promise<ImportFixtureResponse> {
    const result = await this.db.transaction().execute(async (trx) => {
      const existing = await q.competitionIdBySportSeason(trx, file.sport, file.season)
      const before = new Map(
        existing ? (await q.fixtureSnapshot(trx, existing.id)).map((m) => [m.number, m]) : [],
      )
      for (const round of file.rounds)
        for (const m of round.matches) {
          const old = before.get(m.number)
          if (old && old.status !== 'scheduled' && Date.parse(m.startsAt) !== +old.starts_at)
            throw new AppError(
              'CONFLICT',
              `Match ${m.number} has started: its start time cannot change`,
              `rounds.${file.rounds.indexOf(round)}.matches.${round.matches.indexOf(m)}.startsAt`,
            )
        }
      // A started round keeps its margin game (the clock, as for the matches' start times).
      const id = await importSeasonInTransaction(trx, file, {
        sponsorPrefix: this.sponsorPrefix,
        now: this.clock.now(),
      })
      let added = 0
      let changed = 0
      for (const m of await q.fixtureSnapshot(trx, id)) {
        const old = before.get(m.number)
        if (!old) added++
        else if (
          +old.starts_at !== +m.starts_at ||
          old.venue_id !== m.venue_id ||
          old.home_squad_id !== m.home_squad_id ||
          old.away_squad_id !== m.away_squad_id ||
          old.is_margin_game !== m.is_margin_game
        )
          changed++
      }
      // A new Golden Week or new margin games change what earlier tips scored.
      await rescoreInTransaction(trx, id)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'competition.import',
        entity: 'competition',
        entityId: id,
        data: {
          sport: file.sport,
          season: file.season,
          name: file.name,
          rounds: file.rounds.length,
          added,
          changed,
        },
      })
      return { id, added, changed }
    })
    await this.publish()
    return {
      competition: await this.competition(result.id),
      added: result.added,
      changed: result.changed,
    }
  }

  async updateCompetition(
    actor: number,
    id: number,
    body: CompetitionSettingsBody,
  ): Promise<AdminCompetition> {
    await this.db.transaction().execute(async (trx) => {
      const c = await q.lockCompetition(trx, id)
      if (!c) throw notFound('Competition', 'id')
      const set: { golden_week_round?: number | null; ladder_points?: string } = {}
      let rescore = false
      if (body.goldenWeekRound !== undefined && body.goldenWeekRound !== c.golden_week_round) {
        const now = this.clock.now()
        for (const number of [c.golden_week_round, body.goldenWeekRound]) {
          if (number === null) continue
          const round = await q.roundByNumber(trx, id, number)
          if (!round && number === body.goldenWeekRound)
            throw new AppError('VALIDATION', `There is no round ${number}`, 'goldenWeekRound')
          if (round && (await q.roundHasStarted(trx, round.id, now)))
            throw new AppError(
              'CONFLICT',
              `Round ${number} has started: Golden Week can only move between rounds not yet played`,
              'goldenWeekRound',
            )
        }
        set.golden_week_round = body.goldenWeekRound
        rescore = true
      }
      if (body.ladderPoints) set.ladder_points = JSON.stringify(body.ladderPoints)
      if (Object.keys(set).length > 0) await q.updateCompetition(trx, id, set)
      if (body.isCurrent) await q.makeOnlyCurrent(trx, c.sport, id)
      if (rescore) await rescoreInTransaction(trx, id)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'competition.settings',
        entity: 'competition',
        entityId: id,
        data: {
          before: {
            goldenWeekRound: c.golden_week_round,
            ladderPoints: c.ladder_points,
            isCurrent: c.is_current,
          },
          after: body,
        },
      })
    })
    this.onCompetitionChanged()
    await this.publish()
    return this.competition(id)
  }

  async rescore(actor: number, id: number): Promise<{ rounds: number; tippers: number }> {
    const result = await this.db.transaction().execute(async (trx) => {
      const c = await q.lockCompetition(trx, id)
      if (!c) throw notFound('Competition', 'id')
      await rescoreInTransaction(trx, id)
      const result = {
        rounds: (await q.rounds(trx, id)).length,
        tippers: await q.tipperCount(trx, id),
      }
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'competition.rescore',
        entity: 'competition',
        entityId: id,
        data: result,
      })
      return result
    })
    await this.publish()
    return result
  }

  async republish(actor: number): Promise<{ files: number }> {
    const files = Object.keys(await this.publisher.publishAll()).length
    await this.db.transaction().execute((trx) =>
      recordAudit(trx, {
        actorUserId: actor,
        action: 'static.publish',
        entity: 'static',
        entityId: null,
        data: { files },
      }),
    )
    return { files }
  }

  async importCricsheet(
    actor: number,
    id: number,
    files: CricsheetMatch[],
  ): Promise<CricsheetImportResponse> {
    const summaries = files.map((f, i) => {
      try {
        return summariseCricsheet(f)
      } catch (err) {
        throw new AppError(
          'VALIDATION',
          `File ${i + 1}: ${err instanceof Error ? err.message : 'not a Cricsheet match'}`,
          `files.${i}`,
        )
      }
    })
    const result = await this.db.transaction().execute(async (trx) => {
      const c = await q.lockCompetition(trx, id)
      if (!c) throw notFound('Competition', 'id')
      const r = await importCricsheetInTransaction(trx, id, summaries, this.clock.now())
      const applied = await q.matchNumbers(trx, r.applied)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'results.cricsheet',
        entity: 'competition',
        entityId: id,
        data: { applied: applied.map((a) => a.number), unmatched: r.unmatched },
      })
      return {
        applied: applied.map((a) => ({ matchId: a.id, number: a.number, round: a.round })),
        unmatched: r.unmatched,
      }
    })
    await this.publish()
    return result
  }

  // Rounds and matches ----------------------------------------------------------------------

  async rounds(id: number): Promise<CompetitionRoundsResponse> {
    const competition = await this.competition(id)
    const now = this.clock.now()
    const [rounds, matches, squads, venues] = await Promise.all([
      q.rounds(this.db, id),
      q.matches(this.db, id),
      q.competitionSquads(this.db, competition.sport),
      q.allVenues(this.db),
    ])
    const byRound = new Map<number, q.AdminMatchRow[]>()
    for (const m of matches) byRound.set(m.round_id, [...(byRound.get(m.round_id) ?? []), m])
    const out: AdminRound[] = rounds.map((r) => {
      const list = byRound.get(r.id) ?? []
      const started = list.some((m) => matchStatus(m, now) !== 'scheduled')
      return {
        id: r.id,
        number: r.number,
        label: r.label,
        status: r.status === 'scheduled' && started ? 'active' : r.status,
        isGoldenWeek: competition.goldenWeekRound === r.number,
        matches: list.map((m) => toMatch(m, now, started)),
      }
    })
    return {
      competition,
      rounds: out,
      squads: squads.map((s) => ({ id: s.id, name: s.name, shortName: s.short_name })),
      venues,
    }
  }

  async updateRound(actor: number, id: number, label: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const round = await q.lockRound(trx, id)
      if (!round) throw notFound('Round', 'id')
      await q.updateRoundLabel(trx, id, label)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'round.update',
        entity: 'round',
        entityId: id,
        data: { before: { label: round.label }, after: { label } },
      })
    })
    await this.publish()
  }

  async roundOf(id: number): Promise<AdminRound> {
    const round = await q.lockRound(this.db, id)
    if (!round) throw notFound('Round', 'id')
    const all = await this.rounds(round.competition_id)
    return all.rounds.find((r) => r.id === id)!
  }

  async updateMatch(actor: number, id: number, body: UpdateMatchBody): Promise<AdminMatch> {
    const now = this.clock.now()
    await this.db.transaction().execute(async (trx) => {
      const m = await q.lockMatch(trx, id)
      if (!m) throw notFound('Match', 'id')
      const status = matchStatus(m, now)
      const set: { starts_at?: Date; venue_id?: number } = {}
      const before: Record<string, unknown> = {}
      if (body.startsAt !== undefined) {
        if (status !== 'scheduled')
          throw new AppError(
            'CONFLICT',
            status === 'complete'
              ? 'This match is complete: its start time cannot change'
              : 'This match has started: its start time cannot change',
            'startsAt',
          )
        const startsAt = new Date(body.startsAt)
        if (startsAt.getTime() <= now.getTime())
          throw new AppError('VALIDATION', 'The new start must be in the future', 'startsAt')
        set.starts_at = startsAt
        before.startsAt = iso(m.starts_at)
      }
      if (body.venueId !== undefined) {
        if (status === 'complete')
          throw new AppError('CONFLICT', 'This match is complete: its venue is history', 'venueId')
        if (!(await q.venueExists(trx, body.venueId)))
          throw new AppError('VALIDATION', 'No such venue', 'venueId')
        set.venue_id = body.venueId
        before.venueId = m.venue_id
      }
      if (Object.keys(set).length > 0) await q.updateMatch(trx, id, set)
      // GAME_RULES.md: one margin game per round, the marked match, else the round's last.
      if (body.isMarginGame === false && !m.margin_game_flagged)
        throw new AppError(
          'VALIDATION',
          m.is_margin_game
            ? `Match ${m.number} is the margin game as its round's last match: mark another match to take it over`
            : `Match ${m.number} is not the margin game`,
          'isMarginGame',
        )
      if (body.isMarginGame !== undefined && body.isMarginGame !== m.margin_game_flagged) {
        // Marking the margin game already in effect moves nothing: it only stays put from now on.
        const moves = !body.isMarginGame || !m.is_margin_game
        if (moves && (await q.roundHasStarted(trx, m.round_id, now)))
          throw new AppError(
            'CONFLICT',
            body.isMarginGame
              ? 'The round has started: its margin game cannot move'
              : 'The round has started: its margin game cannot lose its mark',
            'isMarginGame',
          )
        before.marginGameMarked = m.margin_game_flagged
        await q.markMarginGame(trx, m.round_id, id, body.isMarginGame)
      }
      // A new start time can make another match the round's last, so its margin game.
      const moved = await settleMarginGames(trx, m.competition_id, {
        now,
        refuse: (c) =>
          new AppError(
            'CONFLICT',
            startedRoundMessage(c),
            body.isMarginGame !== undefined ? 'isMarginGame' : 'startsAt',
          ),
      })
      if (moved.length > 0)
        before.marginGame = moved.flatMap((c) => (c.from === null ? [] : [c.from]))
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'match.update',
        entity: 'match',
        entityId: id,
        data: { number: m.number, before, after: body },
      })
    })
    await this.publish()
    const m = await q.matchById(this.db, id)
    return toMatch(m!, now, await q.roundHasStarted(this.db, m!.round_id, now))
  }

  // Users -----------------------------------------------------------------------------------

  async users(search: string | undefined, page: number): Promise<AdminUsersResponse> {
    const rows = await q.users(this.db, search || undefined, offsetOf(page), ADMIN_PAGE_SIZE + 1)
    const { rows: list, nextPage } = paged(rows, page)
    return { users: list.map(toUser), nextPage }
  }

  async setRoles(actor: number, id: number, body: UpdateRolesBody): Promise<AdminUser> {
    const user = await this.db.transaction().execute(async (trx) => {
      const u = await q.lockUser(trx, id)
      if (!u) throw notFound('User', 'id')
      if (id === actor && !body.roles.includes('ROLE_ADMIN'))
        throw new AppError('CONFLICT', 'You cannot take away your own admin role', 'roles')
      // Roles this console does not manage stay as they were.
      const others = u.roles.filter(
        (r) => !['ROLE_USER_BBL', 'ROLE_USER_WBBL', 'ROLE_ADMIN'].includes(r),
      )
      const roles = [...others, ...body.roles]
      await q.setRoles(trx, id, roles)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'user.roles',
        entity: 'user',
        entityId: id,
        data: { email: u.email, before: u.roles, after: roles },
      })
      return toUser({ ...u, roles })
    })
    this.onUserChanged(id)
    return user
  }

  /** Deactivates an account and ends every session it has; reactivating lets it sign in again. */
  async setActive(actor: number, id: number, active: boolean): Promise<AdminUser> {
    const now = this.clock.now()
    const user = await this.db.transaction().execute(async (trx) => {
      const u = await q.lockUser(trx, id)
      if (!u) throw notFound('User', 'id')
      if (!active && id === actor)
        throw new AppError('CONFLICT', 'You cannot deactivate your own account', 'id')
      const deactivatedAt = active ? null : (u.deactivated_at ?? now)
      await q.setDeactivated(trx, id, deactivatedAt)
      const revoked = active ? 0n : await q.revokeSessions(trx, id, now)
      await recordAudit(trx, {
        actorUserId: actor,
        action: active ? 'user.reactivate' : 'user.deactivate',
        entity: 'user',
        entityId: id,
        data: { email: u.email, sessionsRevoked: Number(revoked) },
      })
      return toUser({ ...u, deactivated_at: deactivatedAt })
    })
    this.onUserChanged(id)
    return user
  }

  // Leagues ---------------------------------------------------------------------------------

  async leagues(
    filter: { search?: string | undefined; sport?: Sport | undefined },
    page: number,
  ): Promise<AdminLeaguesResponse> {
    const rows = await q.leagues(this.db, filter, offsetOf(page), ADMIN_PAGE_SIZE + 1)
    const { rows: list, nextPage } = paged(rows, page)
    return {
      leagues: list.map((l) => ({
        id: l.id,
        sport: l.sport as Sport,
        competition: l.competition,
        name: l.name,
        code: l.code,
        privacy: l.privacy,
        startRound: l.start_round,
        numUsers: l.num_users,
        commissioner: { id: l.owner_id, email: l.owner_email, name: l.owner_name },
        createdAt: iso(l.created_at),
      })),
      nextPage,
    }
  }

  /** Removes a league (its memberships go with it); scores are per tipper and stay. */
  async removeLeague(actor: number, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const l = await q.lockLeague(trx, id)
      if (!l) throw notFound('League', 'id')
      await deleteLeague(trx, id)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'league.remove',
        entity: 'league',
        entityId: id,
        data: { name: l.name, code: l.code, commissionerId: l.user_id, members: l.num_users },
      })
    })
  }

  // Email outbox ----------------------------------------------------------------------------

  async emails(status: EmailStatus | 'all', page: number): Promise<AdminEmailsResponse> {
    const rows = await q.emails(this.db, status, offsetOf(page), ADMIN_PAGE_SIZE + 1)
    const { rows: list, nextPage } = paged(rows, page)
    return { emails: list.map(toEmail), nextPage }
  }

  /** Puts a failed email back in the queue with a fresh set of attempts. */
  async retryEmail(actor: number, id: string): Promise<AdminEmail> {
    const now = this.clock.now()
    return this.db.transaction().execute(async (trx) => {
      const e = await q.lockEmail(trx, id)
      if (!e) throw notFound('Email', 'id')
      if (!e.failed_at)
        throw new AppError(
          'CONFLICT',
          e.sent_at ? 'This email was sent' : 'This email is still queued',
          'id',
        )
      await q.requeueEmail(trx, id, now)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'email.retry',
        entity: 'email',
        entityId: id,
        data: { to: e.to_address, subject: e.subject, error: e.error, attempts: e.attempts },
      })
      return toEmail({ ...e, failed_at: null, attempts: 0, next_attempt_at: now })
    })
  }

  // Audit log -------------------------------------------------------------------------------

  async audit(
    filter: { actor?: string | undefined; kind?: string | undefined },
    page: number,
  ): Promise<AdminAuditResponse> {
    const actor = filter.actor || undefined
    const f =
      actor === undefined
        ? {}
        : /^\d+$/.test(actor)
          ? { actorId: Number(actor) }
          : { actorEmail: actor }
    const rows = await q.auditEntries(
      this.db,
      { ...f, kind: filter.kind },
      offsetOf(page),
      ADMIN_PAGE_SIZE + 1,
    )
    const { rows: list, nextPage } = paged(rows, page)
    return {
      entries: list.map((a) => ({
        id: a.id,
        at: iso(a.created_at),
        actor:
          a.actor_user_id === null
            ? null
            : { id: a.actor_user_id, email: a.actor_email ?? '(deleted user)' },
        action: a.action,
        entity: a.entity,
        entityId: a.entity_id,
        data: a.data,
      })),
      nextPage,
    }
  }
}

export interface GrantAdminInput {
  email: string
  /** Used only when the account has to be created. */
  passwordHash: () => Promise<string>
  now: Date
  firstName?: string
  lastName?: string
}

/**
 * Makes an account an admin (the admin:create command and the demo seed): adds ROLE_ADMIN to an
 * existing user, or creates one (also registered for both current competitions, so the admin can
 * see the game as tippers do). Idempotent; audited with no actor (it runs outside the console).
 */
export async function grantAdmin(
  db: Database,
  input: GrantAdminInput,
): Promise<{ userId: number; created: boolean; changed: boolean }> {
  const existing = await q.userByEmail(db, input.email)
  if (existing?.roles.includes('ROLE_ADMIN'))
    return { userId: existing.id, created: false, changed: false }
  const passwordHash = existing ? null : await input.passwordHash()
  return db.transaction().execute(async (trx) => {
    const user = await q.userByEmail(trx, input.email)
    if (user) {
      if (user.roles.includes('ROLE_ADMIN'))
        return { userId: user.id, created: false, changed: false }
      const roles = [...user.roles, 'ROLE_ADMIN']
      await q.setRoles(trx, user.id, roles)
      await recordAudit(trx, {
        actorUserId: null,
        action: 'user.roles',
        entity: 'user',
        entityId: user.id,
        data: { email: input.email, before: user.roles, after: roles, by: 'admin:create' },
      })
      return { userId: user.id, created: false, changed: true }
    }
    const inserted = await insertUser(trx, {
      email: input.email,
      passwordHash,
      firstName: input.firstName ?? 'Site',
      lastName: input.lastName ?? 'Admin',
      teamName: null,
      roles: ['ROLE_USER_BBL', 'ROLE_USER_WBBL', 'ROLE_ADMIN'],
      registeredAt: input.now,
    })
    if (!inserted)
      throw new AppError('CONFLICT', 'The account appeared meanwhile; run again', 'email')
    await enterCurrentCompetitions(trx, inserted.id, ['bbl', 'wbbl'], input.now)
    await recordAudit(trx, {
      actorUserId: null,
      action: 'user.create',
      entity: 'user',
      entityId: inserted.id,
      data: { email: input.email, roles: inserted.roles, by: 'admin:create' },
    })
    return { userId: inserted.id, created: true, changed: true }
  })
}
