import fs from 'node:fs/promises'
import path from 'node:path'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { inject } from 'vitest'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { asRoundNumber } from '@tipping/contract/ids'
import type { SeasonFile } from '@tipping/contract/season-file'
import { buildApp } from '../src/app.ts'
import { AdjustableClock } from '../src/clock.ts'
import { DEV_RECEIPT_SECRET, REPO_ROOT, testConfig, type Config } from '../src/config.ts'
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts'
import type { Database } from '../src/db/schema.ts'
import { applyResultsFile, readResultsFile } from '../src/modules/results/service.ts'
import { importSeason, readSeasonFile } from '../src/modules/seasons/service.ts'
import { Scheduler } from '../src/jobs/scheduler.ts'
import { MailDelivery } from '../src/modules/mail/service.ts'
import { Publisher } from '../src/modules/publisher/service.ts'
import { ReminderJob } from '../src/modules/reminders/service.ts'
import { withDatabase } from './global-setup.ts'
import type { DevAccount } from '../src/idp/accounts.ts'
import os from 'node:os'

export const engine = (): 'postgres' | 'pglite' =>
  inject('postgresTemplate') ? 'postgres' : 'pglite'

/** A fresh, migrated database: PGlite from the template tarball, or a clone on PostgreSQL. */
export async function freshDatabase(): Promise<DatabaseHandle> {
  const template = inject('postgresTemplate')
  const url = process.env.DATABASE_URL
  if (url && template) {
    const name = `tipping_test_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`)
    await admin.end()
    const handle = await openDatabase({ databaseUrl: withDatabase(url, name), poolSize: 10 })
    return {
      ...handle,
      close: async () => {
        await handle.close()
        const drop = new pg.Client({ connectionString: url })
        await drop.connect()
        await drop.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await drop.end()
      },
    }
  }
  const tarball = await fs.readFile(inject('pgliteTemplate'))
  return openDatabase({ pgliteLoadDataDir: new Blob([tarball]) })
}

export interface TestApp {
  app: FastifyInstance
  db: Database
  clock: AdjustableClock
  staticDir: string
  close(): Promise<void>
}

/** The real app on a fresh database, with a clock the test controls. */
export async function createTestApp(
  opts: {
    now?: Date
    config?: Partial<Config>
    devSsoAccounts?: readonly DevAccount[]
    /** Where the app's log lines go (set LOG_LEVEL too: tests default to silent). */
    logStream?: { write(line: string): void }
  } = {},
): Promise<TestApp> {
  const handle = await freshDatabase()
  const clock = new AdjustableClock(opts.now ?? new Date('2025-12-01T00:00:00Z'))
  const staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tipping-static-'))
  const config = testConfig({
    STATIC_DIR: staticDir,
    WEB_DIST_DIR: path.join(staticDir, 'no-web'),
    ...opts.config,
  })
  const { app } = await buildApp({
    config,
    db: handle.db,
    engine: handle.engine,
    clock,
    listen: handle.listen,
    ...(opts.devSsoAccounts ? { devSsoAccounts: opts.devSsoAccounts } : {}),
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
  })
  await app.ready()
  return {
    app,
    db: handle.db,
    clock,
    staticDir,
    close: async () => {
      await app.close()
      await handle.close()
      await fs.rm(staticDir, { recursive: true, force: true })
    },
  }
}

/**
 * A second app over the test app's database (the caches of production on, as `config` sets them)
 * counting the statements it sends whose text contains `marker`: how many builds or counts a
 * crowd of reads caused (the cold-read tests of decisions 020 and 032).
 */
export async function appCountingStatements(
  t: TestApp,
  marker: string,
  config: Partial<Config>,
): Promise<{ app: FastifyInstance; sent: () => number }> {
  let sent = 0
  const db = t.db.withPlugin({
    transformQuery: (args) => {
      const node = args.node as { kind: string; sqlFragments?: readonly string[] }
      if (node.kind === 'RawNode' && node.sqlFragments?.join('').includes(marker)) sent++
      return args.node
    },
    transformResult: async (args) => args.result,
  })
  const { app } = await buildApp({
    config: testConfig({ STATIC_DIR: t.staticDir, ...config }),
    db,
    engine: engine(),
    clock: t.clock,
  })
  return { app, sent: () => sent }
}

/** The id of the sport's current competition (the one the game's routes serve). */
export const currentCompetitionId = async (db: Database, sport: 'bbl' | 'wbbl'): Promise<number> =>
  (
    await db
      .selectFrom('competitions')
      .select('id')
      .where('sport', '=', sport)
      .where('is_current', '=', true)
      .executeTakeFirstOrThrow()
  ).id

/** A competition's round `number` and its first `count` matches in play order. */
export async function roundAndMatches(
  db: Database,
  competitionId: number,
  number: number,
  count: number,
) {
  const round = await db
    .selectFrom('rounds')
    .select('id')
    .where('competition_id', '=', competitionId)
    .where('number', '=', number)
    .executeTakeFirstOrThrow()
  const matches = await db
    .selectFrom('matches')
    .select(['id', 'home_squad_id', 'away_squad_id'])
    .where('round_id', '=', round.id)
    .orderBy('starts_at')
    .orderBy('number')
    .limit(count)
    .execute()
  return { roundId: round.id, matches }
}

export const seasonPath = (sport: 'bbl' | 'wbbl') =>
  path.join(REPO_ROOT, 'data/seasons', `${sport}-2025-26.json`)
export const resultsPath = (sport: 'bbl' | 'wbbl') =>
  path.join(REPO_ROOT, 'data/results', `${sport}-2025-26.json`)

