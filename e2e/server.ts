import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { startMailCatcher } from './mail-catcher.ts'
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export interface TestServer {
  baseURL: string
  /** Where the mail catcher writes what the server sends (see mail-catcher.ts). */
  mailDir: string
  stop(): Promise<void>
}

/**
 * Starts the real server (built web app, demo season, test clock route) on a free port with a
 * database of its own: PostgreSQL when DATABASE_URL is set, PGlite otherwise. The global setup
 * starts the shared one; a spec that moves the server clock past a lockout starts its own (own-server.ts),
 * because matches it locks stay locked for every later spec even after the clock is reset.
 */
export interface ServerOptions {
  /** Let the demo's own live feed move a match by itself (the specs drive live scores). */
  liveFeed?: boolean
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  if (!fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) {
    throw new Error('Build the web app first: npm run build -w packages/web')
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-e2e-'))
  const port = await freePort()
  const mailDir = path.join(tmp, 'mail')
  const mail = await startMailCatcher(mailDir)
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    PGLITE_DIR: path.join(tmp, 'db'),
    STATIC_DIR: path.join(tmp, 'static'),
    SEED: 'demo',
    DEMO_USERS: '120',
    ENABLE_TEST_ROUTES: 'true',
    SMTP_URL: mail.url,
    APP_ORIGIN: `http://localhost:${port}`,
    MATCH_CENTRE_URL: 'https://matchcentre.example/bbl/{match}',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    LOG_LEVEL: 'warn',
    SERIALIZER_VERIFY: 'true',
    // The demo's own live feed moves a match and its start time by itself; the specs drive live
    // scores themselves, on the match they choose, unless one asks for the demo's.
    DEMO_LIVE_FEED: options.liveFeed ? 'true' : 'false',
  }
  let dropDatabase: (() => Promise<void>) | null = null
  if (process.env.DATABASE_URL) {
    const name = `tipping_e2e_${process.pid}_${port}`
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
    await admin.connect()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const url = new URL(process.env.DATABASE_URL)
    url.pathname = `/${name}`
    env.DATABASE_URL = url.toString()
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    }
  }
  const server: ChildProcess = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, 'packages/server/src/main.ts'],
    {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let output = ''
  server.stdout?.on('data', (d: Buffer) => (output += d.toString()))
  server.stderr?.on('data', (d: Buffer) => (output += d.toString()))
  const baseURL = `http://localhost:${port}`
  const deadline = Date.now() + 180_000
  let lastHealth = 'no answer yet'
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited early:\n${output}`)
    const ok = await fetch(`${baseURL}/api/health`)
      .then(async (r) => r.ok || ((lastHealth = `${r.status} ${await r.text()}`), false))
      .catch((err: unknown) => ((lastHealth = String(err)), false))
    if (ok) break
    // The last answer of the health check says why (a 503 from the database, a refused
    // connection): once a start timed out with only the banner "up" to go on.
    if (Date.now() > deadline) {
      // Nobody gets a stop() for a server that never started: stop it here, or it lives on
      // holding its port (a later spec's random port then failed with EADDRINUSE).
      server.kill('SIGKILL')
      await new Promise((r) => (server.exitCode !== null ? r(null) : server.once('exit', r)))
      await mail.close()
      throw new Error(`server did not start in time (health: ${lastHealth}):\n${output}`)
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  return {
    baseURL,
    mailDir,
    async stop() {
      server.kill('SIGTERM')
      await new Promise((r) => server.once('exit', r))
      await dropDatabase?.()
      await mail.close()
      fs.rmSync(tmp, { recursive: true, force: true })
    },
  }
}

/**
 * A port the kernel has just handed out and taken back: free now, and not handed out again soon
 * (Linux cycles through its ephemeral range). A random pick from a fixed range could land on a
 * port another spec's server, or one left over from an earlier run, still held.
 */
async function freePort(): Promise<number> {
  const probe = net.createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', resolve)
  })
  const { port } = probe.address() as net.AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}
