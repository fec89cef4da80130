import { sql, type RawBuilder } from 'kysely'
import {
  AUTOTIP_COUNT_LIMIT,
  CLEAN_SWEEP_BONUS,
  GOLDEN_WEEK_MULTIPLIER,
  POINTS_PER_TIP,
} from '@tipping/contract/constants'
import { PREPARED } from '../../db/database.ts'
import type { Database } from '../../db/schema.ts'

// GAME_RULES.md "Scoring a round" and "Ranking" as set-based SQL: one statement per step for
// every registered user at once; the contract's reference scorer is the specification it must equal.
//
// Scores are rebuilt, not rewritten (migration 2026-11-24T0100, decision 009): a round's scores
// are built into a new table beside round_scores_r{round}, with its indexes made once at the end,
// and swapped in as the round's partition when the job is about to commit; standings_c{competition}
// likewise. Until the swap, readers see the previous numbers, and the swap itself holds the
// tables for milliseconds at the end of the transaction.

const ROUND_PART = 'round_scores_r'
const roundPart = (roundId: number) => `${ROUND_PART}${roundId}`
const standingsPart = (competitionId: number) => `standings_c${competitionId}`
const next = (part: string) => `${part}_next`

/** The table a round's new scores are built in (visible only to this transaction until swapped). */
const nextRoundTable = (roundId: number) => next(roundPart(roundId))

/** A result's match as it was before the result was written. */
export interface MatchBefore {
  id: number
  complete: boolean
  winnerSquadId: number | null
}

// The round's facts and every registered user's counters, then everything derived from them,
// before ranking. `counters` is a query with user_id, seq (registration order), correct_own,
// correct_auto, autos, predicted
// (margin game), keep_margin (the margin already known, or NULL to measure it) for every
// registered user, and others_points, others_margin (their totals over the other rounds, when
// known), passed through. `matches` is the round's matches: the table, or roundMatchValues().
function roundPointsFrom(
  roundId: number,
  counters: RawBuilder<unknown>,
  matches = matchesOf(roundId),
  carry: readonly string[] = [],
) {
  const carried = (alias: string) =>
    sql.join(
      carry.map((c) => sql`, ${sql.ref(`${alias}.${c}`)}`),
      sql``,
    )
  return sql`
    WITH rnd AS (
      SELECT r.id, r.competition_id, (r.number = c.golden_week_round) AS golden
      FROM rounds r JOIN competitions c ON c.id = r.competition_id
      WHERE r.id = ${roundId}
    ),
    m AS (${matches}),
    facts AS (
      SELECT count(*) > 0 AND bool_and(status = 'complete') AS finished,
             count(*) FILTER (WHERE winner_squad_id IS NOT NULL) AS with_winner
      FROM m
    ),
    margin_game AS (
      SELECT id, sixes FROM m WHERE is_margin_game AND status = 'complete' AND sixes IS NOT NULL
    ),
    -- materialized: its columns are CASE chains, which later steps would otherwise repeat per use
    per_user AS MATERIALIZED (${counters}),
    counted AS (
      SELECT p.user_id, p.seq, p.correct_own, p.correct_auto, p.autos, p.others_points, p.others_margin${carried('p')},
        p.correct_own + p.correct_auto AS correct,
        p.correct_own + CASE WHEN p.correct_own < ${AUTOTIP_COUNT_LIMIT} THEN p.correct_auto ELSE 0 END AS counted,
        -- bonus only once every match is complete, when autos counts every auto-tip of the round
        CASE WHEN f.finished AND f.with_winner > 0 AND p.correct_own + p.correct_auto = f.with_winner
               AND p.autos = 0
             THEN ${CLEAN_SWEEP_BONUS} ELSE 0 END AS bonus,
        coalesce(p.keep_margin, CASE WHEN EXISTS (SELECT 1 FROM margin_game)
             THEN abs(coalesce(p.predicted, 0) - (SELECT sixes FROM margin_game)) ELSE 0 END) AS margin
      FROM per_user p CROSS JOIN facts f
    ),
    scored AS (
      SELECT c.*,
        c.counted * ${POINTS_PER_TIP} * CASE WHEN rnd.golden THEN ${GOLDEN_WEEK_MULTIPLIER} ELSE 1 END AS tip_points
      FROM counted c CROSS JOIN rnd
    )
    SELECT rnd.id AS round_id, s.user_id, s.seq, rnd.competition_id, s.correct, s.correct_own,
      s.correct_auto, s.autos, s.counted, s.tip_points, s.bonus,
      (s.tip_points + s.bonus)::int AS points, s.margin::int AS margin,
      s.others_points, s.others_margin${carried('s')}
    FROM scored s CROSS JOIN rnd
  `
}

/** roundPointsFrom() with each row's rank and position in the round. */
const roundRowsFrom = (
  roundId: number,
  counters: RawBuilder<unknown>,
  matches?: RawBuilder<unknown>,
) => withRanks(roundPointsFrom(roundId, counters, matches), 'points', 'margin')

const matchColumns = [
  'id',
  'status',
  'winner_squad_id',
  'is_margin_game',
  'sixes',
  'starts_at',
  'away_squad_id',
] as const

const matchesOf = (roundId: number) =>
  sql`SELECT ${sql.join(matchColumns.map((c) => sql.ref(c)))} FROM matches WHERE round_id = ${roundId}`

