import { sql } from 'kysely'
import type { Database } from '../db/schema.ts'

// Set-based inserts for the demo: one statement per table, never a loop per user.

const FIRST_NAMES = [
  'Alex',
  'Sam',
  'Jordan',
  'Charlie',
  'Riley',
  'Jess',
  'Tom',
  'Mia',
  'Noah',
  'Ava',
  'Liam',
  'Zoe',
  'Ethan',
  'Chloe',
  'Jack',
  'Grace',
  'Oliver',
  'Isla',
  'Lucas',
  'Ruby',
  'Harry',
  'Ella',
  'Max',
  'Lily',
  'Ben',
  'Sophie',
  'Josh',
  'Emma',
  'Kai',
  'Priya',
  'Arjun',
  'Mei',
  'Tariq',
  'Aisha',
]
const LAST_NAMES = [
  'Smith',
  'Nguyen',
  'Brown',
  'Wilson',
  'Taylor',
  'Patel',
  'Martin',
  'Anderson',
  'Thompson',
  'White',
  'Walker',
  'Harris',
  'Lee',
  'Ryan',
  'Robinson',
  'Kelly',
  'King',
  'Chen',
  'Singh',
  'Murphy',
  'Clarke',
  'Davies',
  'Hughes',
  'Evans',
  'Wood',
  'Campbell',
  'Scott',
  'Khan',
]
const TEAM_WORDS = [
  'Sixes',
  'Slog',
  'Yorkers',
  'Googlies',
  'Bouncers',
  'Cover Drives',
  'Power Play',
  'Nightwatch',
  'Duck Dodgers',
  'Boundary Riders',
  'Free Hits',
  'Reverse Sweeps',
  'Super Overs',
  'Bails',
]

export const earliestMatchStart = async (db: Database): Promise<Date> => {
  const row = await db
    .selectFrom('matches')
    .select((eb) => eb.fn.min('starts_at').as('first'))
    .executeTakeFirstOrThrow()
  return row.first ? new Date(row.first) : new Date()
}

export async function insertSimulatedTippers(
  db: Database,
  count: number,
  registeredAt: Date,
  roles: string[],
) {
  if (count <= 0) return
  await sql`
    INSERT INTO users (email, first_name, last_name, team_name, roles, registered_at)
    SELECT
      'tipper' || n || '@demo.invalid',
      (${FIRST_NAMES}::text[])[1 + (hashint4(n) & 2147483647) % ${FIRST_NAMES.length}],
      (${LAST_NAMES}::text[])[1 + (hashint4(n + 7919) & 2147483647) % ${LAST_NAMES.length}],
      (${FIRST_NAMES}::text[])[1 + (hashint4(n) & 2147483647) % ${FIRST_NAMES.length}] || '''s ' ||
        (${TEAM_WORDS}::text[])[1 + (hashint4(n + 104729) & 2147483647) % ${TEAM_WORDS.length}],
      ${roles}::text[],
      ${registeredAt}::timestamptz + (n || ' minutes')::interval
    FROM generate_series(1, ${count}) AS n
  `.execute(db)
}

