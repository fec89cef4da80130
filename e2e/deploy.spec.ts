import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../packages/server/src/config.ts'
import {
  freePort,
  sleep,
  startCluster,
  startServer,
  type Cluster,
  type ServerProcess,
} from '../packages/server/test/reliability/harness.ts'
import { eventually, readSse, type SseClient } from '../packages/server/test/live-sse.ts'
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs'
import { launchBrowser } from './browser.ts'
import { startMailCatcher, waitForMail } from './mail-catcher.ts'

/**
 * The production deployment of docs/DEPLOYING.md, on loopback: nginx with a throwaway certificate,
 * rendered from deploy/nginx/tipping.conf, in front of two API processes and the worker, started
 * from deploy/tipping.env.example (DEPLOY_ENV=production) on a PostgreSQL cluster of its own.
 * Everything a client does goes through nginx over HTTPS, except where one API process is named.
 */

const run = promisify(execFile)
const DEPLOY = path.join(REPO_ROOT, 'deploy')
const ADMIN_EMAIL = 'admin@deploy.example'
const ADMIN_PASSWORD = 'deploy-admin-password-1'
/** Low, so the per-address limit trips in a few requests (a test setting, not the example's). */
const AUTH_LIMIT = 4
/** Low, so a heartbeat passes nginx within the test (a test setting; production keeps 15 s). */
const HEARTBEAT_MS = 1000
/** The app's default heartbeat (packages/server/src/config.ts), which nginx must outwait. */
const PRODUCTION_HEARTBEAT_MS = 15_000

/** A tool the deployment needs, found on PATH or in /usr/sbin (where Debian puts nginx). */
function requireTool(name: string, pkg: string): string {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin']
  for (const dir of dirs) {
    const file = path.join(dir, name)
    if (dir && fs.existsSync(file)) return file
  }
  throw new Error(`The deployment test needs ${name}: apt-get install ${pkg}`)
}

/** KEY=value lines of an environment file as systemd reads them (comments, quoted values). */
function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim())
    if (m) env[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1')
  }
  return env
}

/** The arguments after the program of a unit's ExecStart= line. */
function execStartArgs(unit: string): string[] {
  const text = fs.readFileSync(path.join(DEPLOY, 'systemd', unit), 'utf8')
  const line = /^ExecStart=(.*)$/m.exec(text)?.[1]
  if (!line) throw new Error(`${unit} has no ExecStart=`)
  const [program, ...args] = line.trim().split(/\s+/)
  expect(program).toBe('/usr/bin/node')
  return args
}

/**
 * deploy/nginx/tipping.conf as an operator installs it, moved onto loopback ports and the test's
 * certificate. Every replaced text must be there, so the file cannot drift from what is tested.
 */
function renderNginx(ports: { https: number; http: number; api: number[] }, tls: string): string {
  let conf = fs.readFileSync(path.join(DEPLOY, 'nginx/tipping.conf'), 'utf8')
  const swaps: [RegExp, string][] = [
    [/^\s*listen \[::\]:\d+.*\n/gm, ''],
    [/listen 443 /g, `listen 127.0.0.1:${ports.https} `],
    [/listen 80([ ;])/g, `listen 127.0.0.1:${ports.http}$1`],
    [/\/etc\/letsencrypt\/live\/tipping\.example\.com\/fullchain\.pem/g, `${tls}/cert.pem`],
    [/\/etc\/letsencrypt\/live\/tipping\.example\.com\/privkey\.pem/g, `${tls}/key.pem`],
    [/\/var\/www\/letsencrypt/g, `${tls}/acme`],
    [/tipping\.example\.com/g, 'localhost'],
    [/127\.0\.0\.1:3001/g, `127.0.0.1:${ports.api[0]}`],
    [/127\.0\.0\.1:3002/g, `127.0.0.1:${ports.api[1]}`],
  ]
  for (const [pattern, replacement] of swaps) {
    if (!pattern.test(conf)) throw new Error(`deploy/nginx/tipping.conf no longer has ${pattern}`)
    pattern.lastIndex = 0
    conf = conf.replace(pattern, replacement)
  }
  return conf
}

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

let ca = ''

/**
 * One request on a fresh connection. Always connects to 127.0.0.1 (the URL's host is only the
 * Host header and, over TLS, the name checked against the certificate); `from` picks the local
 * address, so requests can come from different client addresses on loopback.
 */
function call(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown; from?: string } = {},
): Promise<Answer> {
  const u = new URL(url)
  const body = init.body === undefined ? undefined : JSON.stringify(init.body)
  const options: https.RequestOptions = {
    method: init.method ?? 'GET',
    host: '127.0.0.1',
    port: u.port,
    path: `${u.pathname}${u.search}`,
    headers: {
      host: u.host,
      ...(body === undefined
        ? {}
        : {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          }),
      ...init.headers,
    },
    agent: false,
    ...(init.from ? { localAddress: init.from } : {}),
  }
  return new Promise((resolve, reject) => {
    const onAnswer = (res: http.IncomingMessage) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      )
      res.on('error', reject)
    }
    const req =
      u.protocol === 'https:'
        ? https.request({ ...options, ca, servername: u.hostname }, onAnswer)
        : http.request(options, onAnswer)
    req.on('error', reject)
    req.end(body)
  })
}

/** An open text/event-stream, read as it arrives. */
interface Stream extends Pick<SseClient, 'events' | 'heartbeats' | 'retry'> {
  status: number
  headers: http.IncomingHttpHeaders
  close(): void
}

