import autocannon from 'autocannon'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  Client,
  attachCluster,
  seededDatabase,
  sleep,
  startServer,
  type ServerProcess,
} from './harness.ts'

/**
 * Overload (docs/RELIABILITY.md): measured capacity first, then twice that offered. The server
 * sheds the excess with 503 + envelope + Retry-After (thresholds set low here), keeps serving a
 * good share of its capacity quickly, never drops a connection or times out, and serves normally
 * again once the load drops.
 */
describe('overload', () => {
  let server: ServerProcess
  let client: Client

  beforeAll(async () => {
    const cluster = attachCluster(inject('reliabilityCluster'))
    server = await startServer({
      DATABASE_URL: await seededDatabase(cluster, 'tipping_overload'),
      SCHEDULER_INTERVAL_MS: '0',
      // Either signal may trip first: a lagging event loop, or requests queued for one of the
      // ten database connections (on two shared cores it is usually the database).
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '100',
      PRESSURE_SAMPLE_INTERVAL_MS: '200',
      PRESSURE_MAX_DB_WAITING: '10',
      PRESSURE_RETRY_AFTER_SECONDS: '2',
      DB_POOL_SIZE: '10',
    })
    client = new Client(server.baseURL)
    await client.register('overload@reliability.example')
  })

  afterAll(async () => {
    await server?.stop()
  })

  it('sheds load beyond capacity with 503s and recovers when it drops', async () => {
    // A read that costs each request its own query: a name search through the rankings. (The
    // tipping page's reads share their queries among requests that arrive together, batch.ts,
    // so their capacity rises with the crowd and a fixed rate does not overload them.)
    const url = `${server.baseURL}/api/bbl/rankings/overall/rankings?search=ti`
    const headers = { cookie: client.cookie }
    // Capacity: what it serves flat out with every database connection busy and a short queue
    // (12 clients, 10 connections: below the shedding threshold).
    const capacity = await autocannon({ url, headers, connections: 12, duration: 4 })
    const perSecond = Math.round(capacity['2xx'] / capacity.duration)
    expect(capacity.errors).toBe(0)

    // Twice the measured capacity from more than twice the clients, sampling refusals as they come.
    const refusals: { status: number; retryAfter: string | null; body: unknown }[] = []
    const shedReasons: Record<string, number> = {}
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const res = await fetch(url, { headers }).catch(() => null)
        const reason = res?.headers.get('x-shed-reason')
        if (reason) shedReasons[reason] = (shedReasons[reason] ?? 0) + 1
        if (res && res.status !== 200 && refusals.length < 5) {
          refusals.push({
            status: res.status,
            retryAfter: res.headers.get('retry-after'),
            body: await res.json(),
          })
        } else await res?.arrayBuffer()
        await sleep(50)
      }
    })()
    const overload = await autocannon({
      url,
      headers,
      connections: 32,
      overallRate: perSecond * 2,
      duration: 8,
      timeout: 10,
    })
    sampling = false
    await sampler

    // Load gone: how long until a request is served again.
    const dropped = Date.now()
    let recoverMs: number | null = null
    while (Date.now() - dropped < 15_000) {
      const res = await fetch(url, { headers })
      await res.arrayBuffer()
      if (res.status === 200) {
        recoverMs = Date.now() - dropped
        break
      }
      await sleep(50)
    }
    const after = await autocannon({
      url,
      headers,
      connections: 4,
      overallRate: Math.max(1, Math.round(perSecond / 2)),
      duration: 3,
    })

    const codes = (r: Awaited<ReturnType<typeof autocannon>>) =>
      Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, v.count]))
    const figures = {
      capacityPerSecond: perSecond,
      capacityP99Ms: capacity.latency.p99,
      capacityCodes: codes(capacity),
      offeredPerSecond: perSecond * 2,
      overload: {
        codes: codes(overload),
        servedPerSecond: Math.round(overload['2xx'] / overload.duration),
        p99Ms: overload.latency.p99,
        errors: overload.errors,
        timeouts: overload.timeouts,
        shedReasons,
      },
      recoverMs,
      afterwards: { codes: codes(after), p99Ms: after.latency.p99 },
    }
    console.log(`[reliability] overload: ${JSON.stringify(figures)}`)

    expect(overload.errors).toBe(0)
    expect(overload.timeouts).toBe(0)
    expect(Object.keys(codes(overload)).sort()).toEqual(['200', '503'])
    // Not a collapse: a good share of capacity is still served, and served quickly.
    expect(overload['2xx'] / overload.duration).toBeGreaterThan(perSecond / 3)
    expect(overload.latency.p99).toBeLessThan(2000)
    expect(refusals.length).toBeGreaterThan(0)
    for (const r of refusals) {
      expect(r.status).toBe(503)
      expect(r.retryAfter).toBe('2')
      expect(r.body).toMatchObject({ errors: [{ code: 'SERVICE_UNAVAILABLE', param: null }] })
    }
    expect(recoverMs).not.toBeNull()
    expect(recoverMs!).toBeLessThan(5000)
    // Back to normal (1% slack for a neighbour's burst on a shared machine).
    expect(after.non2xx).toBeLessThanOrEqual(Math.floor(after['2xx'] / 100))
    expect(after.errors).toBe(0)
    expect(server.child.exitCode).toBeNull()
  })
})
