import { createHash, randomBytes } from 'node:crypto'
import path from 'node:path'
import { sql } from 'kysely'
import { roleForSport, SPORTS, type Sport } from '@tipping/contract/constants'
import { REPO_ROOT } from '../../packages/server/src/config.ts'
import type { Database } from '../../packages/server/src/db/schema.ts'
import {
  applyResultsFile,
  readResultsFile,
} from '../../packages/server/src/modules/results/service.ts'
import { importSeason, readSeasonFile } from '../../packages/server/src/modules/seasons/service.ts'
import { rescore } from '../../packages/server/src/modules/scoring/service.ts'

// Set-based generation of a benchmark-sized game: every table is filled by a handful of
// INSERT ... SELECT over generate_series, never a loop per user in JavaScript.

const HOUR = 3_600_000
const DAY = 24 * HOUR
/** The round left open for the deadline rush; earlier rounds are complete with real results. */
export const OPEN_ROUND: Record<Sport, number> = { bbl: 5, wbbl: 4 }
export const BENCH_EMAIL_DOMAIN = 'bench.invalid'

export interface DatasetOptions {
  users: number
  /** Users who get a session (cookie) the load generator can use. */
  sessions: number
  /** Private leagues per competition (sizes 2 to 500). */
  leagues: number
  /** Members of the one big public league per competition. */
  publicLeagueSize: number
  now: Date
  log?: (line: string) => void
}

export interface SportInfo {
  sport: Sport
  competitionId: number
  openRound: number
  openRoundId: number
  /** The open round's matches, in start order. */
  openMatches: { id: number; home: number; away: number; isMarginGame: boolean; startsAt: string }[]
  /** The last complete round (results are re-set there by the result-in job). */
  lastCompleteRound: number
  publicLeagueId: number
  /** A private league of exactly 50 members. */
  fiftyLeagueId: number
}

export interface DatasetSummary {
  users: number
  sessionSalt: string
  /** Users with a session, in id order. */
  sessionUserIds: number[]
  adminUserId: number
  sports: SportInfo[]
  seconds: Record<string, number>
}

/** The session cookie of a bench user: the server stores only its SHA-256 (modules/auth). */
export const benchSessionId = (salt: string, userId: number): string => `b${salt}.${userId}`
export const hashSessionId = (id: string): Buffer => createHash('sha256').update(id).digest()

async function timed<T>(
  seconds: Record<string, number>,
  name: string,
  log: (l: string) => void,
  fn: () => Promise<T>,
): Promise<T> {
  const t0 = performance.now()
  const out = await fn()
  seconds[name] = Math.round((performance.now() - t0) / 10) / 100
  log(`  ${name}: ${seconds[name]} s`)
  return out
}

/**
 * Runs bulk generation in one transaction with foreign-key checks off (session_replication_role
 * = replica skips the per-row RI triggers; there are no other triggers). Every generated row
 * references rows generated before it, so nothing dangles; checked per row, the tips alone took
 * 13 times longer (63 s instead of 5 s for 1.5 million rows at 100,000 tippers).
 */
