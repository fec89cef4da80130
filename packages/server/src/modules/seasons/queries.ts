import { sql } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { SeasonFile } from '@tipping/contract/season-file'

export async function upsertCompetition(
  db: Database,
  c: { identifier: string; file: SeasonFile },
): Promise<number> {
  const { file } = c
  const row = await db
    .insertInto('competitions')
    .values({
      sport: file.sport,
      identifier: c.identifier,
      season: file.season,
      name: file.name,
      year: file.year,
      golden_week_round: file.goldenWeekRound,
      ladder_points: JSON.stringify(file.ladderPoints),
      assumptions: JSON.stringify(file.assumptions),
      sources: JSON.stringify(file.sources),
    })
    .onConflict((oc) =>
      oc.column('identifier').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        year: eb.ref('excluded.year'),
        golden_week_round: eb.ref('excluded.golden_week_round'),
        ladder_points: eb.ref('excluded.ladder_points'),
        assumptions: eb.ref('excluded.assumptions'),
        sources: eb.ref('excluded.sources'),
      })),
    )
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

/** The newest imported season of a sport is the one being played. */
export async function makeCurrent(
  db: Database,
  sport: string,
  competitionId: number,
): Promise<void> {
  await db
    .updateTable('competitions')
    .set({ is_current: false })
    .where('sport', '=', sport)
    .execute()
  await db
    .updateTable('competitions')
    .set({ is_current: true })
    .where('id', '=', competitionId)
    .execute()
}

export async function upsertSquads(db: Database, sport: string, squads: SeasonFile['squads']) {
  return db
    .insertInto('squads')
    .values(
      squads.map((s) => ({
        sport,
        code: s.code,
        name: s.name,
        short_name: s.shortName,
        nickname: s.nickname,
        colour: s.colour,
        second_colour: s.secondColour,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['sport', 'code']).doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        short_name: eb.ref('excluded.short_name'),
        nickname: eb.ref('excluded.nickname'),
        colour: eb.ref('excluded.colour'),
        second_colour: eb.ref('excluded.second_colour'),
      })),
    )
    .returning(['id', 'code'])
    .execute()
}

export async function upsertVenues(db: Database, venues: SeasonFile['venues']) {
  return db
    .insertInto('venues')
    .values(
      venues.map((v) => ({
        key: v.key,
        name: v.name,
        city: v.city,
        state: v.state,
        timezone: v.timezone,
      })),
    )
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        name: eb.ref('excluded.name'),
        city: eb.ref('excluded.city'),
        state: eb.ref('excluded.state'),
        timezone: eb.ref('excluded.timezone'),
      })),
    )
    .returning(['id', 'key'])
    .execute()
}

export async function upsertRound(
  db: Database,
  competitionId: number,
  number: number,
  label: string,
) {
  const row = await db
    .insertInto('rounds')
    .values({ competition_id: competitionId, number, label })
    .onConflict((oc) => oc.columns(['competition_id', 'number']).doUpdateSet({ label }))
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export interface MatchWrite {
  competitionId: number
  roundId: number
  number: number
  startsAt: Date
  venueId: number
  homeSquadId: number
  awaySquadId: number
  stage: 'regular' | 'final'
  /** The fixture marks this match as its round's margin game. */
  marginGameFlagged: boolean
  assumed: string[]
}

/**
 * Writes the fixture's matches and their margin game marks. The margin game in effect
 * (is_margin_game) is the caller's next step (settleMarginGames); here a match keeps it only while
 * it stays in its round, so no round ever holds two.
 */
export async function upsertMatches(db: Database, matches: MatchWrite[]) {
  // The mark may move between matches of a round: clear the marks first so the one-mark-per-round
  // index is never violated halfway through.
  const roundIds = [...new Set(matches.map((m) => m.roundId))]
  if (roundIds.length > 0) {
    await db
      .updateTable('matches')
      .set({ margin_game_flagged: false })
      .where('round_id', 'in', roundIds)
      .where('margin_game_flagged', '=', true)
      .execute()
  }
  await db
    .insertInto('matches')
    .values(
      matches.map((m) => ({
        competition_id: m.competitionId,
        round_id: m.roundId,
        number: m.number,
        starts_at: m.startsAt,
        venue_id: m.venueId,
        home_squad_id: m.homeSquadId,
        away_squad_id: m.awaySquadId,
        stage: m.stage,
        margin_game_flagged: m.marginGameFlagged,
        assumed: JSON.stringify(m.assumed),
      })),
    )
    .onConflict((oc) =>
      oc.columns(['competition_id', 'number']).doUpdateSet((eb) => ({
        round_id: eb.ref('excluded.round_id'),
        starts_at: eb.ref('excluded.starts_at'),
        venue_id: eb.ref('excluded.venue_id'),
        home_squad_id: eb.ref('excluded.home_squad_id'),
        away_squad_id: eb.ref('excluded.away_squad_id'),
        stage: eb.ref('excluded.stage'),
        margin_game_flagged: eb.ref('excluded.margin_game_flagged'),
        is_margin_game: sql<boolean>`matches.is_margin_game AND matches.round_id = excluded.round_id`,
        assumed: eb.ref('excluded.assumed'),
        updated_at: sql`now()`,
      })),
    )
    .execute()
}

/** A competition's matches as the margin game rule sees them (rules/margin-game.ts). */
export const marginGameCandidates = (db: Database, competitionId: number) =>
  db
    .selectFrom('matches as m')
    .innerJoin('rounds as r', 'r.id', 'm.round_id')
    .select([
      'm.id',
      'm.number',
      'm.round_id',
      'r.number as round_number',
      'm.starts_at',
      'm.status',
      'm.margin_game_flagged',
      'm.is_margin_game',
    ])
    .where('m.competition_id', '=', competitionId)
    .execute()
export type MarginGameCandidateRow = Awaited<ReturnType<typeof marginGameCandidates>>[number]

/**
 * Moves margin games: `unset` lose it before `set` gain it (one per round at every step), and
 * margins tipped on `voided` no longer count (GAME_RULES.md: a margin only on the margin game).
 */
export async function writeMarginGames(
  db: Database,
  w: { unset: number[]; set: number[]; voided: number[] },
) {
  if (w.unset.length > 0)
    await db
      .updateTable('matches')
      .set({ is_margin_game: false, updated_at: sql`now()` })
      .where('id', 'in', w.unset)
      .execute()
  if (w.set.length > 0)
    await db
      .updateTable('matches')
      .set({ is_margin_game: true, updated_at: sql`now()` })
      .where('id', 'in', w.set)
      .execute()
  if (w.voided.length > 0)
    await db
      .updateTable('tips')
      .set({ margin: null })
      .where('match_id', 'in', w.voided)
      .where('margin', 'is not', null)
      .execute()
}
