import { ADMIN_PAGE_SIZE, type AdminLeaguesResponse } from '@tipping/contract/admin'
import { asRoundNumber } from '@tipping/contract/ids'
import type { Sport } from '@tipping/contract/constants'
import type { Database } from '../../../db/schema.ts'
import { notFound } from '../../../errors.ts'
import { recordAudit } from '../../audit/service.ts'
import { deleteLeagueRow } from '../../leagues/service.ts'
import { iso, offsetOf, paged } from '../paging.ts'
import * as q from './queries.ts'
import { inTransaction } from '../../../db/transaction.ts'

/** The console's leagues: every league, and removing one. */
export class LeaguesAdmin {
  constructor(private readonly db: Database) {}

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
        startRound: asRoundNumber(l.start_round),
        numUsers: l.num_users,
        commissioner: { id: l.owner_id, email: l.owner_email, name: l.owner_name },
        createdAt: iso(l.created_at),
      })),
      nextPage,
    }
  }

  /** Removes a league (its memberships go with it); scores are per tipper and stay. */
  async removeLeague(actor: number, id: number): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      const l = await q.lockLeague(trx, id)
      if (!l) throw notFound('League', 'id')
      await deleteLeagueRow(trx, id)
      await recordAudit(trx, {
        actorUserId: actor,
        action: 'league.remove',
        entity: 'league',
        entityId: id,
        data: { name: l.name, code: l.code, commissionerId: l.user_id, members: l.num_users },
      })
    })
  }
}
