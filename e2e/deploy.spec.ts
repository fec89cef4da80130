import { execFile, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
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
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs'
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

const HSTS = 'max-age=63072000; includeSubDomains'

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
    }
    for (const key of Object.keys(machine)) expect(exampleEnv, key).toHaveProperty(key)
    env = {
      ...exampleEnv,
      ...machine,
      WEB_DIST_DIR: path.join(REPO_ROOT, 'packages/web/dist'),
      AUTH_RATE_LIMIT_PER_MINUTE: String(AUTH_LIMIT),
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
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
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
})
