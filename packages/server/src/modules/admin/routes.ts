import type { SessionGate } from '../../http/session.ts'
import type { App } from '../../http/types.ts'
import { auditLogRoutes } from './audit-log/routes.ts'
import { competitionsRoutes } from './competitions/routes.ts'
import { emailsRoutes } from './emails/routes.ts'
import { leaguesRoutes } from './leagues/routes.ts'
import { matchesRoutes } from './matches/routes.ts'
import type { AdminService } from './service.ts'
import { usersRoutes } from './users/routes.ts'

/** The admin console's API, one area per folder: every route is ROLE_ADMIN only, every change audited. */
export function adminRoutes(app: App, deps: { admin: AdminService; gate: SessionGate }): void {
  const { admin, gate } = deps
  competitionsRoutes(app, { service: admin.competitions, gate })
  matchesRoutes(app, { service: admin.matches, gate })
  usersRoutes(app, { service: admin.users, gate })
  leaguesRoutes(app, { service: admin.leagues, gate })
  emailsRoutes(app, { service: admin.emails, gate })
  auditLogRoutes(app, { service: admin.audit, gate })
}
