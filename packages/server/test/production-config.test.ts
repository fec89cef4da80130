import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SERVER_NODE_FLAGS } from '../../../scripts/server-flags.mjs'
import {
  assertSafeToServe,
  DEV_RECEIPT_SECRET,
  loadConfig,
  loadServingConfig,
  REPO_ROOT,
} from '../src/config.ts'
import { createTestApp, type TestApp } from './helpers.ts'

// Issue 26 item 3: with DEPLOY_ENV=production the server (and the worker) refuse to start with a
// setting that is unsafe in production, naming every one in a single error, before the database
// is touched; a correct production profile starts, with a Secure, __Host- session cookie.

const ORIGIN = 'https://tips.example'
/** A correct production profile (what deploy/tipping.env.example sets, less the machine's paths). */
const PRODUCTION = {
  DEPLOY_ENV: 'production',
  APP_ORIGIN: ORIGIN,
  COOKIE_SECURE: 'true',
  SEED: 'none',
  SSO_DEV_PROVIDER: 'false',
  SMTP_URL: 'smtp://127.0.0.1:2525',
  RECEIPT_SECRET: 'Zq4v8N2xLr7TfW1kBc9YhJ3sMd6PgE0uAo5iXy',
} as const

const problemsOf = (env: Record<string, string | undefined>): string => {
  try {
    loadServingConfig(env)
    return ''
  } catch (err) {
    return (err as Error).message
  }
}

/** Each unsafe setting alone, and the name the refusal must give. */
const UNSAFE: { name: string; env: Record<string, string | undefined> }[] = [
  { name: 'SEED', env: { SEED: 'demo' } },
  { name: 'SSO_DEV_PROVIDER', env: { SSO_DEV_PROVIDER: undefined } },
  { name: 'SSO_DEV_PROVIDER', env: { SSO_DEV_PROVIDER: 'true' } },
  { name: 'COOKIE_SECURE', env: { COOKIE_SECURE: 'false' } },
  { name: 'COOKIE_SECURE', env: { COOKIE_SECURE: undefined } },
  { name: 'APP_ORIGIN', env: { APP_ORIGIN: undefined } },
  { name: 'APP_ORIGIN', env: { APP_ORIGIN: 'http://tips.example' } },
  { name: 'SMTP_URL', env: { SMTP_URL: undefined } },
  { name: 'ENABLE_TEST_ROUTES', env: { ENABLE_TEST_ROUTES: 'true' } },
  { name: 'CLOCK_NOW', env: { CLOCK_NOW: '2025-12-01T00:00:00Z' } },
  // Tip receipts' key (decision 027): unset, short, a placeholder, or the development key.
  { name: 'RECEIPT_SECRET', env: { RECEIPT_SECRET: undefined } },
  { name: 'RECEIPT_SECRET', env: { RECEIPT_SECRET: 'short-secret' } },
  { name: 'RECEIPT_SECRET', env: { RECEIPT_SECRET: 'a'.repeat(64) } },
  { name: 'RECEIPT_SECRET', env: { RECEIPT_SECRET: 'change-me-to-48-random-characters' } },
  { name: 'RECEIPT_SECRET', env: { RECEIPT_SECRET: DEV_RECEIPT_SECRET } },
]
const NAMES = [...new Set(UNSAFE.map((u) => u.name))]

describe('the production profile', () => {
  it('accepts a correct profile, with SMTP or with the explicit outbox-only choice', () => {
    expect(problemsOf(PRODUCTION)).toBe('')
    expect(problemsOf({ ...PRODUCTION, SMTP_URL: undefined, MAIL_OUTBOX_ONLY: 'true' })).toBe('')
    // A real identity provider instead of turning the development one off.
    expect(
      problemsOf({
        ...PRODUCTION,
        SSO_DEV_PROVIDER: undefined,
        SSO_ISSUER: 'https://login.example/',
        SSO_CLIENT_ID: 'tipping-web',
      }),
    ).toBe('')
    // TRUST_PROXY is not required, but allowed.
    expect(problemsOf({ ...PRODUCTION, TRUST_PROXY: '127.0.0.1' })).toBe('')
  })

  for (const { name, env } of UNSAFE) {
    it(`refuses ${name}=${String(Object.values(env)[0] ?? '(unset)')} alone, naming it`, () => {
      const message = problemsOf({ ...PRODUCTION, ...env })
      expect(message).toMatch(/^Invalid configuration for DEPLOY_ENV=production:/)
      const named = NAMES.filter((n) => new RegExp(`^  ${n}:`, 'm').test(message))
      expect(named).toEqual([name])
    })
  }

  it('names every offending setting in one error', () => {
    const message = problemsOf({
      DEPLOY_ENV: 'production',
      SEED: 'demo',
      ENABLE_TEST_ROUTES: 'true',
      CLOCK_NOW: '2025-12-01T00:00:00Z',
    })
    for (const name of NAMES) expect(message).toMatch(new RegExp(`^  ${name}:`, 'm'))
  })

  it('seeds nothing by default in production, the demo elsewhere', () => {
    expect(loadConfig({ DEPLOY_ENV: 'production' }).SEED).toBe('none')
    expect(loadConfig({ DEPLOY_ENV: 'staging' }).SEED).toBe('demo')
    expect(loadConfig({}).SEED).toBe('demo')
  })

  it('refuses the outbox-only choice together with SMTP_URL (contradictory)', () => {
    expect(() => loadConfig({ SMTP_URL: 'smtp://x:25', MAIL_OUTBOX_ONLY: 'true' })).toThrow(
      /MAIL_OUTBOX_ONLY/,
    )
  })

  it('asks nothing of development or staging', () => {
    expect(() => assertSafeToServe(loadConfig({}))).not.toThrow()
    expect(() => assertSafeToServe(loadConfig({ DEPLOY_ENV: 'staging' }))).not.toThrow()
  })
})

