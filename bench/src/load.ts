import fs from 'node:fs'
import autocannon from 'autocannon'

// The load generator, run as its own process (so its CPU is not counted against the server's
// event loop): reads a scenario file, drives the server with autocannon and writes the result.
// Each request picks a random entry of the scenario's pool (a signed-in user and what they ask).

export interface PoolEntry {
  path: string
  cookie?: string
  body?: string
  /** Reported back when the server acknowledged (200) this request, to check nothing was lost. */
  ack?: number
}

export interface LoadSpec {
  url: string
  method: 'GET' | 'POST'
  connections: number
  durationSeconds: number
  pool: PoolEntry[]
  /** Each entry once, in order (sign-ups with unique emails), instead of at random. */
  sequential?: boolean
}

export interface LoadResult {
  requests: number
  rps: number
  p50: number
  p99: number
  /** The rest of the latency distribution, in the JSON only: its shape tells queueing from stalls. */
  spread: { p90: number; p99_9: number; max: number }
  errors: number
  non2xx: number
  statusCodes: Record<string, number>
  /** ack values of the requests answered 200 (the saves the server acknowledged). */
  acked: number[]
}

async function main(): Promise<void> {
  const [specFile, outFile] = process.argv.slice(2)
  if (!specFile || !outFile) throw new Error('usage: load.ts <spec.json> <result.json>')
  const spec = JSON.parse(fs.readFileSync(specFile, 'utf8')) as LoadSpec
  const acked: number[] = []
  let next = 0
  const pick = () =>
    spec.sequential
      ? spec.pool[next++ % spec.pool.length]!
      : spec.pool[Math.floor(Math.random() * spec.pool.length)]!
  const host = new URL(spec.url).host

  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationSeconds,
    timeout: 10,
    requests: [
      {
        method: spec.method,
        setupRequest: (req: Record<string, unknown>, context: { ack?: number | undefined }) => {
          const e = pick()
          context.ack = e.ack
          const headers: Record<string, string> = { host, accept: 'application/json' }
          if (e.cookie) headers.cookie = e.cookie
          if (e.body !== undefined) headers['content-type'] = 'application/json'
          return { ...req, method: spec.method, path: e.path, headers, body: e.body }
        },
        onResponse: (status: number, _body: string, context: { ack?: number | undefined }) => {
          if (status === 200 && context.ack !== undefined) acked.push(context.ack)
        },
      },
    ],
  })
  const statusCodes: Record<string, number> = {}
  for (const [code, v] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = Number(v.count)
  }
  const out: LoadResult = {
    requests: result.requests.total,
    rps: Math.round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    spread: { p90: result.latency.p90, p99_9: result.latency.p99_9, max: result.latency.max },
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    acked,
  }
  fs.writeFileSync(outFile, JSON.stringify(out))
}

main().catch((err: unknown) => {
  console.error(err)
  process.exit(1)
})