/**
 * The round's matches as this transaction sees them, written out as values. A transaction that
 * imports another's snapshot does not see that transaction's own writes, and a result is written
 * in the transaction that scores it, so the helpers of buildFromOneMatchInParallel read the
 * matches from here rather than from the table. A VALUES list, unlike a JSON one, tells the
 * planner how many rows there are.
 */
export async function roundMatchValues(
  db: Database,
  roundId: number,
): Promise<RawBuilder<unknown>> {
  return matchValues(roundId, await roundMatchRows(db, roundId))
}

const roundMatchRows = (db: Database, roundId: number) =>
  db.selectFrom('matches').select(matchColumns).where('round_id', '=', roundId).execute()

function matchValues(
  roundId: number,
  rows: Awaited<ReturnType<typeof roundMatchRows>>,
): RawBuilder<unknown> {
  if (rows.length === 0) return sql`${matchesOf(roundId)} AND false`
  // Every value cast: a column of NULLs (no winner yet) would otherwise come out as text.
  const row = (m: (typeof rows)[number]) =>
    sql`(${m.id}::int, ${m.status}::text, ${m.winner_squad_id}::int,
      ${m.is_margin_game}::boolean, ${m.sixes}::int, ${m.starts_at}::timestamptz,
      ${m.away_squad_id}::int)`
  const names = sql.join(matchColumns.map((c) => sql.id(c)))
  return sql`SELECT * FROM (VALUES ${sql.join(rows.map(row))}) AS v(${names})`
}

/**
 * `rows` (with user_id and the named points and margin columns) with each row's rank (GAME_RULES
 * "Ranking": points descending, then margin ascending, ties sharing a rank as RANK() does) and
 * position (that order, ties by registration order `seq`: the stored order rankings pages read by
 * range; a tipper who registers later is listed after those tied with them, so placing a new
 * tipper never moves the rows above them, placeTipper()).
 *
 * Not RANK() and ROW_NUMBER() over a three-key ORDER BY: at a million rows that sort and its two
 * window passes were most of a result's time (bench/README.md). The rows are sorted once, on one
 * bigint: the (points, margin) group's place in a box spanning the groups present, times 2^31,
 * plus the registration's seq. A group's rank is one plus the rows in the groups before it, counted from the
 * few hundred groups, and joined back on the group's place (the rows arrive in that order, so
 * the merge join's sort finds them presorted).
 * The key stays exact while the box holds fewer than 2^32 groups (points and margins of a season
 * are a few thousand apart at most); past that bigint arithmetic raises an error, never a wrong rank.
 */
function withRanks(rows: RawBuilder<unknown>, points: string, margin: string) {
  const p = sql.ref(points)
  const m = sql.ref(margin)
  return sql`
    WITH src AS MATERIALIZED (${rows}),
    groups AS (SELECT ${p} AS points, ${m} AS margin, count(*) AS n FROM src GROUP BY 1, 2),
    box AS (SELECT max(points)::bigint AS top, min(margin)::bigint AS low,
      (max(margin) - min(margin) + 1)::bigint AS span FROM groups),
    group_ranks AS (
      SELECT (box.top - g.points) * box.span + (g.margin - box.low) AS grp,
        (1 + coalesce(sum(g.n) OVER (ORDER BY g.points DESC, g.margin
          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))::bigint AS rank
      FROM groups g CROSS JOIN box
    ),
    positioned AS (
      SELECT o.*, ROW_NUMBER() OVER (ORDER BY o.grp * 2147483648 + o.seq) AS position
      FROM (SELECT s.*, (box.top - s.${p}) * box.span + (s.${m} - box.low) AS grp
            FROM src s CROSS JOIN box) o
    )
    SELECT pos.*, gr.rank FROM positioned pos JOIN group_ranks gr ON gr.grp = pos.grp
  `
}

const roundColumns = sql.raw(`round_id, user_id, competition_id, correct, correct_own,
  correct_auto, autos, counted, tip_points, bonus, points, margin, rank, position`)

/**
 * Counters of a round from all its tips (auto-tips included, through effective_tips), for every
 * registered user, only `userId` (a tipper placed as they register), or only the users `only`
 * selects (a live projection for a league's members, projectedRounds).
 */
const countersFromAllTips = (roundId: number, userId?: number, only?: RawBuilder<unknown>) => sql`
  SELECT cr.user_id, cr.seq,
    count(*) FILTER (WHERE m.status = 'complete' AND t.squad_id = m.winner_squad_id AND NOT t.is_auto_tip) AS correct_own,
    count(*) FILTER (WHERE m.status = 'complete' AND t.squad_id = m.winner_squad_id AND t.is_auto_tip) AS correct_auto,
    count(*) FILTER (WHERE m.status = 'complete' AND t.is_auto_tip) AS autos,
    max(t.margin) FILTER (WHERE t.match_id = (SELECT id FROM margin_game)) AS predicted,
    NULL::int AS keep_margin, NULL::int AS others_points, NULL::int AS others_margin
  FROM rnd
  JOIN competition_registrations cr ON cr.competition_id = rnd.competition_id
  -- the round id as a value, not rnd.id: the planner then reads the round through
  -- tips_round_user instead of hashing every tip
  LEFT JOIN effective_tips t ON t.user_id = cr.user_id AND t.round_id = ${roundId}
  LEFT JOIN m ON m.id = t.match_id
  ${
    userId !== undefined
      ? sql`WHERE cr.user_id = ${userId}`
      : only !== undefined
        ? sql`WHERE cr.user_id IN (${only})`
        : sql``
  }
  GROUP BY cr.user_id, cr.seq
`

