import { DEFAULT_SITE_APP_CONFIG } from '@tipping/contract/site-rules'
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUSTRALIAN_STATES } from '@tipping/contract/site'
import {
  ladderFileSchema,
  roundsFileSchema,
  squadsFileSchema,
  statesFileSchema,
  venuesFileSchema,
} from '@tipping/contract/static-files'
import { Publisher } from '../src/modules/publisher/service.ts'
import { REPO_ROOT } from '../src/config.ts'
import { createTestApp, loadResults, loadSeasons, type TestApp } from './helpers.ts'

const NOW = new Date('2026-01-02T12:00:00Z')
let t: TestApp
let publisher: Publisher

beforeAll(async () => {
  t = await createTestApp({ now: NOW })
  await loadSeasons(t.db)
  await loadResults(t.db, 'bbl', NOW)
  publisher = new Publisher(t.db, t.clock, {
    staticDir: t.staticDir,
    logosDir: path.join(REPO_ROOT, 'data/logos'),
  })
})
afterAll(() => t.close())

describe('static publisher', () => {
  it('writes rounds, squads and venues per sport, logos, and checksums of each', async () => {
    const files = await publisher.publishAll()
    for (const sport of ['bbl', 'wbbl']) {
      expect(files).toHaveProperty(`${sport}/rounds.json`)
      const rounds = roundsFileSchema.parse(
        JSON.parse(await fs.readFile(path.join(t.staticDir, sport, 'rounds.json'), 'utf8')),
      )
      expect(rounds.rounds.length).toBeGreaterThan(3)
      expect(rounds.competition.identifier).toBe(`xyz-${sport}-${sport === 'bbl' ? 15 : 11}`)
      const squads = squadsFileSchema.parse(
        JSON.parse(await fs.readFile(path.join(t.staticDir, sport, 'squads.json'), 'utf8')),
      )
      expect(squads.squads).toHaveLength(8)
      for (const s of squads.squads) expect(files[s.logo]).toBeDefined()
      venuesFileSchema.parse(
        JSON.parse(await fs.readFile(path.join(t.staticDir, sport, 'venues.json'), 'utf8')),
      )
    }
    const bbl = roundsFileSchema.parse(
      JSON.parse(await fs.readFile(path.join(t.staticDir, 'bbl/rounds.json'), 'utf8')),
    )
    expect(bbl.rounds.map((r) => r.status).slice(0, 4)).toEqual([
      'complete',
      'complete',
      'active',
      'scheduled',
    ])
    const checksums = JSON.parse(
      await fs.readFile(path.join(t.staticDir, 'checksums.json'), 'utf8'),
    )
    expect(checksums.files).toEqual(files)
  })

  it('publishes states.json, listed in checksums.json, with every state a venue names', async () => {
    const files = await publisher.publishAll()
    expect(files['states.json']).toMatch(/\S/)
    const states = statesFileSchema.parse(
      JSON.parse(await fs.readFile(path.join(t.staticDir, 'states.json'), 'utf8')),
    )
    expect(states).toEqual({ country: 'AU', states: AUSTRALIAN_STATES })
    const codes = states.states.map((s) => s.code)
    for (const sport of ['bbl', 'wbbl']) {
      const venues = venuesFileSchema.parse(
        JSON.parse(await fs.readFile(path.join(t.staticDir, sport, 'venues.json'), 'utf8')),
      )
      for (const v of venues.venues) expect(codes).toContain(v.state)
    }
    // A content edit republishes checksums.json alone: states.json stays listed.
    const fresh = new Publisher(t.db, t.clock, { staticDir: t.staticDir, logosDir: '/none' })
    expect(await fresh.publishContent()).toHaveProperty('states.json')
  })

  it('gives every team ladder row its conference and division, null in the Big Bash', async () => {
    await publisher.publishAll()
    for (const sport of ['bbl', 'wbbl']) {
      const { ladder } = ladderFileSchema.parse(
        JSON.parse(await fs.readFile(path.join(t.staticDir, sport, 'ladder.json'), 'utf8')),
      )
      expect(ladder).toHaveLength(8)
      for (const row of ladder) {
        expect(row).toHaveProperty('conference', null)
        expect(row).toHaveProperty('division', null)
      }
    }
  })

  it('keeps a checksum stable when nothing changed and changes it when a result arrives', async () => {
    const first = await publisher.publishAll()
    const second = await publisher.publishAll()
    expect(second['bbl/rounds.json']).toBe(first['bbl/rounds.json'])
    t.clock.set(new Date('2026-01-03T20:00:00Z'))
    await loadResults(t.db, 'bbl', t.clock.now())
    const third = await publisher.publishAll()
    expect(third['bbl/rounds.json']).not.toBe(first['bbl/rounds.json'])
    expect(third['wbbl/squads.json']).toBe(first['wbbl/squads.json'])
  })

  it('publishes only the allow-listed browser settings', async () => {
    const withLink = new Publisher(t.db, t.clock, {
      staticDir: t.staticDir,
      logosDir: path.join(REPO_ROOT, 'data/logos'),
      matchCentreUrl: 'https://centre.example/m/{match}',
    })
    const files = await withLink.publishAll()
    expect(files['app-config.json']).toBeDefined()
    const config = JSON.parse(await fs.readFile(path.join(t.staticDir, 'app-config.json'), 'utf8'))
    expect(config).toEqual({
      matchCentreUrl: 'https://centre.example/m/{match}',
      ...DEFAULT_SITE_APP_CONFIG,
      // plus the content switches (defaults here: in season, login on, no banner)
      offseason: false,
      loginEnabled: true,
      topBanner: null,
    })
  })

  it('serves the files under /static/ with an ETag and answers 304 to a revalidation', async () => {
    await publisher.publishAll()
    const res = await t.app.inject({ url: '/static/bbl/squads.json' })
    expect(res.statusCode).toBe(200)
    expect(res.headers.etag).toBeDefined()
    const again = await t.app.inject({
      url: '/static/bbl/squads.json',
      headers: { 'if-none-match': String(res.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
    const logo = await t.app.inject({ url: '/static/logo/1.webp' })
    expect(logo.statusCode).toBe(200)
    expect(logo.headers['content-type']).toBe('image/webp')
  })
})

/** Every file under the folder but checksums.json, hashed here (not by the publisher's code). */
async function checksumsOnDisk(root: string): Promise<Record<string, string>> {
  const sums: Record<string, string> = {}
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    const relative = path.relative(root, file).split(path.sep).join('/')
    if (relative === 'checksums.json') continue
    sums[relative] = createHash('sha256')
      .update(await fs.readFile(file))
      .digest('hex')
      .slice(0, 16)
  }
  return sums
}

describe('publishing from several processes into one folder', () => {
  // 'postgres': the lock across processes; 'pglite': turns within the one process PGlite allows,
  // without holding its one connection while files are written.
  it.each(['postgres', 'pglite'] as const)(
    'leaves checksums.json true to the files, however two publishers interleave (%s)',
    async (engine) => {
      const options = {
        staticDir: t.staticDir,
        logosDir: path.join(REPO_ROOT, 'data/logos'),
        engine,
      }
      // Two publishers with their own memory stand for two processes (the API and the worker).
      const api = new Publisher(t.db, t.clock, options)
      const worker = new Publisher(t.db, t.clock, options)
      const round = await t.db
        .selectFrom('rounds')
        .innerJoin('competitions', 'competitions.id', 'rounds.competition_id')
        .select('rounds.id')
        .where('competitions.sport', '=', 'bbl')
        .where('competitions.is_current', '=', true)
        .orderBy('rounds.number')
        .executeTakeFirstOrThrow()
      const relabel = (label: string) =>
        t.db.updateTable('rounds').set({ label }).where('id', '=', round.id).execute()
      for (let i = 0; i < 20; i++) {
        // A change to a published file lands while both publish, and one of them then writes
        // checksums.json after a content edit only: without a lock and checksums from the disk,
        // the last checksums.json written can list a rounds.json the other process replaced.
        await Promise.all([
          api.publishAll(),
          relabel(`Round one, take ${i}`),
          worker.publishAll(),
          (i % 2 === 0 ? api : worker).publishContent(),
        ])
        const { files } = JSON.parse(
          await fs.readFile(path.join(t.staticDir, 'checksums.json'), 'utf8'),
        )
        expect(files).toEqual(await checksumsOnDisk(t.staticDir))
      }
      await worker.publishAll()
      const rounds = roundsFileSchema.parse(
        JSON.parse(await fs.readFile(path.join(t.staticDir, 'bbl/rounds.json'), 'utf8')),
      )
      expect(rounds.rounds[0]!.label).toBe('Round one, take 19')
    },
  )

  it('lists in a content-only publish the files another publisher wrote since', async () => {
    const options = { staticDir: t.staticDir, logosDir: path.join(REPO_ROOT, 'data/logos') }
    const api = new Publisher(t.db, t.clock, options)
    const worker = new Publisher(t.db, t.clock, options)
    await api.publishAll()
    await t.db.updateTable('rounds').set({ label: 'Relabelled' }).where('number', '=', 2).execute()
    await worker.publishAll()
    // The API process last wrote rounds.json before the relabel; its list must not say so.
    const files = await api.publishContent()
    expect(files).toEqual(await checksumsOnDisk(t.staticDir))
    expect(files['bbl/rounds.json']).toBe((await worker.publishAll())['bbl/rounds.json'])
  })
})
