import path from 'node:path'
import type { Database } from '../db/schema.ts'
import { newLeagueCode } from '../modules/leagues/service.ts'
import { applyResultsFile, readResultsFile } from '../modules/results/service.ts'
import { rescore } from '../modules/scoring/service.ts'
import { importSeason, makeCompetitionCurrent, readSeasonFile } from '../modules/seasons/service.ts'
import * as q from './queries.ts'
import { previousSeasonOf } from './previous-season.ts'
import { inTransaction } from '../db/transaction.ts'

/**
 * The demo's BBL season before this one (issue 31: the season archive and league history have
 * something to show). Made from the real 2025-26 files a year earlier (previousSeasonOf) and
 * imported as any fixture is, with every result; the demo's tippers tipped it and the demo
 * account ran a league in it, which this season's "The Demo Desk" renews. Importing a fixture
 * makes it current, so the season it precedes is made current again at the end, as an admin
 * switching seasons does.
 */
export async function seedPastSeason(
  db: Database,
  opts: { dataDir: string; sponsorPrefix: string; now: Date; shiftMs: number; demoUserId: number },
): Promise<void> {
  const sport = 'bbl'
  const current = await db
    .selectFrom('competitions')
    .select('id')
    .where('sport', '=', sport)
    .where('is_current', '=', true)
    .executeTakeFirstOrThrow()
  const past = previousSeasonOf(
    await readSeasonFile(path.join(opts.dataDir, 'seasons', `${sport}-2025-26.json`)),
    await readResultsFile(path.join(opts.dataDir, 'results', `${sport}-2025-26.json`)),
  )
  const pastId = await importSeason(db, past.season, {
    sponsorPrefix: opts.sponsorPrefix,
    shiftMs: opts.shiftMs,
  })
  await applyResultsFile({ db }, past.results, {
    now: opts.now,
    simulateSixes: (n) => 6 + (n % 18),
  })
  const start = await db
    .selectFrom('matches')
    .select((eb) => eb.fn.min('starts_at').as('first'))
    .where('competition_id', '=', pastId)
    .executeTakeFirstOrThrow()
  await inTransaction(db, async (trx) => {
    const leagueId = await q.insertPastSeasonPlay(trx, {
      competitionId: pastId,
      registeredAt: new Date(new Date(start.first).getTime() - 14 * 86_400_000),
      demoUserId: opts.demoUserId,
      code: newLeagueCode(),
    })
    await trx
      .updateTable('leagues')
      .set({ renewed_from: leagueId })
      .where('competition_id', '=', current.id)
      .where('user_id', '=', opts.demoUserId)
      .where('name', '=', 'The Demo Desk')
      .execute()
    await makeCompetitionCurrent(trx, sport, current.id)
  })
  await rescore(db, pastId)
}