/**
 * Counters of a round after one match's result changed: the round's previous counters, less what
 * the match gave under its old result, plus what it gives now; only that match's tips are read.
 * A user with no previous row registered after the round was last scored, so the round's other
 * completed matches had started before they registered: they had nothing there.
 *
 * The user's tip on the match is effective_tips' rule written out for one locked match (the
 * stored tip, else the away-squad auto-tip if they registered before it started), so that the
 * match's tips are read from tips_match_user alone and the registrations only once. `only`, a
 * query of user ids, restricts it to those users (projectedRounds for a league).
 */
const countersFromOneMatch = (
  competitionId: number,
  roundId: number,
  before: MatchBefore,
  {
    only,
    names = false,
    totals = true,
  }: { only?: RawBuilder<unknown>; names?: boolean; totals?: boolean } = {},
) => sql`
  SELECT user_id, seq,
    own_before - CASE WHEN ${before.complete}::boolean AND squad_id = ${before.winnerSquadId}::int AND NOT is_auto_tip THEN 1 ELSE 0 END
      + CASE WHEN complete AND squad_id = winner_squad_id AND NOT is_auto_tip THEN 1 ELSE 0 END AS correct_own,
    auto_before - CASE WHEN ${before.complete}::boolean AND squad_id = ${before.winnerSquadId}::int AND is_auto_tip THEN 1 ELSE 0 END
      + CASE WHEN complete AND squad_id = winner_squad_id AND is_auto_tip THEN 1 ELSE 0 END AS correct_auto,
    autos_before - CASE WHEN ${before.complete}::boolean AND is_auto_tip THEN 1 ELSE 0 END
      + CASE WHEN complete AND is_auto_tip THEN 1 ELSE 0 END AS autos,
    CASE WHEN is_margin_game THEN predicted END AS predicted,
    CASE WHEN is_margin_game THEN NULL ELSE margin_before END AS keep_margin,
    others_points, others_margin${names ? sql`, ${sql.raw(NAME_COLUMNS.join(', '))}` : sql``}
  FROM (
    SELECT cr.user_id, cr.seq, x.status = 'complete' AS complete, x.winner_squad_id, x.is_margin_game,
      coalesce(o.correct_own, 0) AS own_before, coalesce(o.correct_auto, 0) AS auto_before,
      coalesce(o.autos, 0) AS autos_before, o.margin AS margin_before,
      ${
        totals
          ? sql`coalesce(s.total_points, 0) - coalesce(o.points, 0) AS others_points,
      coalesce(s.total_margin, 0) - coalesce(o.margin, 0) AS others_margin,`
          : sql`NULL::int AS others_points, NULL::int AS others_margin,`
      }
      coalesce(t.squad_id, CASE WHEN cr.registered_at < x.starts_at THEN x.away_squad_id END) AS squad_id,
      CASE WHEN t.user_id IS NOT NULL THEN t.is_auto_tip
           WHEN cr.registered_at < x.starts_at THEN true END AS is_auto_tip,
      CASE WHEN t.user_id IS NOT NULL THEN t.margin
           WHEN cr.registered_at < x.starts_at AND x.is_margin_game THEN 0 END AS predicted
      ${names ? sql`, ${namesFromStandings}` : sql``}
    FROM rnd
    JOIN competition_registrations cr ON cr.competition_id = rnd.competition_id
    CROSS JOIN (SELECT * FROM m WHERE id = ${before.id}) x
    LEFT JOIN round_scores o ON o.round_id = ${roundId} AND o.user_id = cr.user_id
    LEFT JOIN tips t ON t.match_id = ${before.id} AND t.user_id = cr.user_id
    ${totals ? sql`LEFT JOIN standings s ON s.competition_id = ${competitionId} AND s.user_id = cr.user_id` : sql``}
    ${only === undefined ? sql`` : sql`WHERE cr.user_id IN (${only})`}
  ) u
`

/** The columns rankings pages read beside the standings (migration 2026-11-24T0300). */
const NAME_COLUMNS = ['team_name', 'first_name', 'last_name', 'active'] as const

/**
 * A user's names and whether they are active, from their previous standings row (in
 * countersFromOneMatch, as `s`), which the users_to_standings trigger keeps equal to users; from
 * users for a tipper with no previous row. Saves joining a million users (decision 009).
 */
const namesFromStandings = sql.join(
  NAME_COLUMNS.map(
    (c) => sql`CASE WHEN s.user_id IS NOT NULL THEN ${sql.ref(`s.${c}`)}
      ELSE (SELECT ${c === 'active' ? sql`u.deactivated_at IS NULL` : sql.ref(`u.${c}`)}
        FROM users u WHERE u.id = cr.user_id) END AS ${sql.ref(c)}`,
  ),
)

/** Whether the round's stored scores carry the counters a single result re-scores from. */
export async function roundHasCounters(db: Database, roundId: number): Promise<boolean> {
  const row = await sql<{ ok: boolean }>`
    SELECT correct_own IS NOT NULL AS ok FROM round_scores WHERE round_id = ${roundId} LIMIT 1
  `.execute(db)
  return row.rows[0]?.ok ?? false
}

// Each starts by dropping a next table left behind: the helpers of buildFromOneMatchInParallel
// commit theirs before the swap, so a job that failed after them leaves one (never attached, so
// never read). The scoring lock keeps two jobs from building the same one.
async function createNextRound(db: Database, roundId: number) {
  await sql`DROP TABLE IF EXISTS ${sql.table(nextRoundTable(roundId))}`.execute(db)
  await sql`CREATE TABLE ${sql.table(nextRoundTable(roundId))} (LIKE round_scores INCLUDING DEFAULTS,
    CONSTRAINT round_scores_round CHECK (round_id = ${sql.lit(roundId)}))`.execute(db)
}