/**
 * Opens the push channel as a browser's EventSource does (on a fresh connection, asking for gzip
 * as browsers do), optionally resuming after `lastEventId`; resolves once the head has arrived.
 */
function openStream(url: string, lastEventId?: string): Promise<Stream> {
  const u = new URL(url)
  const options: https.RequestOptions = {
    host: '127.0.0.1',
    port: u.port,
    path: u.pathname,
    headers: {
      host: u.host,
      accept: 'text/event-stream',
      'accept-encoding': 'gzip',
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
    agent: false,
  }
  return new Promise((resolve, reject) => {
    const onAnswer = (res: http.IncomingMessage) => {
      const stream: Stream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events: [],
        heartbeats: 0,
        retry: null,
        close: () => req.destroy(),
      }
      void readSse(res, stream)
      resolve(stream)
    }
    const req =
      u.protocol === 'https:'
        ? https.request({ ...options, ca, servername: u.hostname }, onAnswer)
        : http.request(options, onAnswer)
    req.on('error', reject)
    req.end()
  })
}

const HSTS = 'max-age=63072000; includeSubDomains'

/** Waits for an open page to show a text, as it does when an event arrives (no reload). */
async function expectText(locator: Locator, text: string, timeout = 5000): Promise<void> {
  await expect
    .poll(async () => (await locator.allTextContents()).join(' | '), { timeout, interval: 200 })
    .toContain(text)
}

/**
 * A page reads its ladders again at a random moment within RESULT_SPREAD_MS (20 s,
 * packages/web/src/lib/live-channel.ts) of a result's event, so a hundred thousand pages do not
 * ask at once: the ladders are given that long, and some more for a loaded machine.
 */
const LADDER_MOVES_WITHIN_MS = 30_000

/** True while the page is the document signedInPage marked: it has not been reloaded. */
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as unknown as { fleetMark?: boolean }).fleetMark === true)

