import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createLeague,
  createTestApp,
  makeAdmin,
  loadSeasons,
  registerUser,
  type TestApp,
} from './helpers.ts'
import { drivenRoutes, fillUrl, leagueHints, sample } from './route-driver.ts'

// The fuzz test once drew 2^31 as a league id and got a 500: ids are PostgreSQL integers, and the
// database refuses a larger value as out of range. This walks every route deterministically,
// putting 2^31 into each number of its path, query and body in turn, as an admin who runs the
// league (so every policy lets the request through to validation and the services).

const BEYOND = 2 ** 31

/** Each way to put BEYOND into one number of a value, with that number's dotted path. */
function variants(value: unknown, path = ''): [string, unknown][] {
  const at = (k: string | number) => (path ? `${path}.${k}` : String(k))
  if (typeof value === 'number') return [[path, BEYOND]]
  if (Array.isArray(value))
    return value.flatMap((v, i) =>
      variants(v, at(i)).map(([p, x]): [string, unknown] => [
        p,
        value.map((o, j) => (j === i ? x : o)),
      ]),
    )
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) =>
      variants(v, at(k)).map(([p, x]): [string, unknown] => [p, { ...value, [k]: x }]),
    )
  return []
}

let t: TestApp
let admin: { cookie: string; id: number }
let league: { id: number; code: string }

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  admin = await registerUser(t.app, { team_name: 'Boundary' })
  await makeAdmin(t.db, admin.id)
  league = await createLeague(t.app, admin.cookie, 'Boundary League')
})
afterAll(() => t.close())

describe('ids past PostgreSQL integer', () => {
  it('get a 4xx naming the field on every route, never a 5xx', async () => {
    const hints = leagueHints(league)
    let tried = 0
    for (const route of drivenRoutes(t.app)) {
      if (route.url.endsWith('/*') || route.url.endsWith('/logout')) continue
      const params = (route.params ? sample(route.params, hints) : {}) as Record<string, string>
      const query = (route.querystring ? sample(route.querystring, hints) : {}) as object
      const body = route.body ? sample(route.body, hints) : undefined
      // Where the generic sample is itself invalid, validation may name another field first.
      const sampleValid = [
        route.params?.safeParse(params),
        route.querystring?.safeParse(query),
        route.body?.safeParse(body),
      ].every((r) => !r || r.success)
      const cases = [
        ...variants(params).map(([p, v]) => ({ p, params: v as typeof params, query, body })),
        ...variants(query).map(([p, v]) => ({ p, params, query: v as object, body })),
        ...variants(body).map(([p, v]) => ({ p, params, query, body: v })),
      ]
      for (const c of cases) {
        tried++
        const res = await t.app.inject({
          method: route.method as 'POST',
          url: fillUrl(route.url, c.params),
          query: Object.fromEntries(Object.entries(c.query).map(([k, v]) => [k, String(v)])),
          headers: { cookie: admin.cookie },
          ...(['GET', 'HEAD'].includes(route.method) || c.body === undefined
            ? {}
            : { payload: c.body as object }),
        })
        const where = `${route.method} ${route.url} with ${c.p} = 2^31 -> ${res.statusCode} ${res.body.slice(0, 300)}`
        expect(res.statusCode, where).toBeLessThan(500)
        if (res.statusCode === 400 && sampleValid) {
          const errors = res.json<{ errors: { code: string; param: string | null }[] }>().errors
          if (errors[0]?.code === 'VALIDATION')
            expect(
              errors.map((e) => e.param),
              where,
            ).toContain(c.p)
        }
      }
    }
    // Path ids of leagues, members, matches and users, plus the ids in tip and member bodies.
    expect(tried).toBeGreaterThan(30)
  })
})