async function createNextStandings(db: Database, competitionId: number) {
  const table = sql.table(next(standingsPart(competitionId)))
  await sql`DROP TABLE IF EXISTS ${table}`.execute(db)
  await sql`CREATE TABLE ${table} (LIKE standings INCLUDING DEFAULTS,
    CONSTRAINT standings_competition CHECK (competition_id = ${sql.lit(competitionId)}))`.execute(
    db,
  )
}

/** Builds one round's scores from all its tips, for every registered user, into its next table. */
export async function buildRoundScores(db: Database, roundId: number): Promise<void> {
  await createNextRound(db, roundId)
  await sql`
    INSERT INTO ${sql.table(nextRoundTable(roundId))} (${roundColumns})
    SELECT ${roundColumns} FROM (${roundRowsFrom(roundId, countersFromAllTips(roundId))}) r
  `.execute(db)
  await indexAndAnalyze(db, nextRoundTable(roundId), 'round_id')
}

/**
 * Builds a competition's standings (totals over every round, with overall ranks and positions)
 * into its next table. `rebuilt` are the rounds whose scores are in next tables not yet swapped in.
 */
export async function buildStandings(
  db: Database,
  competitionId: number,
  rebuilt: number[],
): Promise<void> {
  await createNextStandings(db, competitionId)
  const totals = sql`
      SELECT cr.user_id, cr.seq, coalesce(sum(rs.points), 0)::int AS total_points,
        coalesce(sum(rs.margin), 0)::int AS total_margin
      FROM competition_registrations cr
      LEFT JOIN (
        SELECT user_id, points, margin FROM round_scores
        WHERE competition_id = ${competitionId} AND round_id <> ALL(${rebuilt}::int[])
        ${sql.join(
          rebuilt.map(
            (id) =>
              sql`UNION ALL SELECT user_id, points, margin FROM ${sql.table(nextRoundTable(id))}`,
          ),
          sql` `,
        )}
      ) rs ON rs.user_id = cr.user_id
      WHERE cr.competition_id = ${competitionId}
      GROUP BY cr.user_id, cr.seq`
  await insertStandings(competitionId, totals).execute(db)
  await indexAndAnalyze(db, next(standingsPart(competitionId)), 'competition_id')
}

/**
 * Writes `totals` (user_id, seq, total_points, total_margin) ranked into the next standings table,
 * with each user's names and whether they are active, which rankings pages read from there
 * (migration 2026-11-24T0300). `totals` either carries them (NAME_COLUMNS: after one result,
 * namesFromStandings) or they are joined from users before ranking (the totals arrive in user
 * order, so users is read once in its key's order).
 */
const insertStandings = (
  competitionId: number,
  totals: RawBuilder<unknown>,
  { named = false }: { named?: boolean } = {},
) => sql`
  INSERT INTO ${sql.table(next(standingsPart(competitionId)))}
    (competition_id, user_id, total_points, total_margin, rank, position,
     team_name, first_name, last_name, active)
  SELECT ${competitionId}, user_id, total_points, total_margin, rank, position,
    team_name, first_name, last_name, active
  FROM (${withRanks(
    named
      ? totals
      : sql`SELECT t.user_id, t.seq, t.total_points, t.total_margin, u.team_name, u.first_name,
        u.last_name, u.deactivated_at IS NULL AS active
      FROM (${totals}) t JOIN users u ON u.id = t.user_id`,
    'total_points',
    'total_margin',
  )}) t
`

/** A round's rows (roundPointsFrom, carrying NAME_COLUMNS) as the totals insertStandings ranks. */
const totalsFromRound = (rows: RawBuilder<unknown>) =>
  sql`SELECT user_id, seq, (others_points + points)::int AS total_points,
    (others_margin + margin)::int AS total_margin, ${sql.raw(NAME_COLUMNS.join(', '))}
  FROM (${rows}) r`

/**
 * After one match's result: builds its round's scores from the previous ones and that match's
 * tips, and the standings from the same rows (the user's totals over the other rounds plus the
 * new round), in one statement that reads the registrations, the previous round and standings
 * and the match's tips once each.
 */
export async function buildFromOneMatch(
  db: Database,
  competitionId: number,
  roundId: number,
  before: MatchBefore,
): Promise<void> {
  await createNextRound(db, roundId)
  await createNextStandings(db, competitionId)
  const matches = await roundMatchValues(db, roundId)
  const rows = withRanks(
    roundPointsFrom(
      roundId,
      countersFromOneMatch(competitionId, roundId, before, { names: true }),
      matches,
      NAME_COLUMNS,
    ),
    'points',
    'margin',
  )
  await mergeJoined(
    db,
    sql`
      WITH round_rows AS (${rows}),
      written AS (
        INSERT INTO ${sql.table(nextRoundTable(roundId))} (${roundColumns})
        SELECT ${roundColumns} FROM round_rows
      )
      ${insertStandings(competitionId, totalsFromRound(sql`SELECT * FROM round_rows`), { named: true })}
    `,
  )
  await indexAndAnalyze(db, nextRoundTable(roundId), 'round_id')
  await indexAndAnalyze(db, next(standingsPart(competitionId)), 'competition_id')
}