describe('a production deployment: nginx and TLS, two API processes, the worker, PostgreSQL', () => {
  let tmp: string
  let cluster: Cluster | undefined
  let mail: { url: string; close(): Promise<void> } | undefined
  let api: ServerProcess[] = []
  let worker: ChildProcess | undefined
  let nginx: ChildProcess | undefined
  let nginxLog = ''
  let origin: string
  let httpPort: number
  let mailDir: string
  let exampleEnv: Record<string, string>
  let env: Record<string, string>

  beforeAll(async () => {
    const nginxBin = requireTool('nginx', 'nginx')
    const openssl = requireTool('openssl', 'openssl')
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-deploy-'))
    const tls = path.join(tmp, 'tls')
    fs.mkdirSync(path.join(tls, 'acme'), { recursive: true })
    await run(openssl, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      path.join(tls, 'key.pem'),
      '-out',
      path.join(tls, 'cert.pem'),
    ])
    ca = fs.readFileSync(path.join(tls, 'cert.pem'), 'utf8')

    // The database as docs/DEPLOYING.md makes it: a role of its own owning the database.
    cluster = await startCluster()
    const admin = new pg.Client({ connectionString: cluster.url })
    await admin.connect()
    await admin.query(`CREATE ROLE tipping LOGIN PASSWORD 'deploy-db-password'`)
    await admin.query(`CREATE DATABASE tipping OWNER tipping`)
    await admin.end()

    mailDir = path.join(tmp, 'mail')
    mail = await startMailCatcher(mailDir)
    const httpsPort = await freePort()
    httpPort = await freePort()
    origin = `https://localhost:${httpsPort}`

    // The example environment file, with only what differs on this machine replaced.
    exampleEnv = readEnvFile(path.join(DEPLOY, 'tipping.env.example'))
    const machine = {
      APP_ORIGIN: origin,
      DATABASE_URL: `postgres://tipping:deploy-db-password@127.0.0.1:${cluster.port}/tipping`,
      STATIC_DIR: path.join(tmp, 'static'),
      SMTP_URL: mail.url,
      LOG_LEVEL: 'warn',
      // The example's placeholder is refused as weak, as an operator's must be replaced.
      RECEIPT_SECRET: randomBytes(36).toString('base64'),
    }
    for (const key of Object.keys(machine)) expect(exampleEnv, key).toHaveProperty(key)
    env = {
      ...exampleEnv,
      ...machine,
      WEB_DIST_DIR: path.join(REPO_ROOT, 'packages/web/dist'),
      AUTH_RATE_LIMIT_PER_MINUTE: String(AUTH_LIMIT),
      SSE_HEARTBEAT_MS: String(HEARTBEAT_MS),
    }
    const node = (args: string[], extra: Record<string, string> = {}) =>
      run(process.execPath, args, {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env, ...extra },
      })

    // The order of docs/DEPLOYING.md: migrate first, then start (and create the first admin).
    await node(['--import', 'tsx', 'packages/server/src/cli/migrate.ts'])
    // Settled one by one, so that a process that did start is stopped even if another failed.
    const [one, two, created] = await Promise.allSettled([
      startServer(env),
      startServer(env),
      node(['--import', 'tsx', 'packages/server/src/cli/admin-create.ts', ADMIN_EMAIL], {
        ADMIN_PASSWORD,
      }),
    ])
    api = [one, two].flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    for (const s of [one, two, created]) if (s.status === 'rejected') throw s.reason
    worker = spawn(process.execPath, execStartArgs('tipping-worker.service'), {
      cwd: REPO_ROOT,
      // The pick split is counted again every 5 s rather than the default 30 s, so the test of
      // its event waits seconds, not half a minute (CI's time; the path is the same).
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ...env,
        PICK_SPLIT_EVENT_MS: '5000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let workerLog = ''
    worker.stdout?.on('data', (d: Buffer) => (workerLog += d.toString()))
    worker.stderr?.on('data', (d: Buffer) => (workerLog += d.toString()))

    const prefix = path.join(tmp, 'nginx')
    fs.mkdirSync(prefix)
    const site = path.join(prefix, 'tipping.conf')
    fs.writeFileSync(
      site,
      renderNginx({ https: httpsPort, http: httpPort, api: api.map((a) => a.port) }, tls),
    )
    // The frame Debian's /etc/nginx/nginx.conf gives a site, with every path under the prefix.
    const main = path.join(prefix, 'nginx.conf')
    fs.writeFileSync(
      main,
      [
        'daemon off;',
        'worker_processes 1;',
        `pid ${prefix}/nginx.pid;`,
        `error_log ${prefix}/error.log warn;`,
        'events { worker_connections 256; }',
        'http {',
        `  access_log ${prefix}/access.log;`,
        // As Debian's: gzip on, for text/html alone; the site says what else to compress.
        '  gzip on;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (t) => `  ${t}_temp_path ${prefix}/${t};`,
        ),
        `  include ${site};`,
        '}',
        '',
      ].join('\n'),
    )
    const nginxArgs = ['-p', `${prefix}/`, '-c', main, '-e', `${prefix}/error.log`]
    await run(nginxBin, ['-t', '-q', ...nginxArgs]).catch((err: { stderr?: string }) => {
      throw new Error(`nginx refuses the rendered deploy/nginx/tipping.conf:\n${err.stderr}`)
    })
    nginx = spawn(nginxBin, nginxArgs, { stdio: ['ignore', 'pipe', 'pipe'] })
    nginx.stderr?.on('data', (d: Buffer) => (nginxLog += d.toString()))
    const nginxErrors = () => {
      const file = path.join(prefix, 'error.log')
      return `${nginxLog}${fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''}`
    }

    const deadline = Date.now() + 60_000
    for (;;) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited:\n${nginxErrors()}`)
      if (worker.exitCode !== null) throw new Error(`the worker exited:\n${workerLog}`)
      const up = await call(`${origin}/api/health`)
        .then((r) => r.status === 200)
        .catch(() => false)
      if (up) break
      if (Date.now() > deadline) throw new Error(`nginx did not answer in time:\n${nginxErrors()}`)
      await sleep(200)
    }
  })

  afterAll(async () => {
    const exited = (child: ChildProcess | undefined) =>
      child && child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => {
            child.once('exit', resolve)
            child.kill('SIGTERM')
          })
        : null
    await exited(nginx)
    await exited(worker)
    await Promise.all(api.map((a) => a.stop()))
    await mail?.close()
    cluster?.destroy()
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
  })

  it('runs what the systemd units run, in the production profile', () => {
    expect(execStartArgs('tipping-api@.service')).toEqual([
      ...SERVER_NODE_FLAGS,
      'packages/server/src/main.ts',
    ])
    expect(execStartArgs('tipping-worker.service')).toEqual([
      '--import',
      'tsx',
      'packages/server/src/cli/worker.ts',
    ])
    expect(exampleEnv).toMatchObject({
      DEPLOY_ENV: 'production',
      SEED: 'none',
      COOKIE_SECURE: 'true',
      SSO_DEV_PROVIDER: 'false',
      SCHEDULER_INTERVAL_MS: '0',
      TRUST_PROXY: '127.0.0.1',
      HOST: '127.0.0.1',
    })
    expect(exampleEnv.APP_ORIGIN).toMatch(/^https:\/\//)
  })

  it('answers over HTTPS with HSTS on every answer, and sends plain HTTP to HTTPS', async () => {
    for (const url of [`${origin}/api/health`, `${origin}/bbl`, `${origin}/api/no-such-route`]) {
      const res = await call(url)
      expect(res.status, url).toBe(url.endsWith('no-such-route') ? 404 : 200)
      // Exactly one header: nginx's (two would reach Node joined into one string).
      expect(res.headers['strict-transport-security'], url).toBe(HSTS)
    }
    const page = await call(`${origin}/bbl`)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'")

    const plain = await call(`http://localhost:${httpPort}/bbl/tipping?round=2`)
    expect(plain.status).toBe(301)
    expect(plain.headers.location).toBe('https://localhost/bbl/tipping?round=2')
  })

  it('sends text answers compressed, and the built scripts as the build compressed them', async () => {
    const gzip = { 'accept-encoding': 'gzip' }
    for (const url of [
      `${origin}/static/checksums.json`,
      `${origin}/manifest.webmanifest`,
      `${origin}/bbl`,
      `${origin}/robots.txt`,
    ]) {
      const res = await call(url, { headers: gzip })
      expect(res.status, url).toBe(200)
      expect(res.headers['content-encoding'], url).toBe('gzip')
      expect(res.headers.vary, url).toMatch(/accept-encoding/i)
    }
    // Without asking, plain.
    const plain = await call(`${origin}/static/checksums.json`)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(JSON.parse(plain.body)).toHaveProperty('files')
    // A script keeps the brotli copy the build made (nginx does not compress it again).
    const page = await call(`${origin}/bbl`)
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1]
    expect(script).toBeDefined()
    const br = await call(`${origin}${script}`, { headers: { 'accept-encoding': 'gzip, br' } })
    expect(br.headers['content-encoding']).toBe('br')
  })

  it('gives nothing to a request naming another host', async () => {
    await expect(
      call(`${origin}/api/health`, { headers: { host: 'evil.example' } }),
    ).rejects.toThrow()
    await expect(
      call(`http://localhost:${httpPort}/`, { headers: { host: 'evil.example' } }),
    ).rejects.toThrow()
  })

  async function signIn(): Promise<string> {
    const res = await call(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { origin },
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    })
    expect(res.status, res.body).toBe(200)
    const cookie = res.headers['set-cookie']?.[0] ?? ''
    return cookie
  }

  it('sets the session cookie Secure and HttpOnly, with the __Host- prefix', async () => {
    const cookie = await signIn()
    expect(cookie).toMatch(/^__Host-tip_session=[^;]+;/)
    const attributes = cookie.split(';').map((a) => a.trim().toLowerCase())
    expect(attributes).toContain('secure')
    expect(attributes).toContain('httponly')
    expect(attributes).toContain('path=/')
    expect(attributes.some((a) => a.startsWith('domain='))).toBe(false)
  })

  it('a session signed out through one API process is refused by the other', async () => {
    const session = (await signIn()).split(';')[0]!
    const [one, two] = api as [ServerProcess, ServerProcess]
    const adminPage = (server: ServerProcess) =>
      call(`${server.baseURL}/api/admin/content`, { headers: { cookie: session } })
    // Both processes know (and cache) the session.
    expect((await adminPage(one)).status).toBe(200)
    expect((await adminPage(two)).status).toBe(200)

    const out = await call(`${one.baseURL}/api/bbl/auth/logout`, {
      method: 'POST',
      headers: { cookie: session, origin },
      body: {},
    })
    expect(out.status, out.body).toBe(200)
    expect((await adminPage(one)).status).toBe(401)
    // The database's notice reaches the other process within milliseconds.
    let status = 0
    for (let i = 0; i < 50 && status !== 401; i++) {
      status = (await adminPage(two)).status
      if (status !== 401) await sleep(100)
    }
    expect(status).toBe(401)
    const viaNginx = await call(`${origin}/api/admin/content`, { headers: { cookie: session } })
    expect(viaNginx.status).toBe(401)
  })

  it('counts sign-in attempts by the real client address, whatever X-Forwarded-For it forges', async () => {
    // Each attempt names another account (so only the per-address limit can trip) and forges
    // another address. Two processes each count AUTH_LIMIT a minute per address, and nginx
    // takes turns between them: 2 x AUTH_LIMIT attempts pass, then both refuse.
    const statuses: number[] = []
    for (let i = 0; i < 2 * AUTH_LIMIT + 2; i++) {
      const res = await call(`${origin}/api/auth/login`, {
        method: 'POST',
        from: '127.0.0.2',
        headers: {
          origin,
          'x-forwarded-for': `203.0.113.${i + 1}`,
          'x-real-ip': `198.51.100.${i + 1}`,
          forwarded: `for=192.0.2.${i + 1}`,
        },
        body: { email: `forger${i}@deploy.example`, password: 'not-the-password' },
      })
      statuses.push(res.status)
    }
    expect(statuses.slice(0, AUTH_LIMIT)).not.toContain(429)
    expect(statuses.slice(0, AUTH_LIMIT)).toContain(401)
    expect(statuses.slice(-2)).toEqual([429, 429])

    // Another client address is counted on its own: the limit was the forger's, not nginx's.
    const other = await call(`${origin}/api/auth/login`, {
      method: 'POST',
      from: '127.0.0.3',
      headers: { origin },
      body: { email: 'someone-else@deploy.example', password: 'not-the-password' },
    })
    expect(other.status, other.body).toBe(401)
  })

  it('links to APP_ORIGIN on share pages and in emails, which the worker sends', async () => {
    const share = await call(`${origin}/share/bbl/round/abc`, {
      headers: { 'x-forwarded-host': 'evil.example' },
    })
    expect(share.status).toBe(200)
    expect(share.body).toContain(`<meta property="og:url" content="${origin}/share/bbl/round/abc">`)
    expect(share.body).toContain(`content="${origin}/share-card.png"`)
    expect(share.body).not.toContain('evil.example')

    // An API process asked directly under another name still links to the configured origin.
    const direct = await call(`${api[0]!.baseURL}/share/bbl/round/abc`, {
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    })
    expect(direct.body).toContain(
      `<meta property="og:url" content="${origin}/share/bbl/round/abc">`,
    )

    // The API processes queue the email (SCHEDULER_INTERVAL_MS=0); the worker delivers it.
    const reset = await call(`${origin}/api/auth/password_reset/request`, {
      method: 'POST',
      from: '127.0.0.4',
      headers: { origin },
      body: { email: ADMIN_EMAIL },
    })
    expect(reset.status, reset.body).toBe(200)
    const sent = await waitForMail(mailDir, ADMIN_EMAIL, 30_000)
    expect(sent.text).toContain(`${origin}/reset-password?token=`)
  })

  describe('the push channel across the fleet: nginx, two API processes, one database', () => {
    const sport = 'bbl'
    /** Each helper request below comes from an address of its own, clear of the limits above. */
    const FROM = '127.0.0.10'
    let adminCookie = ''
    let users: { cookie: string; id: number; teamName: string }[] = []
    let match: { id: number; homeSquadId: number; awaySquadId: number }
    let competitionId = 0
    let leagueId = 0
    let db: pg.Client
    const streams: Stream[] = []
    const open = async (url: string, lastEventId?: string) => {
      const stream = await openStream(url, lastEventId)
      streams.push(stream)
      expect(stream.status, url).toBe(200)
      return stream
    }

    async function json<T>(
      url: string,
      init: { method?: string; cookie?: string; body?: unknown; from?: string } = {},
    ): Promise<T> {
      const res = await call(url, {
        ...(init.method ? { method: init.method } : {}),
        from: init.from ?? FROM,
        headers: { origin, ...(init.cookie ? { cookie: init.cookie } : {}) },
        ...(init.body === undefined ? {} : { body: init.body }),
      })
      expect(res.status, `${init.method ?? 'GET'} ${url}: ${res.body}`).toBe(200)
      return (JSON.parse(res.body) as { success: T }).success
    }

    /** The session cookie a sign-in or registration answered with (name=value). */
    const sessionOf = (res: Answer) => (res.headers['set-cookie']?.[0] ?? '').split(';')[0]!

    const liveScore = (runs: number, wickets: number, overs: string) => ({
      innings: [{ battingSquadId: match.homeSquadId, runs, wickets, overs, sixes: 1 }],
    })
    const setLive = (server: ServerProcess, body: ReturnType<typeof liveScore>) =>
      json<{ version: number }>(`${server.baseURL}/api/admin/${sport}/matches/${match.id}/live`, {
        method: 'PUT',
        cookie: adminCookie,
        body,
      })
    const liveEvents = (s: Stream) => s.events.filter((e) => e.event === 'live')

    beforeAll(async () => {
      const login = await call(`${origin}/api/auth/login`, {
        method: 'POST',
        from: FROM,
        headers: { origin },
        body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      })
      expect(login.status, login.body).toBe(200)
      adminCookie = sessionOf(login)

      // A one-round season whose first match starts in a few seconds, so it can be tipped first
      // and then goes live when the worker locks it (the worker runs the scheduler).
      const real = JSON.parse(
        fs.readFileSync(path.join(REPO_ROOT, 'data/seasons/bbl-2025-26.json'), 'utf8'),
      ) as { squads: { code: string }[]; venues: { key: string }[] }
      const startsAt = (ms: number) => new Date(Date.now() + ms).toISOString()
      const [home, away, third, fourth] = real.squads.map((q) => q.code)
      const match1 = {
        number: 1,
        startsAt: startsAt(30_000),
        venue: real.venues[0]!.key,
        home,
        away,
        marginGame: false,
        stage: 'regular',
        assumed: [],
      }
      const match2 = {
        ...match1,
        number: 2,
        startsAt: startsAt(86_400_000),
        home: third,
        away: fourth,
        marginGame: true,
      }
      const imported = await json<{ competition: { id: number } }>(
        `${origin}/api/admin/competitions/import`,
        {
          method: 'POST',
          cookie: adminCookie,
          body: {
            ...real,
            goldenWeekRound: null,
            rounds: [{ number: 1, label: 'Week 1', matches: [match1, match2] }],
          },
        },
      )
      competitionId = imported.competition.id

      // Two tippers of the season, one per address (registration is limited per address).
      users = []
      for (const [i, teamName] of ['Home Tippers', 'Away Tippers'].entries()) {
        const res = await call(`${origin}/api/auth/register`, {
          method: 'POST',
          from: `127.0.0.${11 + i}`,
          headers: { origin },
          body: {
            email: `fleet${i}@deploy.example`,
            password: 'a long fleet password',
            firstName: 'Fleet',
            lastName: `Tipper${i}`,
            team_name: teamName,
          },
        })
        expect(res.status, res.body).toBe(200)
        const id = (JSON.parse(res.body) as { success: { user: { id: number } } }).success.user.id
        users.push({ cookie: sessionOf(res), id, teamName })
      }

      const round = await json<{
        matches: { id: number; number: number; homeSquadId: number; awaySquadId: number }[]
      }>(`${origin}/api/${sport}/predictions/1`, { cookie: users[0]!.cookie })
      match = round.matches.find((m) => m.number === 1)!

      // One tipper picks the home side, the other the away side; both in one league.
      for (const [i, user] of users.entries())
        await json(`${origin}/api/${sport}/predictions_list`, {
          method: 'POST',
          cookie: user.cookie,
          body: {
            predictions: [
              { match: match.id, squad: i === 0 ? match.homeSquadId : match.awaySquadId },
            ],
          },
        })
      const { league } = await json<{ league: { id: number; code: string } }>(
        `${origin}/api/${sport}/league`,
        { method: 'POST', cookie: users[0]!.cookie, body: { name: 'Fleet League', startRound: 1 } },
      )
      leagueId = league.id
      await json(`${origin}/api/${sport}/league/${league.code}/join`, {
        method: 'POST',
        cookie: users[1]!.cookie,
        body: {},
      })

      // The worker moves the match to active once it has started (a pass every 5 s); the
      // database's status is what the live route reads.
      db = new pg.Client({ connectionString: env.DATABASE_URL })
      await db.connect()
      const deadline = Date.now() + 60_000
      for (;;) {
        const { rows } = await db.query<{ status: string }>(
          'SELECT status FROM matches WHERE id = $1',
          [match.id],
        )
        if (rows[0]?.status === 'active') break
        if (Date.now() > deadline) throw new Error('the worker did not start the match in time')
        await sleep(500)
      }
    })

    afterAll(async () => {
      for (const s of streams) s.close()
      await db?.end()
    })

    it('nginx passes the stream as written: unbuffered, uncompressed, kept open past heartbeats', async () => {
      // The site's events location, as deploy/nginx/tipping.conf has it.
      const conf = fs.readFileSync(path.join(DEPLOY, 'nginx/tipping.conf'), 'utf8')
      const location = /location ~ \^\/api\/\[a-z\]\+\/events\$ \{([^}]*)\}/.exec(conf)?.[1]
      expect(location, 'an events location').toBeDefined()
      expect(location).toMatch(/^\s*proxy_buffering off;/m)
      expect(location).toMatch(/^\s*gzip off;/m)
      const timeout = /^\s*proxy_read_timeout (\d+)(ms|s|m|h);/m.exec(location!)
      expect(timeout, 'proxy_read_timeout').not.toBeNull()
      const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[timeout![2] as 'ms']
      expect(Number(timeout![1]) * unit).toBeGreaterThan(PRODUCTION_HEARTBEAT_MS)
      // The connection to the API process is kept (HTTP/1.1, no Connection: close), inherited
      // from the server block: the location must not set headers of its own (it would lose them).
      expect(conf).toMatch(/^ {4}proxy_http_version 1\.1;/m)
      expect(conf).toMatch(/^ {4}proxy_set_header Connection "";/m)
      expect(location).not.toMatch(/proxy_set_header|proxy_http_version/)

      const stream = await open(`${origin}/api/${sport}/events`)
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/)
      // Asked for gzip, with gzip on for event streams in nginx.conf: still plain.
      expect(stream.headers['content-encoding']).toBeUndefined()
      expect(stream.headers['strict-transport-security']).toBe(HSTS)
      // The heartbeat comment crosses nginx as it is written, again and again.
      await eventually(() => stream.retry !== null, 2000)
      await eventually(() => stream.heartbeats >= 2, 4 * HEARTBEAT_MS)
      stream.close()
    })

    it('a live score set through process A reaches process B and nginx within 2 s, with one id', async () => {
      const [one, two] = api as [ServerProcess, ServerProcess]
      const onB = await open(`${two.baseURL}/api/${sport}/events`)
      const viaNginx = await open(`${origin}/api/${sport}/events`)
      // Both streams are listening: their retry field has come.
      await eventually(() => onB.retry !== null && viaNginx.retry !== null, 2000)

      const set = await setLive(one, liveScore(45, 2, '6.3'))
      const sent = Date.now()
      await eventually(
        () => liveEvents(onB).length === 1 && liveEvents(viaNginx).length === 1,
        2000,
      )
      expect(Date.now() - sent).toBeLessThan(2000)
      const [b, n] = [liveEvents(onB)[0]!, liveEvents(viaNginx)[0]!]
      expect(b.id).toMatch(/^\d+$/)
      expect(n.id).toBe(b.id)
      expect(n.data).toBe(b.data)
      const payload = JSON.parse(b.data) as {
        matchId: number
        version: number
        innings: { runs: number; wickets: number; overs: string }[]
      }
      expect(payload).toMatchObject({
        matchId: match.id,
        version: set.version,
        innings: [{ runs: 45, wickets: 2, overs: '6.3' }],
      })
    })

    it('a stream resumed with Last-Event-ID gets what it missed, on either process and through nginx', async () => {
      const [one, two] = api as [ServerProcess, ServerProcess]
      const watcher = await open(`${two.baseURL}/api/${sport}/events`)
      await eventually(() => watcher.retry !== null, 2000)
      await setLive(two, liveScore(52, 2, '7.2'))
      await eventually(() => liveEvents(watcher).length === 1, 2000)
      const seen = liveEvents(watcher)[0]!.id!
      // The page goes away; two more balls are entered, one through each process.
      watcher.close()
      await setLive(one, liveScore(58, 3, '8.0'))
      await setLive(two, liveScore(64, 3, '8.4'))

      for (const base of [one.baseURL, two.baseURL, origin]) {
        const back = await open(`${base}/api/${sport}/events`, seen)
        await eventually(() => liveEvents(back).length === 2, 2000)
        const missed = liveEvents(back).map((e) => {
          const p = JSON.parse(e.data) as { innings: { runs: number }[] }
          return { id: Number(e.id), runs: p.innings[0]!.runs }
        })
        expect(
          missed.map((m) => m.runs),
          base,
        ).toEqual([58, 64])
        expect(missed[0]!.id).toBeGreaterThan(Number(seen))
        expect(missed[1]!.id).toBeGreaterThan(missed[0]!.id)
        back.close()
      }
    })

    it('a picks event the worker raises reaches pages and streams on both API processes and through nginx', async () => {
      // Only the worker runs the scheduler (the API processes have SCHEDULER_INTERVAL_MS=0), so a
      // pick split told on either process came from another process, through PostgreSQL's notices.
      const [one, two] = api as [ServerProcess, ServerProcess]
      const picksEvents = (s: Stream) => s.events.filter((e) => e.event === 'picks')
      const onA = await open(`${one.baseURL}/api/${sport}/events`)
      const onB = await open(`${two.baseURL}/api/${sport}/events`)
      const viaNginx = await open(`${origin}/api/${sport}/events`)
      await eventually(
        () => onA.retry !== null && onB.retry !== null && viaNginx.retry !== null,
        2000,
      )
      // The round was counted at match 1's lockout; a tip on match 2, still open, moves its split
      // from nobody to all home. The worker counts the round again within PICK_SPLIT_EVENT_MS
      // (5 s here, 30 s by default) of its last count, on one of its 5 s passes, and tells the
      // change (the percentages only, never the counts).
      const round = await json<{ matches: { id: number; number: number; homeSquadId: number }[] }>(
        `${origin}/api/${sport}/predictions/1`,
        { cookie: users[0]!.cookie },
      )
      const second = round.matches.find((m) => m.number === 2)!
      // A tipping page open on each process before the tip: only the event can move its split.
      const browser = await launchBrowser()
      try {
        const pages = await Promise.all(
          [one, two].map((server) => signedInPage(browser, server, `/${sport}/tipping?round=1`)),
        )
        const split = (page: Page) =>
          page.getByTestId(`match-card-${second.id}`).getByLabel(/^Tippers: /)
        for (const page of pages) {
          await page.getByTestId(`match-card-${second.id}`).waitFor()
          expect(await split(page).count()).toBe(0)
        }
        await json(`${origin}/api/${sport}/predictions_list`, {
          method: 'POST',
          cookie: users[1]!.cookie,
          body: { predictions: [{ match: second.id, squad: second.homeSquadId, margin: 10 }] },
        })
        const isSplit = (e: Stream['events'][number]) => {
          const p = JSON.parse(e.data) as {
            roundNumber: number
            matches: { id: number; home_percent: number; away_percent: number }[]
          }
          const m = p.matches.find((x) => x.id === second.id)
          return p.roundNumber === 1 && m !== undefined && m.home_percent > m.away_percent
        }
        const told = (s: Stream) => picksEvents(s).filter(isSplit)
        await eventually(() => [onA, onB, viaNginx].every((s) => told(s).length > 0), 45_000)
        // One event, one id, the same bytes everywhere.
        const last = (s: Stream) => told(s).at(-1)!
        const [a, b, n] = [last(onA), last(onB), last(viaNginx)]
        expect(a.id).toMatch(/^\d+$/)
        expect(b.id).toBe(a.id)
        expect(n.id).toBe(a.id)
        expect(b.data).toBe(a.data)
        expect(n.data).toBe(a.data)
        for (const s of [onA, onB, viaNginx]) s.close()
        // Each page shows the split the event told, in place.
        const moved = (
          JSON.parse(a.data) as {
            matches: { id: number; home_percent: number; away_percent: number }[]
          }
        ).matches.find((m) => m.id === second.id)!
        for (const page of pages) {
          await expect
            .poll(
              async () =>
                (await split(page).count()) > 0
                  ? await split(page).first().getAttribute('aria-label')
                  : null,
              { timeout: 5000, interval: 200 },
            )
            .toBe(`Tippers: ${moved.home_percent}% home, ${moved.away_percent}% away`)
          expect(await stillSamePage(page)).toBe(true)
        }
      } finally {
        await browser.close()
      }
    })

    it('pages on each process show a live score entered through the other, without a reload', async () => {
      const [one, two] = api as [ServerProcess, ServerProcess]
      const browser = await launchBrowser()
      try {
        // The score as the pages open: each must show it (its first read is done) before the
        // scores below are entered, which only the push channel can then bring.
        await setLive(one, liveScore(90, 3, '9.0'))
        const pages = await Promise.all(
          [one, two].map((server) => signedInPage(browser, server, `/${sport}/tipping?round=1`)),
        )
        const card = (page: Page) =>
          page.getByRole('region', { name: /^Live score/ }).filter({ hasText: /\d+\/\d+/ })
        for (const page of pages) await expectText(card(page), '90/3')
        // Through B, seen on A; through A, seen on B.
        for (const [k, [page, via]] of (
          [
            [pages[0]!, two],
            [pages[1]!, one],
          ] as const
        ).entries()) {
          const runs = 100 + k * 7
          await setLive(via, liveScore(runs, 4, `1${k}.2`))
          await expectText(card(page), `${runs}/4`)
          await expectText(card(page), `(1${k}.2 ov)`)
        }
        for (const page of pages) expect(await stillSamePage(page)).toBe(true)
      } finally {
        await browser.close()
      }
    })

    /** The result of the match, won by `winner`, as the admin's result form sends it. */
    const setResult = (server: ServerProcess, winner: 'home' | 'away') =>
      json(`${server.baseURL}/api/admin/${sport}/matches/${match.id}/result`, {
        method: 'POST',
        cookie: adminCookie,
        body: {
          outcome: 'win',
          winnerSquadId: winner === 'home' ? match.homeSquadId : match.awaySquadId,
          home: { runs: winner === 'home' ? 180 : 150, wickets: 5, overs: '20.0' },
          away: { runs: winner === 'home' ? 150 : 151, wickets: 9, overs: '19.4' },
          sixes: null,
        },
      })
    const scoresVersion = async () =>
      (
        await db.query<{ scores_version: number }>(
          'SELECT scores_version FROM competitions WHERE id = $1',
          [competitionId],
        )
      ).rows[0]!.scores_version
    /** The league's ladder as an API process answers it to the first tipper. */
    const leagueLadder = async (server: ServerProcess) =>
      (
        await json<{ rankings: { userId: number; rank: number; totalPoints: number }[] }>(
          `${server.baseURL}/api/${sport}/rankings/${leagueId}/rankings`,
          { cookie: users[0]!.cookie },
        )
      ).rankings
    const resultEvents = (s: Stream) => s.events.filter((e) => e.event === 'result')

    it('a result through process A reaches B and nginx with the new scores version, and B reads the new ladder at once', async () => {
      const [one, two] = api as [ServerProcess, ServerProcess]
      // Process B has read (and cached) the ladder before the result.
      expect((await leagueLadder(two)).map((r) => r.totalPoints)).toEqual([0, 0])
      const before = await scoresVersion()
      const onB = await open(`${two.baseURL}/api/${sport}/events`)
      const viaNginx = await open(`${origin}/api/${sport}/events`)
      await eventually(() => onB.retry !== null && viaNginx.retry !== null, 2000)

      await setResult(one, 'home')
      await eventually(
        () => resultEvents(onB).length === 1 && resultEvents(viaNginx).length === 1,
        2000,
      )
      const after = await scoresVersion()
      expect(after).toBeGreaterThan(before)
      const [b, n] = [resultEvents(onB)[0]!, resultEvents(viaNginx)[0]!]
      expect(n.id).toBe(b.id)
      expect(JSON.parse(b.data)).toMatchObject({
        matchId: match.id,
        change: 'set',
        outcome: 'win',
        winnerSquadId: match.homeSquadId,
        scoresVersion: after,
      })
      // A page refetching the moment the event arrives gets the new ladder from B, not the one
      // B cached a moment ago.
      const rows = await leagueLadder(two)
      const home = rows.find((r) => r.userId === users[0]!.id)!
      const away = rows.find((r) => r.userId === users[1]!.id)!
      expect(home.totalPoints).toBeGreaterThan(0)
      expect([home.rank, away.totalPoints]).toEqual([1, 0])
      expect(away.rank).toBeGreaterThan(1)
    })

    it('a corrected result through process A moves the ladders open on process B without a reload', async () => {
      const [one, two] = api as [ServerProcess, ServerProcess]
      const browser = await launchBrowser()
      try {
        const ladder = await signedInPage(browser, two, `/${sport}/league/${leagueId}`)
        const rankings = await signedInPage(browser, two, `/${sport}/rankings`)
        const row = (page: Page, teamName: string) =>
          page.getByRole('row').filter({ hasText: teamName })
        const rank = (page: Page, teamName: string) => row(page, teamName).locator('td').first()
        // As the result left them: the home side's tipper on top.
        for (const page of [ladder, rankings]) await expectText(rank(page, 'Home Tippers'), '1')

        // B drops its cached scores version when the result's event reaches it (LISTEN/NOTIFY);
        // until then it may answer from the version it read a moment ago (READ_CACHE_MS). The
        // pages refetch on that event, so the API is asked after it too, as they ask.
        const onB = await open(`${two.baseURL}/api/${sport}/events`)
        await eventually(() => onB.retry !== null, 2000)
        await setResult(one, 'away')
        await eventually(() => resultEvents(onB).length === 1, 2000)
        const rows = await leagueLadder(two)
        const away = rows.find((r) => r.userId === users[1]!.id)!
        expect(away.rank).toBe(1)
        expect(away.totalPoints).toBeGreaterThan(0)
        for (const page of [ladder, rankings]) {
          await expectText(rank(page, 'Away Tippers'), '1', LADDER_MOVES_WITHIN_MS)
          await expectText(row(page, 'Away Tippers'), `${away.totalPoints} (`)
          await expectText(rank(page, 'Home Tippers'), '2')
          expect(await stillSamePage(page)).toBe(true)
        }
      } finally {
        await browser.close()
      }
    })

    /**
     * A page opened straight on one API process, signed in as the home side's tipper (the session
     * cookie of their registration: sessions are the database's, so either process knows it).
     */
    async function signedInPage(browser: Browser, server: ServerProcess, at: string) {
      const context = await browser.newContext({
        baseURL: server.baseURL,
        viewport: { width: 1280, height: 900 },
      })
      const [name, value] = users[0]!.cookie.split(/=(.*)/s) as [string, string]
      // Chromium sends a Secure cookie to http://127.0.0.1, loopback being a secure origin; a
      // host-only cookie ignores the port, so both processes get it.
      await context.addCookies([
        {
          name,
          value,
          domain: '127.0.0.1',
          path: '/',
          secure: true,
          httpOnly: true,
          sameSite: 'Lax',
        },
      ])
      const page = await context.newPage()
      // The page's push channel is open once its answer has come: from then on the process
      // writes it every event (event-hub.ts attaches a fresh page before answering anything).
      const channel = page.waitForResponse(
        (r) => r.url().endsWith(`/api/${sport}/events`) && r.status() === 200,
      )
      await page.goto(at)
      await channel
      // Marks this document: a reload would lose the mark.
      await page.evaluate(() => {
        ;(window as unknown as { fleetMark: boolean }).fleetMark = true
      })
      return page
    }
  })
})
