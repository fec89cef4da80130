import type { Clock } from '../../clock.ts'
import type { Database } from '../../db/schema.ts'
import type { Publisher } from '../publisher/service.ts'
import { AuditLogAdmin } from './audit-log/service.ts'
import { CompetitionsAdmin } from './competitions/service.ts'
import { EmailsAdmin } from './emails/service.ts'
import { LeaguesAdmin } from './leagues/service.ts'
import { MatchesAdmin } from './matches/service.ts'
import { UsersAdmin } from './users/service.ts'

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
 * The admin console: runs a season without touching the database, one area per folder. Every
 * change and its audit row commit in one transaction; anything the public site shows is
 * republished after it.
 */
export class AdminService {
  readonly competitions: CompetitionsAdmin
  readonly matches: MatchesAdmin
  readonly users: UsersAdmin
  readonly leagues: LeaguesAdmin
  readonly emails: EmailsAdmin
  readonly audit: AuditLogAdmin

  constructor(db: Database, opts: AdminServiceOptions) {
    const { clock, publisher } = opts
    this.competitions = new CompetitionsAdmin(db, {
      clock,
      publisher,
      sponsorPrefix: opts.sponsorPrefix,
      onCompetitionChanged: opts.onCompetitionChanged ?? (() => {}),
    })
    this.matches = new MatchesAdmin(db, { clock, publisher, competitions: this.competitions })
    this.users = new UsersAdmin(db, { clock, onUserChanged: opts.onUserChanged ?? (() => {}) })
    this.leagues = new LeaguesAdmin(db)
    this.emails = new EmailsAdmin(db, { clock })
    this.audit = new AuditLogAdmin(db)
  }
}