/**
 * buildFromOneMatch() on two more connections at once, for PostgreSQL: one builds the round's
 * table, the other the standings (each reads the registrations, the previous round and the
 * match's tips itself; the standings one also reads the previous standings, for the totals and
 * the names, and works out the round's points without ranking them).
 * At a million tippers the one statement ran on one core while the other idled; the halves run
 * side by side (decision 009).
 *
 * `trx` is the transaction that wrote the result and will swap the tables in; both helpers import
 * its snapshot, so they read the same registrations and scores as each other and as `trx`, and
 * take the round's matches as values from it (they cannot see its uncommitted result). Each
 * helper commits its next table; the swap stays in `trx`, so readers see the new numbers
 * only when the result commits. `helpers` must be a pool with two connections to spare beyond
 * the one `trx` holds.
 */
export async function buildFromOneMatchInParallel(
  trx: Database,
  helpers: Database,
  competitionId: number,
  roundId: number,
  before: MatchBefore,
): Promise<void> {
  const matches = await roundMatchValues(trx, roundId)
  const snapshot = await exportSnapshot(trx)
  const halves = await Promise.allSettled([
    inSnapshot(helpers, snapshot, async (h) => {
      await createNextRound(h, roundId)
      await mergeJoined(
        h,
        sql`INSERT INTO ${sql.table(nextRoundTable(roundId))} (${roundColumns})
          SELECT ${roundColumns} FROM (${roundRowsFrom(
            roundId,
            countersFromOneMatch(competitionId, roundId, before, { totals: false }),
            matches,
          )}) r`,
      )
      await indexAndAnalyze(h, nextRoundTable(roundId), 'round_id')
    }),
    inSnapshot(helpers, snapshot, async (h) => {
      await createNextStandings(h, competitionId)
      await mergeJoined(
        h,
        insertStandings(
          competitionId,
          totalsFromRound(
            roundPointsFrom(
              roundId,
              countersFromOneMatch(competitionId, roundId, before, { names: true }),
              matches,
              NAME_COLUMNS,
            ),
          ),
          { named: true },
        ),
      )
      await indexAndAnalyze(h, next(standingsPart(competitionId)), 'competition_id')
    }),
  ])
  // Both settle before the job fails, so no helper is still writing when the lock is released.
  for (const half of halves) if (half.status === 'rejected') throw half.reason
}

/** The transaction's snapshot, for other sessions to read exactly what it reads. */
async function exportSnapshot(trx: Database): Promise<string> {
  const { rows } = await sql<{ id: string }>`SELECT pg_export_snapshot() AS id`.execute(trx)
  const id = rows[0]!.id
  // SET TRANSACTION SNAPSHOT takes no parameter; the id goes into the statement as a literal.
  if (!/^[0-9A-F-]+$/i.test(id)) throw new Error(`unexpected snapshot id ${id}`)
  return id
}

/** Runs `job` in a transaction of its own on `pool` that reads `snapshot`, tuned for scoring. */
function inSnapshot(pool: Database, snapshot: string, job: (h: Database) => Promise<void>) {
  // Not run again on its own: it reads the scoring transaction's snapshot, and that transaction's
  // own retry (inTransaction) starts again from the beginning.
  // eslint-disable-next-line no-restricted-syntax
  const helper = pool.transaction()
  return helper.setIsolationLevel('repeatable read').execute(async (h) => {
    await sql`SET TRANSACTION SNAPSHOT ${sql.lit(snapshot)}`.execute(h)
    await tuneForScoring(h)
    await job(h)
  })
}

/**
 * Runs a statement that joins million-row inputs one row per user with merge joins rather than
 * hash joins. At a million tippers the inputs come sorted by user (index order) or sort in a
 * fraction of a second, and merge joins took about half the time of hash joins (decision 009):
 * hashing a million users spends its time in cache misses.
 */
async function mergeJoined<R>(db: Database, statement: RawBuilder<R>) {
  await sql`SELECT set_config('enable_hashjoin', 'off', true)`.execute(db)
  // no finally: a failed statement aborts the transaction, which undoes the setting anyway
  const result = await statement.execute(db)
  await sql`SELECT set_config('enable_hashjoin', 'on', true)`.execute(db)
  return result
}

// The partition's indexes, built once over the finished table (one sort each); the parents have
// none (migration 2026-11-24T0100). ANALYZE sees the transaction's own rows.
async function indexAndAnalyze(db: Database, name: string, key: 'round_id' | 'competition_id') {
  const table = sql.table(name)
  await sql`ALTER TABLE ${table} ADD CONSTRAINT ${sql.id(`${name}_pkey`)}
    PRIMARY KEY (user_id, ${sql.ref(key)})`.execute(db)
  await sql`CREATE INDEX ${sql.id(`${name}_position`)} ON ${table} (${sql.ref(key)}, position)`.execute(
    db,
  )
  await sql`ANALYZE ${table}`.execute(db)
}

/**
 * Puts the next tables in place of the partitions they replace. Dropping a partition locks its
 * parent until commit, so this is the job's last step.
 */
export async function swapIn(db: Database, competitionId: number, rounds: number[]): Promise<void> {
  await countGaps(db, competitionId, rounds)
  for (const roundId of rounds) await swap(db, 'round_scores', roundPart(roundId), roundId)
  await swap(db, 'standings', standingsPart(competitionId), competitionId)
}

/**
 * The deactivated tippers of each (points, margin) in the rebuilt rounds and the standings
 * (round 0), from the next tables (migration 2026-11-25T0100: a rank shown is the stored one
 * less those strictly above it). From the few deactivated users into each table's key.
 */