describe('a production app', () => {
  let t: TestApp
  beforeAll(async () => {
    const config = loadServingConfig({
      ...PRODUCTION,
      SMTP_URL: undefined,
      MAIL_OUTBOX_ONLY: 'true',
    })
    // The production settings over the test ones (which keep load shedding off on a busy machine).
    const keys = ['DEPLOY_ENV', 'APP_ORIGIN', 'COOKIE_SECURE', 'SEED', 'SSO_DEV_PROVIDER'] as const
    t = await createTestApp({
      config: { ...Object.fromEntries(keys.map((k) => [k, config[k]])), MAIL_OUTBOX_ONLY: true },
    })
  })
  afterAll(() => t.close())

  it('sets a Secure, __Host- prefixed session cookie with Path=/ and no Domain', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { origin: ORIGIN },
      payload: {
        email: 'prod@example.com',
        password: 'correct horse battery',
        firstName: 'P',
        lastName: 'R',
      },
    })
    expect(res.statusCode).toBe(200)
    expect(res.cookies.map((c) => c.name)).toEqual(['__Host-tip_session'])
    const cookie = res.cookies[0]!
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax', path: '/' })
    expect(cookie.domain).toBeUndefined()
    expect(String(res.headers['set-cookie'])).not.toMatch(/Domain=/i)
    const me = await t.app.inject({
      url: '/api/bbl/user',
      headers: { cookie: `__Host-tip_session=${cookie.value}` },
    })
    expect(me.statusCode).not.toBe(401)
  })

  it('mounts no development identity provider', async () => {
    const res = await t.app.inject({ url: '/oidc/.well-known/openid-configuration' })
    expect(res.statusCode).toBe(404)
  })
})

// The real entry points, as `npm start` and `npm run worker` run them.
const run = (
  script: string,
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, script], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
  })

describe('the processes', () => {
  let tmp: string
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tipping-prod-'))
  })
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

  for (const script of ['packages/server/src/main.ts', 'packages/server/src/cli/worker.ts']) {
    it(`${path.basename(script)} refuses an unsafe production start before opening the database`, async () => {
      const dbDir = path.join(tmp, `db-${path.basename(script, '.ts')}`)
      const { code, output } = await run(script, {
        DEPLOY_ENV: 'production',
        SEED: 'demo',
        PGLITE_DIR: dbDir,
        STATIC_DIR: path.join(tmp, 'static'),
      })
      expect(code).toBe(1)
      expect(output).toContain('Invalid configuration for DEPLOY_ENV=production:')
      for (const name of ['SEED', 'SSO_DEV_PROVIDER', 'COOKIE_SECURE', 'APP_ORIGIN', 'SMTP_URL'])
        expect(output).toMatch(new RegExp(`^  ${name}:`, 'm'))
      expect(fs.existsSync(dbDir)).toBe(false)
    })
  }

  it('main.ts starts with a correct production profile and serves a __Host- cookie', async () => {
    const port = await freePort()
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'packages/server/src/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        ...PRODUCTION,
        SMTP_URL: undefined,
        MAIL_OUTBOX_ONLY: 'true',
        PORT: String(port),
        PGLITE_DIR: path.join(tmp, 'db-ok'),
        STATIC_DIR: path.join(tmp, 'static-ok'),
        SCHEDULER_INTERVAL_MS: '0',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    try {
      const base = `http://127.0.0.1:${port}`
      // A fresh embedded database is migrated first: slow on a busy machine.
      const deadline = Date.now() + 200_000
      for (;;) {
        if (child.exitCode !== null) throw new Error(`server exited:\n${output}`)
        const ok = await fetch(`${base}/api/health`)
          .then((r) => r.ok)
          .catch(() => false)
        if (ok) break
        if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
        await new Promise((r) => setTimeout(r, 300))
      }
      expect(output).not.toMatch(/Demo account|development provider/)
      const res = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify({
          email: 'live@example.com',
          password: 'correct horse battery',
          firstName: 'L',
          lastName: 'V',
        }),
      })
      expect(res.status).toBe(200)
      const setCookie = res.headers.get('set-cookie') ?? ''
      expect(setCookie).toMatch(/^__Host-tip_session=[^;]+;/)
      expect(setCookie).toMatch(/; Secure/)
      expect(setCookie).toMatch(/; Path=\//)
      expect(setCookie).not.toMatch(/Domain=/i)
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await exited
      }
    }
  }, 240_000)
})
