import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  Client,
  openMatches,
  sleep,
  attachCluster,
  seededDatabase,
  startServer,
  type Cluster,
  type ServerProcess,
} from './harness.ts'

/**
 * Database outage (docs/RELIABILITY.md): PostgreSQL stopped for 10 s under light load. Every answer
 * is a 200 or a 503 with the envelope (never a 500, never a dropped connection), /api/health says
 * the database is unavailable, the process survives, and it recovers by itself.
 */
const OUTAGE_MS = 10_000

interface Sample {
  at: number
  what: string
  status: number
  code: string | null
}

describe('database outage', () => {
  let cluster: Cluster
  let server: ServerProcess

  beforeAll(async () => {
    cluster = attachCluster(inject('reliabilityCluster'))
    server = await startServer({
      DATABASE_URL: await seededDatabase(cluster, 'tipping_outage'),
      DB_CONNECT_TIMEOUT_MS: '2000',
      SCHEDULER_INTERVAL_MS: '1000',
    })
  })

  afterAll(async () => {
    await server?.stop()
  })

  it('answers 503 with the envelope while PostgreSQL is down and recovers by itself', async () => {
    const client = new Client(server.baseURL)
    await client.register('outage@reliability.example')
    const [match] = await openMatches(client, 'bbl', 4)
    if (!match) throw new Error('no open match in round 4')

    const samples: Sample[] = []
    const transportErrors: string[] = []
    let running = true
    const probe = async (what: string, method: string, url: string, body?: unknown) => {
      try {
        const res = await client.request(method, url, body)
        const errors = (res.json as { errors?: { code: string }[] }).errors
        samples.push({ at: Date.now(), what, status: res.status, code: errors?.[0]?.code ?? null })
      } catch (err) {
        transportErrors.push(`${what}: ${(err as Error).message}`)
      }
    }
    const load = (async () => {
      let i = 0
      while (running) {
        i++
        await Promise.all([
          probe('health', 'GET', '/api/health'),
          probe('round', 'GET', '/api/bbl/predictions/4'),
          probe('save', 'POST', '/api/bbl/predictions_list', {
            predictions: [
              { match: match.id, squad: i % 2 ? match.homeSquadId : match.awaySquadId },
            ],
          }),
        ])
        await sleep(100)
      }
    })()

    await sleep(2000)
    const downAt = Date.now()
    cluster.stop('fast')
    await sleep(OUTAGE_MS)
    cluster.start()
    const upAt = Date.now()
    // Recovered: the first moment after which all three kinds of request succeed again.
    let recoveredAt: number | null = null
    while (Date.now() - upAt < 30_000) {
      const since = samples.filter((s) => s.at > upAt)
      const lastFailure = since.filter((s) => s.status !== 200).at(-1)?.at ?? upAt
      const okAfter = new Set(since.filter((s) => s.at > lastFailure).map((s) => s.what))
      if (okAfter.size === 3) {
        recoveredAt = since.find((s) => s.at > lastFailure)!.at
        break
      }
      await sleep(200)
    }
    await sleep(2000)
    running = false
    await load

    const during = samples.filter((s) => s.at > downAt + 500 && s.at < upAt)
    const byStatus = (list: Sample[]) =>
      list.reduce<Record<string, number>>((acc, s) => {
        acc[`${s.status}${s.code ? ` ${s.code}` : ''}`] =
          (acc[`${s.status}${s.code ? ` ${s.code}` : ''}`] ?? 0) + 1
        return acc
      }, {})
    const figures = {
      outageMs: upAt - downAt,
      recoverMs: recoveredAt === null ? null : recoveredAt - upAt,
      requests: samples.length,
      during: byStatus(during),
      overall: byStatus(samples),
    }
    console.log(`[reliability] outage: ${JSON.stringify(figures)}`)

    expect(transportErrors.slice(0, 3), server.output()).toEqual([])
    // Only successes and envelope 503s, never a 500.
    for (const s of samples) {
      if (s.status !== 200) expect([s.status, s.code]).toEqual([503, 'SERVICE_UNAVAILABLE'])
    }
    // While the database was down every kind of request was refused with 503 ...
    for (const what of ['health', 'round', 'save']) {
      expect(during.filter((s) => s.what === what && s.status === 503).length).toBeGreaterThan(0)
      expect(during.filter((s) => s.what === what && s.status === 200)).toEqual([])
    }
    // ... the process survived, and it came back by itself within 10 s of the database.
    expect(server.child.exitCode).toBeNull()
    expect(recoveredAt).not.toBeNull()
    expect(recoveredAt! - upAt).toBeLessThan(10_000)
    const health = await client.request('GET', '/api/health')
    expect(health.status).toBe(200)
    expect(server.output()).not.toMatch(/request failed/)
  })

  it('names the database in the health answer while it is down', async () => {
    cluster.stop('immediate')
    try {
      const client = new Client(server.baseURL)
      const res = await client.request('GET', '/api/health')
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBeTruthy()
      expect(res.json).toEqual({
        errors: [
          { code: 'SERVICE_UNAVAILABLE', message: 'Database unavailable', param: 'database' },
        ],
      })
    } finally {
      cluster.start()
    }
    await expect
      .poll(async () => (await fetch(`${server.baseURL}/api/health`)).status, {
        timeout: 10_000,
      })
      .toBe(200)
  })
})