async function countGaps(db: Database, competitionId: number, rounds: number[]) {
  await sql`DELETE FROM rank_gaps WHERE competition_id = ${competitionId}
    AND round_id = ANY(${[0, ...rounds]}::int[])`.execute(db)
  const gone = (table: string, key: RawBuilder<unknown>, points: string, margin: string) =>
    sql`SELECT ${key} AS round_id, t.${sql.ref(points)} AS points, t.${sql.ref(margin)} AS margin
      FROM users u JOIN ${sql.table(table)} t ON t.user_id = u.id
      WHERE u.deactivated_at IS NOT NULL`
  const parts = [
    gone(next(standingsPart(competitionId)), sql`0`, 'total_points', 'total_margin'),
    ...rounds.map((id) => gone(nextRoundTable(id), sql`${id}::int`, 'points', 'margin')),
  ]
  await sql`INSERT INTO rank_gaps (competition_id, round_id, points, margin, n)
    SELECT ${competitionId}, round_id, points, margin, count(*)::int
    FROM (${sql.join(parts, sql` UNION ALL `)}) g GROUP BY 2, 3, 4`.execute(db)
}

async function swap(db: Database, parent: string, part: string, key: number) {
  const built = next(part)
  await sql`DROP TABLE IF EXISTS ${sql.table(part)}`.execute(db)
  await sql`ALTER TABLE ${sql.table(built)} RENAME TO ${sql.id(part)}`.execute(db)
  await sql`ALTER TABLE ${sql.table(part)} RENAME CONSTRAINT ${sql.id(`${built}_pkey`)}
    TO ${sql.id(`${part}_pkey`)}`.execute(db)
  await sql`ALTER INDEX ${sql.id(`${built}_position`)} RENAME TO ${sql.id(`${part}_position`)}`.execute(
    db,
  )
  await sql`ALTER TABLE ${sql.table(parent)} ATTACH PARTITION ${sql.table(part)}
    FOR VALUES IN (${sql.lit(key)})`.execute(db)
}

/**
 * GAME_RULES "Who is ranked": a tipper who has just registered gets their row in every round's
 * scores and in the standings, ranked, in the registering transaction, with exactly the numbers
 * a full re-score gives them (the same SQL, for one user). Registration order breaks ties, so
 * they go to the end of their (points, margin) group: the rows after them, all ranked below
 * them, move down one place, and nothing else changes (late joiners sit low, so those are few).
 * The caller holds the scoring lock (lockCompetitionsForPlacing), so registrations and scoring
 * never interleave. Nothing to do before the competition's first scoring, which ranks everyone
 * registered by then. Returns whether it placed anything.
 */
export async function placeTipper(
  db: Database,
  competitionId: number,
  userId: number,
): Promise<boolean> {
  const standings = standingsPart(competitionId)
  const { standingsBuilt, rounds } = await scoredParts(db, competitionId)
  if (!standingsBuilt) return false
  // The two placing statements are named and run on their generic plan, made once per connection
  // (decision 009, "Prepared statements, by choice"). They read and move one user's rows, so one
  // plan suits every user; planning the rounds' statement cost more than running it (at a million
  // tippers 10-13 ms against 11-21 ms, and 40-90 ms under a registration burst, where it took
  // PostgreSQL's CPU from the reads beside it). Forced, because PostgreSQL otherwise plans each
  // connection's first five calls for their values before it tries the generic plan, and a burst
  // of sign-ups starts on cold connections. Back to the server's setting for the rest of the
  // registration's transaction.
  await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(db)
  // Every scored round in one statement (a row's place in one partition never depends on
  // another's): a registration is a few round trips, not two for each of the season's rounds.
  if (rounds.length > 0)
    await sql`${PREPARED}WITH ${sql.join(
      rounds.map((roundId) =>
        placeRow(
          `r${roundId}`,
          roundPart(roundId),
          ['round_id', roundId],
          roundColumns,
          ['points', 'margin'],
          {
            row: sql`SELECT ${roundColumnsUnranked} FROM (${roundPointsFrom(
              roundId,
              countersFromAllTips(roundId, userId),
            )}) r`,
          },
        ),
      ),
      sql`, `,
    )} SELECT 1`.execute(db)
  // After the rounds' statement, whose rows a statement of its own sees.
  await sql`${PREPARED}WITH ${placeRow(
    's',
    standings,
    ['competition_id', competitionId],
    standingsColumns,
    ['total_points', 'total_margin'],
    {
      row: sql`
      SELECT ${competitionId}::int AS competition_id, u.id AS user_id,
        coalesce(sum(rs.points), 0)::int AS total_points,
        coalesce(sum(rs.margin), 0)::int AS total_margin,
        u.team_name, u.first_name, u.last_name, u.deactivated_at IS NULL AS active
      FROM users u
      LEFT JOIN round_scores rs ON rs.user_id = u.id AND rs.competition_id = ${competitionId}
      WHERE u.id = ${userId}
      GROUP BY u.id`,
    },
  )} SELECT 1`.execute(db)
  await sql`SET LOCAL plan_cache_mode TO DEFAULT`.execute(db)
  // A deactivated account registered by an admin is placed, and counted out of the ranks.
  await sql`INSERT INTO rank_gaps AS g (competition_id, round_id, points, margin, n)
    SELECT competition_id, round_id, points, margin, 1 FROM (
      SELECT competition_id, round_id, points, margin FROM round_scores
      WHERE user_id = ${userId} AND competition_id = ${competitionId}
      UNION ALL
      SELECT competition_id, 0, total_points, total_margin FROM standings
      WHERE user_id = ${userId} AND competition_id = ${competitionId}
    ) r
    WHERE EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND deactivated_at IS NOT NULL)
    ON CONFLICT (competition_id, round_id, points, margin) DO UPDATE SET n = g.n + excluded.n`.execute(
    db,
  )
  // My season's rank history counts them in every round it covers (migration 2026-11-27T0200).
  await sql`SELECT season_history_delta(${competitionId}::int, ${userId}::int, 1)
    WHERE EXISTS (SELECT 1 FROM users WHERE id = ${userId} AND deactivated_at IS NULL)`.execute(db)
  await bumpScoresVersion(db, competitionId)
  return true
}