async function withoutForeignKeyChecks(db: Database, fn: (trx: Database) => Promise<void>) {
  await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL session_replication_role = replica`.execute(trx)
    await fn(trx)
  })
}

/** Fills an empty, migrated database. */
export async function generateDataset(db: Database, o: DatasetOptions): Promise<DatasetSummary> {
  const log = o.log ?? (() => {})
  const seconds: Record<string, number> = {}
  const dataDir = path.join(REPO_ROOT, 'data')

  // Fixtures: the real 2025-26 seasons, shifted so the last match of the round before the open
  // one started eight hours before `now` (so every earlier round is over and gets its real
  // results) and the open round's first match is still ahead (16 hours in the 2025-26 data). The
  // server then runs on its real clock (docs/decisions/003-demo-clock-shift.md).
  await timed(seconds, 'fixtures', log, async () => {
    for (const sport of SPORTS) {
      const season = await readSeasonFile(path.join(dataDir, 'seasons', `${sport}-2025-26.json`))
      const before = season.rounds.find((r) => r.number === OPEN_ROUND[sport] - 1)!
      const last = Math.max(...before.matches.map((m) => Date.parse(m.startsAt)))
      const open = season.rounds.find((r) => r.number === OPEN_ROUND[sport])!
      const first = Math.min(...open.matches.map((m) => Date.parse(m.startsAt)))
      if (first - last < 12 * HOUR) throw new Error(`${sport}: rounds too close for the bench`)
      const shiftMs = Math.round((o.now.getTime() - 8 * HOUR - last) / 300_000) * 300_000
      await importSeason(db, season, { sponsorPrefix: 'xyz', shiftMs })
      const results = await readResultsFile(path.join(dataDir, 'results', `${sport}-2025-26.json`))
      await applyResultsFile({ db }, results, {
        now: o.now,
        minAgeMs: 4 * HOUR,
        simulateSixes: (n) => 6 + ((n * 7919) % 18),
      })
    }
    // Matches past their start with no result (none in the data, but be sure) are locked.
    await sql`UPDATE matches SET status = 'active' WHERE status = 'scheduled' AND starts_at <= ${o.now}`.execute(
      db,
    )
  })

  const salt = randomBytes(9).toString('base64url')
  const registeredAt = new Date(o.now.getTime() - 120 * DAY)
  const roles = SPORTS.map(roleForSport)

  await timed(seconds, 'users', log, async () => {
    await sql`
      INSERT INTO users (email, first_name, last_name, team_name, roles, registered_at, team_supported)
      SELECT 'tipper' || n || '@' || ${BENCH_EMAIL_DOMAIN},
        (ARRAY['Alex','Sam','Jordan','Riley','Jess','Mia','Noah','Ava','Zoe','Kai','Priya','Mei'])[1 + (hashint4(n) & 65535) % 12],
        'Tipper' || n,
        'Team ' || n,
        ${roles}::text[],
        ${registeredAt}::timestamptz + (n % 86400 || ' seconds')::interval,
        0
      FROM generate_series(1, ${o.users}) AS n
    `.execute(db)
    await withoutForeignKeyChecks(db, async (trx) => {
      await sql`
        INSERT INTO competition_registrations (competition_id, user_id, registered_at)
        SELECT c.id, u.id, u.registered_at FROM competitions c CROSS JOIN users u
        WHERE c.is_current AND u.email LIKE ${'%@' + BENCH_EMAIL_DOMAIN}
      `.execute(trx)
    })
  })

  const admin = await sql<{ id: number }>`
    INSERT INTO users (email, first_name, last_name, team_name, roles, registered_at)
    VALUES (${'admin@' + BENCH_EMAIL_DOMAIN}, 'Bench', 'Admin', 'Bench Admins',
            ${[...roles, 'ROLE_ADMIN']}::text[], ${registeredAt})
    RETURNING id
  `.execute(db)
  const adminUserId = admin.rows[0]!.id

  await timed(seconds, 'tips', log, async () => {
    // Secondary indexes are dropped for the bulk insert and rebuilt after (much faster than
    // maintaining them row by row); their definitions are read back from the catalogue.
    const defs = await sql<{ name: string; def: string }>`
      SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
      WHERE i.tablename = 'tips' AND i.indexname NOT IN (
        SELECT conname FROM pg_constraint WHERE conrelid = 'tips'::regclass)
    `.execute(db)
    for (const d of defs.rows) await sql`DROP INDEX ${sql.id(d.name)}`.execute(db)
    // Every started match: 93 % of tippers tipped, skewed towards a per-match favourite (the
    // favourite and its pull come from a hash of the match id, 55 % to 85 % of the tips); the
    // others have the GAME_RULES.md auto-tip, derived and not stored (the effective_tips view),
    // as the app does. The open round: 40 % of tippers have already tipped each match. One
    // pass, each row's dice rolled once in the subquery.
    await sql`SELECT setseed(0.2026)`.execute(db)
    await withoutForeignKeyChecks(db, async (trx) => {
      await sql`
        INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip, created_at, updated_at)
        SELECT s.user_id, s.match_id, s.round_id,
          CASE WHEN s.y < 0.55 + ((hashint4(s.match_id) & 65535) % 31) / 100.0
               THEN CASE WHEN hashint4(s.match_id + 17) & 1 = 0 THEN s.home_squad_id ELSE s.away_squad_id END
               ELSE CASE WHEN hashint4(s.match_id + 17) & 1 = 0 THEN s.away_squad_id ELSE s.home_squad_id END
          END,
          CASE WHEN s.is_margin_game THEN 4 + floor(s.z * 22)::int END,
          false,
          least(s.starts_at - interval '1 day', ${o.now}::timestamptz - interval '1 hour'),
          least(s.starts_at - interval '1 day', ${o.now}::timestamptz - interval '1 hour')
        FROM (
          SELECT cr.user_id, m.id AS match_id, m.round_id, m.home_squad_id, m.away_squad_id,
            m.is_margin_game, m.starts_at,
            m.starts_at <= ${o.now}::timestamptz AS started,
            r.number = CASE c.sport WHEN 'bbl' THEN ${OPEN_ROUND.bbl}::int ELSE ${OPEN_ROUND.wbbl}::int END AS open,
            random() AS x, random() AS y, random() AS z
          FROM matches m
          JOIN rounds r ON r.id = m.round_id
          JOIN competitions c ON c.id = m.competition_id AND c.is_current
          JOIN competition_registrations cr ON cr.competition_id = c.id
        ) s
        WHERE (s.started AND s.x < 0.93) OR (s.open AND NOT s.started AND s.x < 0.4)
      `.execute(trx)
    })
    for (const d of defs.rows) await sql.raw(d.def).execute(db)
  })

  await timed(seconds, 'leagues', log, async () => {
    await withoutForeignKeyChecks(db, async (trx) => {
      // Per competition: the first league has exactly 50 members; the rest are mostly office-sized
      // (80 % of 2 to 20) with a long tail up to 500. Members are spread over all tippers by a
      // stride coprime with the tipper count. Then one public league of publicLeagueSize.
      const minId = await sql<{ id: number }>`
        SELECT min(id) AS id FROM users WHERE email LIKE ${'%@' + BENCH_EMAIL_DOMAIN}
      `.execute(trx)
      const base = minId.rows[0]!.id
      await sql`
        CREATE TEMP TABLE bench_league_sizes AS
        SELECT c.id AS competition_id, l AS n,
          CASE WHEN l = 1 THEN 50
               WHEN hashint4(l * 3 + c.id) & 1023 < 820 THEN 2 + (hashint4(l + c.id) & 65535) % 19
               ELSE 20 + floor(480 * power(((hashint4(l * 7 + c.id) & 65535) / 65535.0), 3))::int
          END AS size
        FROM competitions c CROSS JOIN generate_series(1, ${o.leagues}) AS l
        WHERE c.is_current
      `.execute(trx)
      await sql`
        INSERT INTO leagues (competition_id, user_id, name, description, privacy, code, start_round, num_users)
        SELECT s.competition_id,
          ${base}::int + ((s.n::bigint * 7919) % ${o.users})::int,
          'Bench League ' || s.n, 'Generated for the benchmark', 'private',
          'B' || s.competition_id || 'L' || s.n, 1, s.size
        FROM bench_league_sizes s
        ORDER BY s.competition_id, s.n
      `.execute(trx)
      await sql`
        INSERT INTO league_members (league_id, user_id)
        SELECT l.id, ${base}::int + ((s.n::bigint * 7919 + k::bigint * 104729) % ${o.users})::int
        FROM bench_league_sizes s
        JOIN leagues l ON l.code = 'B' || s.competition_id || 'L' || s.n
        CROSS JOIN LATERAL generate_series(0, s.size - 1) AS k
        ON CONFLICT DO NOTHING
      `.execute(trx)
      await sql`DROP TABLE bench_league_sizes`.execute(trx)
      await sql`
        INSERT INTO leagues (competition_id, user_id, name, description, privacy, code, start_round, num_users)
        SELECT c.id, ${base}, 'Bench Public League', 'Everyone welcome', 'public', 'BPUB' || c.id, 1, 0
        FROM competitions c WHERE c.is_current
      `.execute(trx)
      // The public league holds the session users first (so they can read its ladder), then others.
      await sql`
        INSERT INTO league_members (league_id, user_id)
        SELECT l.id, u.id FROM leagues l
        CROSS JOIN LATERAL (
          SELECT id FROM users WHERE email LIKE ${'%@' + BENCH_EMAIL_DOMAIN}
          ORDER BY id LIMIT ${o.publicLeagueSize}
        ) u
        WHERE l.code LIKE 'BPUB%'
        ON CONFLICT DO NOTHING
      `.execute(trx)
      await sql`
        UPDATE leagues l SET num_users = c.n
        FROM (SELECT league_id, count(*)::int AS n FROM league_members GROUP BY league_id) c
        WHERE c.league_id = l.id AND l.num_users <> c.n
      `.execute(trx)
    })
  })

  // Sessions for the first `sessions` tippers, the members of each 50-member league and the admin.
  const sessionUserIds = await timed(seconds, 'sessions', log, async () => {
    const expires = new Date(o.now.getTime() + 60 * DAY)
    await sql`
      INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at, expires_at)
      SELECT sha256(convert_to('b' || ${salt} || '.' || u.id, 'UTF8')), u.id, ${o.now}, ${o.now}, ${expires}
      FROM users u
      WHERE u.id = ${adminUserId}
         OR u.id IN (SELECT id FROM users WHERE email LIKE ${'%@' + BENCH_EMAIL_DOMAIN} ORDER BY id LIMIT ${o.sessions})
         OR u.id IN (SELECT m.user_id FROM league_members m JOIN leagues l ON l.id = m.league_id
                     WHERE l.code LIKE 'B%L1')
      ON CONFLICT DO NOTHING
    `.execute(db)
    const rows = await sql<{ id: number }>`
      SELECT id FROM users WHERE email LIKE ${'%@' + BENCH_EMAIL_DOMAIN} ORDER BY id LIMIT ${o.sessions}
    `.execute(db)
    return rows.rows.map((r) => r.id)
  })

  await timed(seconds, 'analyze', log, async () => {
    await sql`ANALYZE`.execute(db)
  })

  const sports: SportInfo[] = []
  for (const sport of SPORTS) {
    const c = await sql<{ id: number }>`
      SELECT id FROM competitions WHERE sport = ${sport} AND is_current
    `.execute(db)
    const competitionId = c.rows[0]!.id
    // Scoring with the real scorer (modules/scoring), so rankings and ladders exist: round by
    // round, as results arrive in the season, with fresh planner statistics between rounds.
    await timed(seconds, `score-${sport}`, log, async () => {
      const rounds = await sql<{ id: number }>`
        SELECT DISTINCT round_id AS id FROM matches
        WHERE competition_id = ${competitionId} AND starts_at <= ${o.now} ORDER BY 1
      `.execute(db)
      for (const r of rounds.rows) {
        await rescore(db, competitionId, [r.id])
        await sql`ANALYZE round_scores`.execute(db)
      }
      await sql`ANALYZE round_scores, standings`.execute(db)
    })
    const round = await sql<{ id: number }>`
      SELECT id FROM rounds WHERE competition_id = ${competitionId} AND number = ${OPEN_ROUND[sport]}
    `.execute(db)
    const openRoundId = round.rows[0]!.id
    const matches = await sql<{
      id: number
      home: number
      away: number
      is_margin_game: boolean
      starts_at: Date
    }>`
      SELECT id, home_squad_id AS home, away_squad_id AS away, is_margin_game, starts_at
      FROM matches WHERE round_id = ${openRoundId} ORDER BY starts_at, id
    `.execute(db)
    const leagues = await sql<{ id: number; code: string }>`
      SELECT id, code FROM leagues
      WHERE competition_id = ${competitionId} AND code IN (${'BPUB' + competitionId}, ${'B' + competitionId + 'L1'})
    `.execute(db)
    sports.push({
      sport,
      competitionId,
      openRound: OPEN_ROUND[sport],
      openRoundId,
      openMatches: matches.rows.map((m) => ({
        id: m.id,
        home: m.home,
        away: m.away,
        isMarginGame: m.is_margin_game,
        startsAt: new Date(m.starts_at).toISOString(),
      })),
      lastCompleteRound: OPEN_ROUND[sport] - 1,
      publicLeagueId: leagues.rows.find((l) => l.code.startsWith('BPUB'))!.id,
      fiftyLeagueId: leagues.rows.find((l) => !l.code.startsWith('BPUB'))!.id,
    })
  }

  return { users: o.users, sessionSalt: salt, sessionUserIds, adminUserId, sports, seconds }
}

/** Members of a league (the ladder scenario signs in as them). */
export async function leagueMemberIds(db: Database, leagueId: number, limit: number) {
  const rows = await sql<{ user_id: number }>`
    SELECT user_id FROM league_members WHERE league_id = ${leagueId} ORDER BY user_id LIMIT ${limit}
  `.execute(db)
  return rows.rows.map((r) => r.user_id)
}
