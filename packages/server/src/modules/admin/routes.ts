import type { App } from '../../http/types.ts'
import { auditLogRoutes } from './audit-log/routes.ts'
import { competitionsRoutes } from './competitions/routes.ts'
import { emailsRoutes } from './emails/routes.ts'
import { leaguesRoutes } from './leagues/routes.ts'
import { matchesRoutes } from './matches/routes.ts'
import type { AdminService } from './service.ts'
import { usersRoutes } from './users/routes.ts'

/** The admin console's API, one area per folder: every route is ROLE_ADMIN only, every change audited. */
export function adminRoutes(app: App, deps: { admin: AdminService }): void {
  const { admin } = deps
  competitionsRoutes(app, { service: admin.competitions })
  matchesRoutes(app, { service: admin.matches })
  usersRoutes(app, { service: admin.users })
  leaguesRoutes(app, { service: admin.leagues })
  emailsRoutes(app, { service: admin.emails })
  auditLogRoutes(app, { service: admin.audit })
}
