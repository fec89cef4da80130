import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { REPO_ROOT } from '../../src/config.ts'
import { SERVER_NODE_FLAGS } from '../../../../scripts/server-flags.mjs'

/**
 * Reliability tests run the real server as a child process (so it can be killed with SIGKILL) on a
 * PostgreSQL cluster of their own (so they can stop it): never the CI or a colleague's cluster.
 */

/** The newest PostgreSQL server binaries: /usr/lib/postgresql/<v>/bin, or PG_BIN. Required. */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN
  const base = '/usr/lib/postgresql'
  const versions = fs.existsSync(base)
    ? fs
        .readdirSync(base)
        .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(a) - Number(b))
    : []
  const newest = versions.at(-1)
  if (!newest) {
    throw new Error(
      'Reliability tests need PostgreSQL server binaries (apt-get install postgresql, or set PG_BIN)',
    )
  }
  return path.join(base, newest, 'bin')
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

const isRoot = () => process.getuid?.() === 0

/** Runs a PostgreSQL binary as the postgres user (root cannot run the server). */
function asPostgres(bin: string, args: string[]): string {
  const quoted = [bin, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  if (isRoot()) return execFileSync('su', ['postgres', '-c', quoted], { encoding: 'utf8' })
  return execFileSync('sh', ['-c', quoted], { encoding: 'utf8' })
}

export interface Cluster {
  url: string
  port: number
  dataDir: string
  /** Stops the server: 'fast' disconnects clients, 'immediate' is a crash. */
  stop(mode?: 'fast' | 'immediate'): void
  start(): void
  /** Stops (if running) and deletes the cluster. */
  destroy(): void
}

/** A throwaway cluster under /tmp on a free port, with fsync off (speed; crash safety is not its job). */
export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-rel-pg-'))
  if (isRoot()) execFileSync('chown', ['postgres', dataDir])
  const port = await freePort()
  asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres'])
  const cluster = attachCluster({ dataDir, port }, false)
  cluster.start()
  return cluster
}

/** The cluster the project's global setup started (running), to stop and start it in a test. */
export function attachCluster(where: { dataDir: string; port: number }, running = true): Cluster {
  const bin = postgresBin()
  const { dataDir, port } = where
  const options = `-p ${port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  const start = () => {
    asPostgres(path.join(bin, 'pg_ctl'), [
      '-D',
      dataDir,
      '-o',
      options,
      '-l',
      path.join(dataDir, 'log'),
      '-w',
      'start',
    ])
  }
  const cluster: Cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    stop(mode = 'fast') {
      asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', mode, '-w', 'stop'])
      running = false
    },
    start() {
      start()
      running = true
    },
    destroy() {
      try {
        if (running) cluster.stop('immediate')
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true })
      }
    },
  }
  return cluster
}

export const SEEDED_TEMPLATE = 'tipping_seeded'

/**
 * A database of its own for one test file: a copy of the demo season the global setup seeded
 * once (seeding takes longer than the tests themselves). Returns its URL.
 */
export async function seededDatabase(cluster: Cluster, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${SEEDED_TEMPLATE}`)
  await admin.end()
  return cluster.url.replace(/\/postgres$/, `/${name}`)
}

export interface ServerProcess {
  baseURL: string
  port: number
  child: ChildProcess
  output(): string
  /** SIGKILL, no clean-up of any kind: what a power cut or the OOM killer does. */
  kill9(): Promise<void>
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>
}

/** Starts packages/server/src/main.ts via tsx and waits until /api/health answers 200. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort()
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-rel-static-'))
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, path.join(REPO_ROOT, 'packages/server/src/main.ts')],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        PORT: String(port),
        STATIC_DIR: staticDir,
        WEB_DIST_DIR: path.join(staticDir, 'no-web'),
        SEED: 'none',
        LOG_LEVEL: 'warn',
        SSO_DEV_PROVIDER: 'false',
        AUTH_RATE_LIMIT_PER_MINUTE: '100000',
        // The deadline rush registers its tippers all at once: queue their hashes, do not shed them.
        PASSWORD_HASH_QUEUE: '1000',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const baseURL = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`server exited early:\n${output}`)
    }
    const ok = await fetch(`${baseURL}/api/health`)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`server did not start in time:\n${output}`)
    }
    await sleep(200)
  }
  return {
    baseURL,
    port,
    child,
    output: () => output,
    async kill9() {
      child.kill('SIGKILL')
      await exited
      fs.rmSync(staticDir, { recursive: true, force: true })
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      fs.rmSync(staticDir, { recursive: true, force: true })
    },
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A signed-in API client: registers a fresh account and keeps its session cookie. */
export class Client {
  cookie = ''
  constructor(readonly baseURL: string) {}

  async request(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown; headers: Headers }> {
    const res = await fetch(`${this.baseURL}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const setCookie = res.headers.get('set-cookie')
    if (setCookie) this.cookie = setCookie.split(';')[0]!
    const text = await res.text()
    let json: unknown = text
    try {
      json = JSON.parse(text)
    } catch {
      // not JSON: kept as text so an assertion can show it
    }
    return { status: res.status, json, headers: res.headers }
  }

  async register(email: string): Promise<number> {
    const res = await this.request('POST', '/api/auth/register', {
      email,
      password: 'reliable-tipper-1',
      firstName: 'Rel',
      lastName: 'Iable',
    })
    if (res.status !== 200) throw new Error(`register ${email}: ${JSON.stringify(res.json)}`)
    return (res.json as { success: { user: { id: number } } }).success.user.id
  }
}

/** Open (unlocked) matches of a round, as the predictions screen lists them. */
export async function openMatches(
  client: Client,
  sport: 'bbl' | 'wbbl',
  round: number,
): Promise<{ id: number; homeSquadId: number; awaySquadId: number }[]> {
  const res = await client.request('GET', `/api/${sport}/predictions/${round}`)
  if (res.status !== 200) throw new Error(`round ${round}: ${JSON.stringify(res.json)}`)
  const { matches } = (
    res.json as {
      success: {
        matches: { id: number; status: string; homeSquadId: number; awaySquadId: number }[]
      }
    }
  ).success
  return matches.filter((m) => m.status === 'scheduled')
}

/** Least-squares slope of y over x (used for memory per minute). */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length
  if (n < 2) return 0
  const mx = points.reduce((s, p) => s + p.x, 0) / n
  const my = points.reduce((s, p) => s + p.y, 0) / n
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0)
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0)
  return den === 0 ? 0 : num / den
}
