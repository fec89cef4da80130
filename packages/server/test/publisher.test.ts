import { DEFAULT_SITE_APP_CONFIG } from '@tipping/contract/site-rules'
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
import { loadContent } from '../src/modules/content/service.ts'
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
    expect(await fresh.publishContent(await loadContent(t.db))).toHaveProperty('states.json')
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
