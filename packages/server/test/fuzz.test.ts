import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createLeague, createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'
import {
  changedTables,
  drivenRoutes,
  fillUrl,
  fingerprint,
  leagueHints,
  sample,
  type DrivenRoute,
} from './route-driver.ts'

// Issue 9 item 2: fast-check throws hostile params, queries and bodies at every registered route
// (wrong types, huge and unicode strings, negative and fractional numbers, nested objects,
// `__proto__` keys, SQL and script payloads, NUL and other control characters), as a visitor and as a signed-in league member. The
// server never answers 5xx, API routes always answer the envelope, and a refused request changes
// nothing in the database. FUZZ_RUNS=200 for a longer search (runs per route; default 4).

const RUNS = Number(process.env.FUZZ_RUNS ?? 4)

const payloads = fc.constantFrom(
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  "') UNION SELECT password_hash FROM users --",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '../../../etc/passwd',
  '%2e%2e%2f',
  '\u0000',
  'a\u0000b',
  'Casey\r\nBcc: victim@example.com',
  '\u0007\u0008\u001b[31m\u007f',
  '\u202e\u200b',
  '🏏𝕏́',
  'ＢＢＬ',
  '__proto__',
  'constructor',
  'NaN',
  '-1',
  '1e309',
  '0x1F',
  '',
  ' ',
)
/** Any C0 control character or DEL: a NUL answered 500 on every text field (issue 26, item 4). */
const control = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.constant(0x7f))
  .map((c) => String.fromCharCode(c))
/** Ordinary text with control characters spliced in anywhere. */
const withControls = fc
  .tuple(
    fc.string({ maxLength: 20 }),
    fc.array(control, { minLength: 1, maxLength: 3 }),
    fc.string({ maxLength: 20 }),
  )
  .map(([head, cs, tail]) => `${head}${cs.join('')}${tail}`)
const text = fc.oneof(
  payloads,
  withControls,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ minLength: 3000, maxLength: 6000 }),
)
const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 0.5, -0.5, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308),
)
const leaf = fc.oneof(text, number, fc.boolean(), fc.constant(null))
const key = fc.oneof(
  fc.constantFrom(
    'predictions',
    'match',
    'squad',
    'leagueId',
    'userIds',
    'email',
    'password',
    'name',
    'roles',
    'isAdmin',
  ),
  fc.string({ maxLength: 12 }),
)
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}))

/** A JSON body text: anything, a valid body with one field spoiled, or a `__proto__` attack. */
function bodies(route: DrivenRoute, hints: (k: string) => unknown): fc.Arbitrary<string> {
  const valid = route.body ? sample(route.body, hints) : {}
  const spoiled =
    valid && typeof valid === 'object' && !Array.isArray(valid) && Object.keys(valid).length > 0
      ? fc
          .tuple(fc.constantFrom(...Object.keys(valid)), value)
          .map(([k, v]) => JSON.stringify({ ...valid, [k]: v }))
      : value.map((v) => JSON.stringify(v))
  const proto = fc
    .constantFrom('__proto__', 'constructor')
    .map((k) =>
      JSON.stringify(valid ?? {}).replace(
        /^\{/,
        `{"${k}":{"roles":["ROLE_ADMIN"],"prototype":{"isAdmin":true}},`,
      ),
    )
  return fc.oneof(
    value.map((v) => JSON.stringify(v) ?? 'null'),
    spoiled,
    proto,
    fc.constantFrom('{', '[1,', '"', 'null', '{"a":1}{'),
  )
}

let t: TestApp
let member: { cookie: string; id: number }
let league: { id: number; code: string }

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  member = await registerUser(t.app, { team_name: 'Fuzzed' })
  league = await createLeague(t.app, member.cookie, 'Fuzz League')
})
afterAll(() => t.close())

// The provider's own endpoints are oidc-provider's (HTML and OAuth errors, its own parsing); it
// is fuzzed through its sign-in page routes, which are ours.
const fuzzed = (r: DrivenRoute) => !r.url.endsWith('/*')

describe('fuzzing every route', () => {
  it(
    'never answers 5xx, always the envelope on the API, and refusals change nothing',
    async () => {
      const routes = drivenRoutes(t.app).filter(fuzzed)
      expect(routes.length).toBeGreaterThan(30)
      const hints = leagueHints(league)
      for (const route of routes) {
        const names = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!)
        const param = fc.oneof(
          text.filter((s) => s.length > 0 && s.length < 1500),
          number.map(String),
          fc.constantFrom('bbl', 'wbbl', String(league.id), league.code),
        )
        await fc.assert(
          fc.asyncProperty(
            fc.record({
              params: fc.tuple(...names.map(() => param)),
              query: fc.dictionary(
                fc.oneof(key, fc.constantFrom('page', 'round', 'search')),
                text,
                {
                  maxKeys: 3,
                },
              ),
              body: bodies(route, hints),
              // Logging out would end the session the other runs use; it is fuzzed as a visitor.
              signedIn: route.url.endsWith('/logout') ? fc.constant(false) : fc.boolean(),
            }),
            async ({ params, query, body, signedIn }) => {
              const url = fillUrl(
                route.url,
                Object.fromEntries(names.map((n, i) => [n, params[i]])),
              )
              const before = await fingerprint(t.db)
              const res = await t.app.inject({
                method: route.method as 'POST',
                url,
                query,
                headers: {
                  'content-type': 'application/json',
                  ...(signedIn ? { cookie: member.cookie } : {}),
                },
                ...(['GET', 'HEAD'].includes(route.method) ? {} : { payload: body }),
              })
              const where = `${route.method} ${url.slice(0, 200)} -> ${res.statusCode} ${res.body.slice(0, 300)}`
              expect(res.statusCode, where).toBeLessThan(500)
              // The OpenAPI document is the one API answer that is not an envelope.
              if (route.url.startsWith('/api/') && route.url !== '/api/docs') {
                const envelope = res.json<{ success?: unknown; errors?: unknown[] }>()
                expect('success' in envelope || (envelope.errors?.length ?? 0) > 0, where).toBe(
                  true,
                )
              }
              if (res.statusCode >= 400)
                expect(changedTables(before, await fingerprint(t.db)), where).toEqual([])
            },
          ),
          { numRuns: RUNS },
        )
      }
      // Nothing reached Object.prototype.
      expect(({} as Record<string, unknown>).roles).toBeUndefined()
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
      // About a second per run of every route; a long search (FUZZ_RUNS=200) needs its own time.
    },
    Math.max(60_000, RUNS * 3_000),
  )

  it('refuses a __proto__ key in a body with a 400 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__":{"roles":["ROLE_ADMIN"]},"email":"a@example.com","password":"x"}',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().errors[0].code).toBe('VALIDATION')
  })
})