/** Loads the real 2025-26 fixtures (unshifted) of both sports. */
export async function loadSeasons(db: Database): Promise<void> {
  for (const sport of ['bbl', 'wbbl'] as const) {
    await importSeason(db, await readSeasonFile(seasonPath(sport)), { sponsorPrefix: 'xyz' })
  }
}

export async function loadResults(db: Database, sport: 'bbl' | 'wbbl', now: Date): Promise<number> {
  return applyResultsFile({ db }, await readResultsFile(resultsPath(sport)), {
    now,
    minAgeMs: 4 * 3_600_000,
  })
}

/** Pulls the session cookie out of a response, for the next request. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'tip_session')
  if (!cookie) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`)
  return `tip_session=${cookie.value}`
}

/** Signs in with registerUser's password; the new session's cookie. */
export async function signIn(app: FastifyInstance, email: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: 'correct horse battery' },
  })
  return sessionCookie(res)
}

let counter = 0
export async function registerUser(
  app: FastifyInstance,
  overrides: Record<string, unknown> = {},
): Promise<{ cookie: string; id: number; email: string }> {
  const email = `user${++counter}-${randomBytes(3).toString('hex')}@example.com`
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: {
      email,
      password: 'correct horse battery',
      firstName: 'Test',
      lastName: 'Tipper',
      ...overrides,
    },
  })
  if (res.statusCode !== 200) throw new Error(`register failed ${res.statusCode}: ${res.body}`)
  return { cookie: sessionCookie(res), id: res.json().success.user.id, email }
}

/** Makes a registered user an admin (who also tips BBL), straight in the database. */
export const makeAdmin = (db: Database, userId: number) =>
  db
    .updateTable('users')
    .set({ roles: ['ROLE_ADMIN', 'ROLE_USER_BBL'] })
    .where('id', '=', userId)
    .execute()

/** A BBL league from round 1, run by the user whose session `cookie` is. */
export async function createLeague(
  app: FastifyInstance,
  cookie: string,
  name: string,
): Promise<{ id: number; code: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/bbl/league',
    headers: { cookie },
    payload: { name, startRound: 1 },
  })
  if (res.statusCode !== 200) throw new Error(`league failed ${res.statusCode}: ${res.body}`)
  return res.json().success.league as { id: number; code: string }
}

/** Two BBL squads and a venue: the least a made-up fixture needs (the scoring property tests). */
export async function twoSquadsAndAVenue(
  db: Database,
): Promise<{ squads: [number, number]; venue: number }> {
  const rows = await db
    .insertInto('squads')
    .values(
      ['AAA', 'BBB'].map((code) => ({
        sport: 'bbl',
        code,
        name: code,
        short_name: code,
        nickname: code,
        colour: '#000000',
        second_colour: '#ffffff',
      })),
    )
    .returning('id')
    .execute()
  const venue = await db
    .insertInto('venues')
    .values({ key: 'v', name: 'V', city: 'C', state: 'S', timezone: 'UTC' })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { squads: [rows[0]!.id, rows[1]!.id], venue: venue.id }
}

/**
 * A one-round BBL|13 replay season of these fixtures (real squads and the first venue, 08:15 UTC
 * starts): the season Cricsheet's 2023-24 files complete. The match at `marginGame` (an index) is
 * the round's margin game.
 */
export async function replaySeasonFile(
  matches: { date: string; teams: [string, string] }[],
  marginGame: number,
): Promise<SeasonFile> {
  const real = await readSeasonFile(seasonPath('bbl'))
  const code = (name: string) => real.squads.find((s) => s.name === name)!.code
  return {
    ...real,
    season: 13,
    name: 'BBL|13 replay',
    year: '2023-24',
    goldenWeekRound: null,
    rounds: [
      {
        number: asRoundNumber(1),
        label: 'Week 1',
        matches: matches.map((m, i) => ({
          number: i + 1,
          startsAt: `${m.date}T08:15:00Z`,
          venue: real.venues[0]!.key,
          home: code(m.teams[0]),
          away: code(m.teams[1]),
          marginGame: i === marginGame,
          stage: 'regular' as const,
          assumed: [],
        })),
      },
    ],
  }
}

/** The mail delivery's unsubscribe links (decision 043) as the app makes them without a key set. */
export const unsubscribeLinks = (origin: string) => ({ origin, secret: DEV_RECEIPT_SECRET })

/**
 * A scheduler that sends reminders through the SMTP server at `smtpUrl`, as main.ts wires it
 * (one pass per `tick()`); `reminders` replaces the default 24-hour reminder job, `log` the
 * quiet one (a test that asserts what was logged).
 */
export function mailScheduler(
  t: Pick<TestApp, 'db' | 'clock' | 'staticDir'>,
  o: { smtpUrl: string; origin: string; reminders?: ReminderJob; log?: unknown },
): Scheduler {
  const log = o.log ?? { info: () => {}, warn: () => {}, error: () => {} }
  return new Scheduler({
    db: t.db,
    clock: t.clock,
    publisher: new Publisher(t.db, t.clock, { staticDir: t.staticDir, logosDir: t.staticDir }),
    mail: new MailDelivery(t.db, t.clock, {
      smtpUrl: o.smtpUrl,
      from: 'Tipping <no-reply@tipping.example>',
      log: log as never,
      unsubscribe: unsubscribeLinks(o.origin),
    }),
    reminders:
      o.reminders ?? new ReminderJob(t.db, t.clock, { leadHours: 24, appOrigin: o.origin }),
    log: log as never,
    intervalMs: 60_000,
  })
}