export async function insertDemoAccount(
  db: Database,
  a: { email: string; passwordHash: string; registeredAt: Date; roles: string[] },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      email: a.email,
      password_hash: a.passwordHash,
      first_name: 'Demo',
      last_name: 'Tipper',
      team_name: 'Demo Dashers',
      roles: a.roles,
      registered_at: a.registeredAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function registerEveryoneForCurrentCompetitions(db: Database, at: Date) {
  await sql`
    INSERT INTO competition_registrations (competition_id, user_id, registered_at)
    SELECT c.id, u.id, ${at}::timestamptz FROM competitions c CROSS JOIN users u
    WHERE c.is_current
    ON CONFLICT DO NOTHING
  `.execute(db)
}

/**
 * Simulated tips, skewed towards a per-match favourite: most tippers tip every locked match; about
 * half have already tipped the open matches of the demo round. Where a tipper has no tip on a
 * locked match, the auto-tip follows from the lockout (effective_tips). The demo account has
 * tipped every started match and leaves the open ones to play.
 */
export async function insertSimulatedTips(
  db: Database,
  o: { now: Date; demoUserId: number; demoRound: number },
) {
  await sql`SELECT setseed(0.2025)`.execute(db)
  await sql`
    INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip, created_at, updated_at)
    SELECT u.id, m.id, m.round_id,
      CASE WHEN random() < 0.5 + ((hashint4(m.id) & 2147483647) % 41 - 20) / 100.0
           THEN m.home_squad_id ELSE m.away_squad_id END,
      CASE WHEN m.is_margin_game THEN 4 + floor(random() * 22)::int END,
      false,
      m.starts_at - interval '1 day', m.starts_at - interval '1 day'
    FROM matches m
    JOIN rounds r ON r.id = m.round_id
    JOIN competitions c ON c.id = m.competition_id AND c.is_current
    CROSS JOIN users u
    WHERE r.number <= ${o.demoRound}
      AND NOT (u.id = ${o.demoUserId} AND m.starts_at > ${o.now}::timestamptz)
      AND (u.id = ${o.demoUserId} OR random() < CASE WHEN m.starts_at <= ${o.now}::timestamptz THEN 0.93 ELSE 0.55 END)
  `.execute(db)
}

export const hasCompetitions = async (db: Database): Promise<boolean> =>
  (await db.selectFrom('competitions').select('id').limit(1).executeTakeFirst()) !== undefined

export const currentCompetitionIds = async (db: Database): Promise<number[]> =>
  (
    await db
      .selectFrom('competitions')
      .select('id')
      .where('is_current', '=', true)
      .orderBy('id')
      .execute()
  ).map((r) => r.id)

/**
 * Two leagues per competition so the demo shows ladders and the tip row: a private one the demo
 * account runs with a couple of dozen tippers, and a big public one it has joined.
 */
export async function insertDemoLeagues(
  db: Database,
  demoUserId: number,
  code: () => string,
): Promise<void> {
  for (const competitionId of await currentCompetitionIds(db)) {
    const leagues = [
      {
        name: 'The Demo Desk',
        description: 'Office tipping: bragging rights and the morning tea roster.',
        privacy: 'private' as const,
        owner: demoUserId,
        every: 12,
      },
      {
        name: 'Bash Fans United',
        description: 'Open to every fan of the Bash. Say g’day and tip away.',
        privacy: 'public' as const,
        owner: null,
        every: 3,
      },
    ]
    for (const l of leagues) {
      const owner =
        l.owner ??
        (
          await db
            .selectFrom('users')
            .select('id')
            .where('email', 'like', 'tipper%@demo.invalid')
            .orderBy('id')
            .executeTakeFirstOrThrow()
        ).id
      const { id } = await db
        .insertInto('leagues')
        .values({
          competition_id: competitionId,
          user_id: owner,
          name: l.name,
          description: l.description,
          privacy: l.privacy,
          code: code(),
          start_round: 1,
          num_users: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await sql`
        INSERT INTO league_members (league_id, user_id)
        SELECT ${id}, u.id FROM users u
        WHERE u.id IN (${demoUserId}, ${owner})
           OR (u.email LIKE 'tipper%@demo.invalid' AND u.id % ${l.every} = 0)
      `.execute(db)
      await sql`
        UPDATE leagues SET num_users = (SELECT count(*) FROM league_members WHERE league_id = ${id})
        WHERE id = ${id}
      `.execute(db)
    }
  }
}

/**
 * The demo's last season (issue 31): every demo tipper registered for it and tipping each of its
 * matches as the current season's simulated tippers do (skewed towards a per-match favourite),
 * and the demo account's private league in it. Set-based, one competition named.
 */
export async function insertPastSeasonPlay(
  db: Database,
  o: { competitionId: number; registeredAt: Date; demoUserId: number; code: string },
): Promise<number> {
  await sql`
    INSERT INTO competition_registrations (competition_id, user_id, registered_at)
    SELECT ${o.competitionId}, u.id, ${o.registeredAt}::timestamptz FROM users u
    WHERE u.id = ${o.demoUserId} OR u.email LIKE 'tipper%@demo.invalid'
    ON CONFLICT DO NOTHING
  `.execute(db)
  await sql`SELECT setseed(0.2024)`.execute(db)
  await sql`
    INSERT INTO tips (user_id, match_id, round_id, squad_id, margin, is_auto_tip, created_at, updated_at)
    SELECT u.id, m.id, m.round_id,
      CASE WHEN random() < 0.5 + ((hashint4(m.id) & 2147483647) % 41 - 20) / 100.0
           THEN m.home_squad_id ELSE m.away_squad_id END,
      CASE WHEN m.is_margin_game THEN 4 + floor(random() * 22)::int END,
      false,
      m.starts_at - interval '1 day', m.starts_at - interval '1 day'
    FROM matches m
    JOIN competition_registrations cr ON cr.competition_id = m.competition_id
    JOIN users u ON u.id = cr.user_id
    WHERE m.competition_id = ${o.competitionId}
      AND (u.id = ${o.demoUserId} OR random() < 0.9)
  `.execute(db)
  const { id } = await db
    .insertInto('leagues')
    .values({
      competition_id: o.competitionId,
      user_id: o.demoUserId,
      name: 'The Demo Desk',
      description: 'Office tipping: bragging rights and the morning tea roster.',
      privacy: 'private',
      code: o.code,
      start_round: 1,
      num_users: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  await sql`
    INSERT INTO league_members (league_id, user_id)
    SELECT ${id}, u.id FROM users u
    WHERE u.id = ${o.demoUserId} OR (u.email LIKE 'tipper%@demo.invalid' AND u.id % 10 = 0)
  `.execute(db)
  await sql`
    UPDATE leagues SET num_users = (SELECT count(*) FROM league_members WHERE league_id = ${id})
    WHERE id = ${id}
  `.execute(db)
  return id
}