const roundColumnsUnranked = sql.raw(`round_id, user_id, competition_id, correct, correct_own,
  correct_auto, autos, counted, tip_points, bonus, points, margin`)
const standingsColumns = sql.raw(`competition_id, user_id, total_points, total_margin,
  team_name, first_name, last_name, active, rank, position`)

/** Whether the competition's standings are built, and its rounds (in order) that are scored. */
async function scoredParts(
  db: Database,
  competitionId: number,
): Promise<{ standingsBuilt: boolean; rounds: number[] }> {
  const { rows } = await sql<{ id: number | null }>`
    SELECT NULL::int AS id WHERE to_regclass(${standingsPart(competitionId)}) IS NOT NULL
    UNION ALL
    (SELECT id FROM rounds
     WHERE competition_id = ${competitionId} AND to_regclass(${ROUND_PART}::text || id) IS NOT NULL
     ORDER BY number)`.execute(db)
  return {
    standingsBuilt: rows.some((r) => r.id === null),
    rounds: rows.flatMap((r) => (r.id === null ? [] : [r.id])),
  }
}

/**
 * The common table expressions (named from `name`) that insert `row` (every column but rank and
 * position) into the partition `part` after the last row ranked at or above it, and move the rows
 * after that down one place and one rank (they are all strictly below it). `key` = `value` fixes
 * the partition's key, so the rows are walked backwards through its (key, position) index from
 * the bottom, as far as the new row's place.
 */
function placeRow(
  name: string,
  part: string,
  [key, value]: ['round_id' | 'competition_id', number],
  columns: RawBuilder<unknown>,
  [points, margin]: [string, string],
  { row }: { row: RawBuilder<unknown> },
) {
  const t = sql.table(part)
  const p = sql.ref(points)
  const m = sql.ref(margin)
  const k = sql.ref(key)
  const [r, above, placed, moved, inserted] = ['row', 'above', 'placed', 'moved', 'inserted'].map(
    (what) => sql.id(`${name}_${what}`),
  )
  return sql`
    ${r} AS (${row}),
    ${above} AS (
      SELECT t.position, t.rank, t.${p} AS points, t.${m} AS margin
      FROM ${t} t CROSS JOIN ${r} r
      WHERE t.${k} = ${value} AND (t.${p} > r.${p} OR (t.${p} = r.${p} AND t.${m} <= r.${m}))
      ORDER BY t.position DESC LIMIT 1
    ),
    ${placed} AS (
      SELECT r.*, coalesce(a.position, 0) + 1 AS position,
        CASE WHEN a.points = r.${p} AND a.margin = r.${m} THEN a.rank
             ELSE coalesce(a.position, 0) + 1 END AS rank
      FROM ${r} r LEFT JOIN ${above} a ON true
    ),
    ${moved} AS (
      UPDATE ${t} SET position = position + 1, rank = rank + 1
      WHERE ${k} = ${value} AND position >= (SELECT position FROM ${placed})
    ),
    ${inserted} AS (
      INSERT INTO ${t} (${columns}) SELECT ${columns} FROM ${placed}
    )`
}

export const competitionRoundIds = async (db: Database, competitionId: number): Promise<number[]> =>
  (
    await db
      .selectFrom('rounds')
      .select('id')
      .where('competition_id', '=', competitionId)
      .orderBy('number')
      .execute()
  ).map((r) => r.id)

/**
 * Marks My season's rank history stale from the first of `rounds` (migration 2026-11-27T0200):
 * one appended row, which waits on no lock, so a result's transaction gains nothing measurable;
 * the scheduler's season_history job rebuilds from there.
 */
export async function markHistoryStale(
  db: Database,
  competitionId: number,
  rounds: number[],
): Promise<void> {
  if (rounds.length === 0) return
  await sql`INSERT INTO season_history_stale (competition_id, from_round)
    SELECT ${competitionId}::int, min(number) FROM rounds WHERE id = ANY(${rounds}::int[])
    HAVING count(*) > 0`.execute(db)
}

/** Tells caches of anything built from scores that they are out of date. */
export async function bumpScoresVersion(db: Database, competitionId: number): Promise<void> {
  await db
    .updateTable('competitions')
    .set((eb) => ({ scores_version: eb('scores_version', '+', 1) }))
    .where('id', '=', competitionId)
    .execute()
}

/** The advisory locks' first key: a competition's scoring lock is (SCORING_LOCK, its id). */
const SCORING_LOCK = 7311

