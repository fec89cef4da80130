import type { AdminUser, AdminUsersResponse, UpdateRolesBody } from '@tipping/contract/admin'
import { ADMIN_PAGE_SIZE } from '@tipping/contract/admin'
import type { Role } from '@tipping/contract/constants'
import type { Clock } from '../../../clock.ts'
import type { Database } from '../../../db/schema.ts'
import { AppError, notFound } from '../../../errors.ts'
import { recordAudit } from '../../audit/service.ts'
import { insertAccount } from '../../auth/service.ts'
import { enterCurrentCompetitions } from '../../auth/service.ts'
import { inPlacementTurn } from '../../scoring/service.ts'
import { iso, offsetOf, paged } from '../paging.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../../db/transaction.ts'

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

/** The console's users: search, roles, deactivation. A changed user's cached sessions are dropped. */
export class UsersAdmin {
  constructor(
    private readonly db: Database,
    private readonly opts: { clock: Clock; onUserChanged: (userId: number) => void },
  ) {}

  async users(search: string | undefined, page: number): Promise<AdminUsersResponse> {
    const rows = await q.users(this.db, search || undefined, offsetOf(page), ADMIN_PAGE_SIZE + 1)
    const { rows: list, nextPage } = paged(rows, page)
    return { users: list.map(toUser), nextPage }
  }

  async setRoles(actor: number, id: number, body: UpdateRolesBody): Promise<AdminUser> {
    const user = await inTransaction(this.db, async (trx) => {
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
    this.opts.onUserChanged(id)
    return user
  }

  /** Deactivates an account and ends every session it has; reactivating lets it sign in again. */
  async setActive(actor: number, id: number, active: boolean): Promise<AdminUser> {
    const now = this.opts.clock.now()
    const user = await inTransaction(this.db, async (trx) => {
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
    this.opts.onUserChanged(id)
    return user
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
  return inPlacementTurn(db, async (trx) => {
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
    const inserted = await insertAccount(trx, {
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
