import path from 'node:path'
import { SPORTS, roleForSport } from '@tipping/contract/constants'
import type { Database } from '../db/schema.ts'
import { applyResultsFile, readResultsFile } from '../modules/results/service.ts'
import { importSeason, readSeasonFile } from '../modules/seasons/service.ts'
import { hashPassword } from '../modules/auth/passwords.ts'
import { newLeagueCode } from '../modules/leagues/service.ts'
import { rescore } from '../modules/scoring/service.ts'
import { storeContent } from '../modules/content/service.ts'
import type { Advert } from '@tipping/contract/content'
import { grantAdmin } from '../modules/admin/users/service.ts'
import * as q from './queries.ts'
import { seedPastSeason } from './past-season.ts'
import { inTransaction } from '../db/transaction.ts'

export const DEMO_EMAIL = 'demo@tipping.example'
export const DEMO_PASSWORD = 'tip-the-bash'
/** The demo's admin, for the console at /admin (created only when absent). */
export const DEMO_ADMIN_EMAIL = 'admin@tipping.example'
export const DEMO_ADMIN_PASSWORD = 'run-the-bash'

/** Project-made advert images (scripts/data/build-adverts.mjs), one of each slot per sport. */
const demoAdverts = (sport: string): Advert[] => [
  {
    type: 'leaderboard',
    desktopImage: '/ads/demo-leaderboard-desktop.png',
    mobileImage: '/ads/demo-leaderboard-mobile.png',
    url: `/${sport}/help/prizes`,
    alt: 'Big Bash Tipping, free to play: top the rankings and win $10,000. See the prizes.',
  },
  {
    type: 'mrec',
    desktopImage: '/ads/demo-mrec-desktop.png',
    mobileImage: '/ads/demo-mrec-mobile.png',
    url: `/${sport}/help/game-rules`,
    alt: 'Golden Week: every tip counts double. Bank a Clean Sweep and climb the ladder. How it works.',
  },
]

const HOUR = 3_600_000
/** A T20 match lasts about three and a half hours; results appear once that has passed. */
const MATCH_LENGTH_MS = 4 * HOUR
/** The round the demo's "today" falls in (issue: today is in round 3 of each competition). */
export const DEMO_ROUND = 3

export interface DemoOptions {
  dataDir: string
  sponsorPrefix: string
  now: Date
  users: number
}

export interface DemoSummary {
  email: string
  password: string
  users: number
}

/** A small deterministic generator (mulberry32) so the simulated numbers are the same each seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Seeds a playable demo: both 2025-26 seasons shifted so that `now` falls in round 3 (the middle
 * match of round 3 started an hour ago), real results on every match already over, simulated
 * tippers with tips, and a demo account. Simulated values (tippers, their tips, sixes where the
 * data has none) are labelled as such in the database.
 */
export async function seedDemo(db: Database, opts: DemoOptions): Promise<DemoSummary> {
  const shifts = new Map<string, number>()
  for (const sport of SPORTS) {
    const season = await readSeasonFile(path.join(opts.dataDir, 'seasons', `${sport}-2025-26.json`))
    const round = season.rounds.find((r) => r.number === DEMO_ROUND) ?? season.rounds[0]!
    const ordered = [...round.matches].sort(
      (a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt),
    )
    const pivot = ordered[Math.floor((ordered.length - 1) / 2)]!
    // Whole five minutes, so shifted start times still read like real ones (19:15, not 19:17:43).
    const shiftMs =
      Math.round((opts.now.getTime() - HOUR - Date.parse(pivot.startsAt)) / 300_000) * 300_000
    shifts.set(sport, shiftMs)
    await importSeason(db, season, { sponsorPrefix: opts.sponsorPrefix, shiftMs })
    const results = await readResultsFile(
      path.join(opts.dataDir, 'results', `${sport}-2025-26.json`),
    )
    const random = seededRandom(season.season)
    // Simulated: the 2025-26 data has no sixes counts, and the Super Sixes game needs one.
    await applyResultsFile({ db }, results, {
      now: opts.now,
      minAgeMs: MATCH_LENGTH_MS,
      simulateSixes: () => 6 + Math.floor(random() * 18),
    })
  }

  const passwordHash = await hashPassword(DEMO_PASSWORD)
  const demoId = await inTransaction(db, async (trx) => {
    const seasonStart = await q.earliestMatchStart(trx)
    const registeredAt = new Date(seasonStart.getTime() - 14 * 24 * HOUR)
    await q.insertSimulatedTippers(trx, opts.users, registeredAt, SPORTS.map(roleForSport))
    const demoId = await q.insertDemoAccount(trx, {
      email: DEMO_EMAIL,
      passwordHash,
      registeredAt,
      roles: SPORTS.map(roleForSport),
    })
    await q.registerEveryoneForCurrentCompetitions(trx, registeredAt)
    await q.insertSimulatedTips(trx, { now: opts.now, demoUserId: demoId, demoRound: DEMO_ROUND })
    await q.insertDemoLeagues(trx, demoId, newLeagueCode)
    await storeContent(trx, 'adverts', { bbl: demoAdverts('bbl'), wbbl: demoAdverts('wbbl') })
    return demoId
  })
  for (const competitionId of await q.currentCompetitionIds(db)) await rescore(db, competitionId)
  // Issue 31: a BBL season before this one, for the season archive and league history.
  await seedPastSeason(db, { ...opts, shiftMs: shifts.get('bbl') ?? 0, demoUserId: demoId })
  await grantAdmin(db, {
    email: DEMO_ADMIN_EMAIL,
    passwordHash: () => hashPassword(DEMO_ADMIN_PASSWORD),
    now: opts.now,
    firstName: 'Demo',
    lastName: 'Admin',
  })
  return { email: DEMO_EMAIL, password: DEMO_PASSWORD, users: opts.users }
}