/**
 * Serialises scoring across processes for the rest of the transaction, and sets the transaction
 * up for million-row statements: sorts of a million rows in memory rather than on disk
 * (work_mem, and maintenance_work_mem for the index builds, which split it among their parallel
 * workers), and no JIT, which spent longer compiling the round's statement than it saved
 * (decision 009).
 *
 * The table lock comes first, before this transaction reads any scores: the swap at the end
 * takes the parents exclusively, and two scoring transactions that had each read them (two
 * competitions' results at once) would otherwise wait for each other. SHARE ROW EXCLUSIVE
 * conflicts with itself and not with readers, so scoring runs one at a time while reads go on.
 * It also holds off the trigger that copies a changed user's names into standings (migration
 * 2026-11-24T0300) until this transaction ends: a change committed before the lock is in what
 * this job reads, and one made after lands in the table this job swaps in, not the one it drops.
 */
export async function lockCompetitionScoring(db: Database, competitionId: number): Promise<void> {
  await lockScoringTables(db)
  await sql`SELECT pg_advisory_xact_lock(${SCORING_LOCK}, ${competitionId})`.execute(db)
  await tuneForScoring(db)
}

/**
 * The scoring locks of the given competitions (the table lock, then each competition's in id
 * order), in two statements, for a registration about to place a tipper in them (placeTipper): it
 * reads and writes a few rows, so the settings for million-row statements are left alone.
 */
export async function lockCompetitionsForPlacing(
  db: Database,
  competitionIds: readonly number[],
): Promise<void> {
  await lockScoringTables(db)
  const ids = [...competitionIds].sort((a, b) => a - b)
  // unnest yields the array's elements in order, so the locks are taken in that order
  await sql`SELECT count(pg_advisory_xact_lock(${SCORING_LOCK}, id)) FROM unnest(${ids}::int[]) AS id`.execute(
    db,
  )
}

/**
 * The table lock of lockCompetitionScoring alone, for every competition at once. A transaction
 * holding it may take it again (and the competition's own) at no cost.
 */
export async function lockScoringTables(db: Database): Promise<void> {
  await sql`LOCK TABLE round_scores, standings, rank_gaps IN SHARE ROW EXCLUSIVE MODE`.execute(db)
}

/** The transaction-local settings above, without the locks (the helpers' transactions). */
const tuneForScoring = (db: Database) =>
  sql`SELECT set_config('work_mem', ${SCORING_WORK_MEM}, true),
    set_config('maintenance_work_mem', ${SCORING_WORK_MEM}, true),
    set_config('jit', 'off', true)`.execute(db)

/** Enough to sort a million scores in memory (about 80 MB); only scoring transactions use it. */
const SCORING_WORK_MEM = '256MB'

/**
 * GAME_RULES "Live projections", as the scorer computes them: for each side of the live match
 * `matchId`, every registered user's round (points, margin) if that side won with `sixes` hit
 * (the margin game's final count), and their totals over the other rounds (others_points,
 * others_margin). It is roundPointsFrom, the statement a result runs, on the round's matches with
 * that one written complete; the counters are the stored ones plus that match's tips, as for a
 * result, or all the round's tips when the stored rows predate the counters. Other live matches
 * keep no result, so they give nothing. `only` (a query of user ids) restricts it to some users.
 * Columns: side, user_id, points, margin, others_points, others_margin. Reads only.
 */
export async function projectedRounds(
  db: Database,
  p: {
    competitionId: number
    roundId: number
    matchId: number
    sides: readonly number[]
    sixes: number
    only?: RawBuilder<unknown>
  },
): Promise<RawBuilder<{ side: number; user_id: number; points: number; margin: number }>> {
  const rows = await roundMatchRows(db, p.roundId)
  const live = rows.find((m) => m.id === p.matchId)
  if (!live || live.status === 'complete')
    throw new Error(`match ${p.matchId} is not in progress in round ${p.roundId}`)
  const stale = (
    await sql<{ stale: boolean }>`
      SELECT correct_own IS NULL AS stale FROM round_scores WHERE round_id = ${p.roundId} LIMIT 1
    `.execute(db)
  ).rows[0]?.stale
  // The match is not complete, so the stored counters have nothing of it to take back.
  const counters = stale
    ? sql`SELECT a.user_id, a.seq, a.correct_own, a.correct_auto, a.autos, a.predicted,
          NULL::int AS keep_margin,
          coalesce(s.total_points, 0) - coalesce(o.points, 0) AS others_points,
          coalesce(s.total_margin, 0) - coalesce(o.margin, 0) AS others_margin
        FROM (${countersFromAllTips(p.roundId, undefined, p.only)}) a
        LEFT JOIN round_scores o ON o.round_id = ${p.roundId} AND o.user_id = a.user_id
        LEFT JOIN standings s ON s.competition_id = ${p.competitionId} AND s.user_id = a.user_id`
    : countersFromOneMatch(
        p.competitionId,
        p.roundId,
        { id: p.matchId, complete: false, winnerSquadId: null },
        { only: p.only },
      )
  const won = (side: number) =>
    matchValues(
      p.roundId,
      rows.map((m) =>
        m.id === p.matchId
          ? {
              ...m,
              status: 'complete' as const,
              winner_squad_id: side,
              sixes: m.is_margin_game ? p.sixes : m.sixes,
            }
          : m,
      ),
    )
  return sql`${sql.join(
    p.sides.map(
      (side) => sql`
        SELECT ${side}::int AS side, r.user_id, r.points, r.margin,
          r.others_points::int AS others_points, r.others_margin::int AS others_margin
        FROM (${roundPointsFrom(p.roundId, counters, won(side))}) r`,
    ),
    sql` UNION ALL `,
  )}`
}
