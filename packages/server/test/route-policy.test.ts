import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import Fastify from 'fastify'
import { enforceRoutePolicies, grantPolicy, type RoutePolicy } from '../src/http/route-policy.ts'
import { readSeasonFile } from '../src/modules/seasons/service.ts'
import { createTestApp, loadSeasons, registerUser, seasonPath, type TestApp } from './helpers.ts'
import {
  changedTables,
  drivenRoutes,
  fillUrl,
  fingerprint,
  sample,
  type DrivenRoute,
} from './route-driver.ts'

// Issue 9 item 1: every registered route declares who may call it, and every route is driven with
// every kind of caller. Routes are read from the app itself (routeTable), params and bodies built
// from each route's own zod schemas, so a route added tomorrow is exercised without editing this
// file. A caller below the policy gets 401/403/404/513 in the error envelope, the database is
// unchanged (every table's digest), and nothing of the private league or another user's open tips
// shows in the answer.

type Caller = 'visitor' | 'otherSport' | 'user' | 'member' | 'commissioner' | 'admin'
const CALLERS: Caller[] = ['visitor', 'otherSport', 'user', 'member', 'commissioner', 'admin']

/**
 * 'user' routes under a sport also need the caller registered for that sport, except the one
 * route whose purpose is that registration (the answer to a 513).
 */
const ANY_SPORT = new Set(['POST /api/:sport/auth/register_for_game'])

/** Callers the policy refuses. An admin is nobody's league member (leagues-authz.test.ts). */
function refused(policy: RoutePolicy, url: string, method: string): Caller[] {
  const sporty = url.includes(':sport') && !ANY_SPORT.has(`${method} ${url}`)
  switch (policy) {
    case 'visitor':
      return []
    case 'user':
      return sporty ? ['visitor', 'otherSport'] : ['visitor']
    case 'member':
      return ['visitor', 'otherSport', 'user', 'admin']
    case 'commissioner':
      return ['visitor', 'otherSport', 'user', 'member', 'admin']
    case 'admin':
      return ['visitor', 'otherSport', 'user', 'member', 'commissioner']
  }
}

// Only a leak would put these in an answer: the private league's name and description.
const CANARY = 'Canary Quokka Hidden'
const CANARY_DESCRIPTION = 'Sealed description Wombat'

let t: TestApp
const users = {} as Record<Exclude<Caller, 'visitor'>, { cookie: string; id: number }>
let match: { id: number; squad: number }
let routes: DrivenRoute[]

interface Fixture {
  id: number
  code: string
}
let made = 0
async function fixture(): Promise<Fixture> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/league',
    headers: { cookie: users.commissioner.cookie },
    payload: {
      name: `${CANARY} ${++made}`,
      description: CANARY_DESCRIPTION,
      privacy: 'private',
      startRound: 1,
    },
  })
  const league = res.json().success.league as Fixture
  const joined = await t.app.inject({
    method: 'POST',
    url: `/api/bbl/league/${league.code}/join`,
    headers: { cookie: users.member.cookie },
  })
  expect(joined.statusCode).toBe(200)
  return { id: league.id, code: league.code }
}

/** Ids the admin console routes name, found once the seasons are loaded. */
const ids = { competition: 0, round: 0, email: '', victim: 0 }
let seasonFile: unknown

/** The `:id` a route names, by what its URL says it is. */
function idFor(f: Fixture, url: string): number | string {
  if (url.includes('/matches/')) return match.id
  if (url.startsWith('/api/admin/competitions/')) return ids.competition
  if (url.startsWith('/api/admin/rounds/')) return ids.round
  // A user of its own: the admin routes change its roles and deactivate it.
  if (url.startsWith('/api/admin/users/')) return ids.victim
  if (url.startsWith('/api/admin/emails/')) return ids.email
  return f.id
}

/** Whole bodies for routes whose body no field hint can build (a season file). */
const BODIES: Record<string, () => unknown> = {
  'POST /api/admin/competitions/import': () => seasonFile,
  // A match of no fixture: reported unmatched, nothing applied.
  'POST /api/admin/competitions/:id/cricsheet': () => ({
    files: [
      {
        info: { dates: ['2031-01-01'], teams: ['Probe One', 'Probe Two'], outcome: {} },
        innings: [],
      },
    ],
  }),
}

/** Values for fields whose names say what they are; the rest come from the schema. */
function hintsFor(f: Fixture, route: DrivenRoute) {
  const values: Record<string, unknown> = {
    sport: 'bbl',
    id: idFor(f, route.url),
    leagueId: f.id,
    code: f.code,
    userId: users.member.id,
    userIds: [users.member.id],
    round: 1,
    match: match.id,
    squad: match.squad,
    winnerSquadId: match.squad,
    margin: null,
    overs: '20',
    oversAllotted: '20',
    section: 'league',
    // Password forms: the new password twice, and the test users' own current one.
    password: 'probe new password 1',
    confirmation: 'probe new password 1',
    currentPassword: 'correct horse battery',
    // Admin console: a new competition's year, a match moved years on.
    year: '2031',
    startsAt: '2031-01-01T08:00:00Z',
    token: Buffer.from(JSON.stringify({ token: 1, league_id: f.id })).toString('base64'),
  }
  return (key: string) => values[key]
}

/** A route's params, query and body as the driver builds them, with the schema's complaints. */
function build(route: DrivenRoute, f: Fixture) {
  const hints = hintsFor(f, route)
  const params = route.params
    ? (sample(route.params, hints) as Record<string, string | number>)
    : {}
  const query = route.querystring
    ? (sample(route.querystring, hints) as Record<string, string>)
    : undefined
  const whole = BODIES[`${route.method} ${route.url}`]
  const body = whole ? whole() : route.body ? sample(route.body, hints) : undefined
  // Validation runs before the handler: a value the schema refuses would test nothing.
  const problems: string[] = []
  for (const [part, schema, value] of [
    ['params', route.params, params],
    ['querystring', route.querystring, query],
    ['body', route.body, body],
  ] as const) {
    const parsed = schema?.safeParse(value)
    if (parsed && !parsed.success)
      problems.push(
        `The driver built an invalid ${part} for ${route.method} ${route.url}: ` +
          `${parsed.error.message}. Add a hint for the field in hintsFor().`,
      )
  }
  return { params, query, body, problems }
}

function request(
  route: DrivenRoute,
  f: Fixture,
  caller: Caller,
  cookie = caller === 'visitor' ? undefined : users[caller].cookie,
) {
  const { params, query, body, problems } = build(route, f)
  if (problems.length > 0) throw new Error(problems.join('\n'))
  return t.app.inject({
    method: route.method as 'GET',
    url: fillUrl(route.url, params),
    ...(query ? { query: JSON.parse(JSON.stringify(query)) as Record<string, string> } : {}),
    ...(body !== undefined ? { payload: body as object } : {}),
    headers: cookie ? { cookie } : {},
  })
}

/** A param or query value no schema accepts: no sport, id, round, page, join code or key. */
const BAD = 'not-valid'

interface Input {
  what: string
  url: string
  query?: Record<string, string>
  payload?: string
}

/**
 * The route's input with one part wrong at a time, the rest as build() makes it: params, query,
 * a body that is not JSON, and a body the route's schema refuses. `keep` names params left
 * valid (a sport, for a caller the sport check refuses). `unbuilt` lists the parts no wrong
 * value could be found for, so the test cannot pass by sending valid input.
 */
function badInputs(route: DrivenRoute, f: Fixture, keep: readonly string[] = []) {
  const { params, query, body } = build(route, f)
  const goodQuery = query
    ? (JSON.parse(JSON.stringify(query)) as Record<string, string>)
    : undefined
  const goodPayload = body === undefined ? undefined : JSON.stringify(body)
  const inputs: Input[] = []
  const unbuilt: string[] = []
  const name = `${route.method} ${route.url}`
  const wrongParams = Object.keys(params).filter((k) => !keep.includes(k))
  if (route.params && wrongParams.length > 0) {
    const bad = { ...params, ...Object.fromEntries(wrongParams.map((k) => [k, BAD])) }
    if (route.params.safeParse(bad).success) unbuilt.push(`${name}: params`)
    inputs.push({
      what: 'params',
      url: fillUrl(route.url, bad),
      query: goodQuery,
      payload: goodPayload,
    })
  }
  const url = fillUrl(route.url, params)
  if (goodQuery && Object.keys(goodQuery).length > 0) {
    const bad = Object.fromEntries(Object.keys(goodQuery).map((k) => [k, BAD]))
    if (route.querystring?.safeParse(bad).success) unbuilt.push(`${name}: query`)
    inputs.push({ what: 'query', url, query: bad, payload: goodPayload })
  }
  if (route.method !== 'GET') {
    inputs.push({ what: 'body that is not JSON', url, query: goodQuery, payload: '{"broken":' })
    // A body of any shape is the service's to judge (a content setting): then JSON alone.
    const refused = [{ ...(body as object), unknownProbe: 1 }, 'text', []].find(
      (candidate) => route.body && !route.body.safeParse(candidate).success,
    )
    if (refused !== undefined)
      inputs.push({ what: 'body', url, query: goodQuery, payload: JSON.stringify(refused) })
  }
  return {
    good: { what: 'valid input', url, query: goodQuery, payload: goodPayload },
    inputs,
    unbuilt,
  }
}

function send(route: DrivenRoute, input: Input, cookie: string | undefined) {
  return t.app.inject({
    method: route.method as 'POST',
    url: input.url,
    ...(input.query ? { query: input.query } : {}),
    ...(input.payload !== undefined ? { payload: input.payload } : {}),
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(input.payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
  })
}

/**
 * Callers the route's policy alone refuses, whatever the league, with the answer they get: no
 * live session on every route but a visitor's; a user on an admin route; a user of the other
 * sport on a route under a sport. Who belongs to a league is the league service's to say, after
 * validation.
 */
function refusedByPolicy(route: DrivenRoute) {
  const out: { who: string; cookie?: string; keep?: string[]; status: number; code: string }[] = []
  if (route.policy === 'visitor') return out
  out.push(
    { who: 'visitor', status: 401, code: 'UNAUTHORIZED' },
    {
      who: 'expired session',
      cookie: 'tip_session=not-a-session',
      status: 401,
      code: 'UNAUTHORIZED',
    },
  )
  if (route.policy === 'admin')
    out.push({ who: 'user', cookie: users.user.cookie, status: 403, code: 'FORBIDDEN' })
  else if (route.url.includes(':sport') && !ANY_SPORT.has(`${route.method} ${route.url}`))
    out.push({
      who: 'otherSport',
      cookie: users.otherSport.cookie,
      // A sport that is none is a 400 once the session is known live: no sport to check.
      keep: ['sport'],
      status: 513,
      code: 'NOT_REGISTERED',
    })
  return out
}

beforeAll(async () => {
  t = await createTestApp()
  await loadSeasons(t.db)
  users.commissioner = await registerUser(t.app, { team_name: 'Commish' })
  users.member = await registerUser(t.app, { team_name: 'Member' })
  users.user = await registerUser(t.app, { team_name: 'Outsider' })
  users.otherSport = await registerUser(t.app, { team_name: 'Women Only', sport: 'wbbl' })
  users.admin = await registerUser(t.app, { team_name: 'Admin' })
  await t.db
    .updateTable('users')
    .set({ roles: ['ROLE_ADMIN', 'ROLE_USER_BBL', 'ROLE_USER_WBBL'] })
    .where('id', '=', users.admin.id)
    .execute()
  const round = await t.app.inject({
    url: '/api/bbl/predictions/1',
    headers: { cookie: users.member.cookie },
  })
  const first = round.json().success.matches[0] as { id: number; homeSquadId: number }
  match = { id: first.id, squad: first.homeSquadId }
  // The member's open tip: nobody else may see it before the match is complete.
  const tip = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/predictions_list',
    headers: { cookie: users.member.cookie },
    payload: { predictions: [{ match: match.id, squad: match.squad }] },
  })
  expect(tip.statusCode).toBe(200)
  routes = drivenRoutes(t.app)
  seasonFile = await readSeasonFile(seasonPath('bbl'))
  const competition = await t.db
    .selectFrom('competitions')
    .select('id')
    .where('sport', '=', 'bbl')
    .where('is_current', '=', true)
    .executeTakeFirstOrThrow()
  ids.competition = competition.id
  const firstRound = await t.db
    .selectFrom('rounds')
    .select('id')
    .where('competition_id', '=', competition.id)
    .orderBy('number')
    .executeTakeFirstOrThrow()
  ids.round = firstRound.id
  ids.victim = (await registerUser(t.app, { team_name: 'Console Victim' })).id
  // A message in the outbox for the admin email routes.
  const mail = await t.db
    .insertInto('email_outbox')
    .values({
      kind: 'probe',
      to_address: 'probe@example.com',
      subject: 'Probe',
      text_body: 'Probe',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  ids.email = String(mail.id)
})
afterAll(() => t.close())

describe('the route policy table', () => {
  it('lists every route with a policy (the server would not have started otherwise)', () => {
    expect(routes.length).toBeGreaterThan(30)
    const missing = routes.filter((r) => !r.policy).map((r) => `${r.method} ${r.url}`)
    expect(missing).toEqual([])
    // Spot checks that the table says what the handlers enforce.
    const policyOf = (method: string, url: string) =>
      routes.find((r) => r.method === method && r.url === url)?.policy
    expect(policyOf('POST', '/api/admin/:sport/matches/:id/result')).toBe('admin')
    expect(policyOf('POST', '/api/:sport/league/:id/delete')).toBe('commissioner')
    expect(policyOf('GET', '/api/:sport/rankings/:id/rankings')).toBe('member')
    expect(policyOf('POST', '/api/:sport/predictions_list')).toBe('user')
    expect(policyOf('POST', '/api/auth/login')).toBe('visitor')
  })

  it('refuses to start when a route has no policy, naming it', async () => {
    const app = Fastify()
    enforceRoutePolicies(app)
    app.get('/fine', { config: { policy: 'visitor' } }, async () => 'ok')
    app.post('/api/forgotten/:id', async () => 'ok')
    await expect(app.ready()).rejects.toThrow(/POST \/api\/forgotten\/:id/)
    await app.close()
  })

  it('lets a scope grant a policy to the routes a plugin registers', async () => {
    const app = Fastify()
    enforceRoutePolicies(app)
    await app.register(async (scope) => {
      grantPolicy(scope, 'visitor')
      scope.get('/from-a-plugin', async () => 'ok')
    })
    await app.ready()
    const res = await app.inject({ url: '/from-a-plugin' })
    expect(res.body).toBe('ok')
    await app.close()
  })
})

describe('every route with every caller', () => {
  it('builds input every route schema accepts (else the calls below would test nothing)', async () => {
    const f = await fixture()
    expect(routes.flatMap((route) => build(route, f).problems)).toEqual([])
  })

  it('refuses callers below the policy with the envelope, changing and leaking nothing', async () => {
    const f = await fixture()
    const checked: string[] = []
    for (const route of routes) {
      for (const caller of refused(route.policy!, route.url, route.method)) {
        const before = await fingerprint(t.db)
        const res = await request(route, f, caller)
        const where = `${route.method} ${route.url} as ${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`
        expect([401, 403, 404, 513], where).toContain(res.statusCode)
        const body = res.json<{ errors?: { code: string }[]; success?: unknown }>()
        expect(body.success, where).toBeUndefined()
        expect(body.errors?.length, where).toBeGreaterThan(0)
        expect(res.body, where).not.toContain(CANARY)
        expect(res.body, where).not.toContain(CANARY_DESCRIPTION)
        expect(res.body, where).not.toContain(f.code)
        expect(changedTables(before, await fingerprint(t.db)), where).toEqual([])
        checked.push(`${route.method} ${route.url} ${caller}`)
      }
    }
    // Every non-visitor route was refused to somebody.
    const guarded = routes.filter((r) => r.policy !== 'visitor')
    expect(guarded.length).toBeGreaterThan(20)
    for (const r of guarded)
      expect(checked.some((c) => c.startsWith(`${r.method} ${r.url} `))).toBe(true)
  })

  it('lets the least caller the policy allows through (the driver reaches the handler)', async () => {
    for (const route of routes) {
      const allowed = CALLERS.filter(
        (c) => !refused(route.policy!, route.url, route.method).includes(c),
      )
      const caller = allowed[0]!
      // A fresh league each time: the call may delete it, leave it or remove its member.
      const f = await fixture()
      // A plain user is a fresh account each time: the call may deactivate it, change its
      // password or end its sessions.
      const cookie =
        caller === 'user' || caller === 'otherSport'
          ? (await registerUser(t.app, caller === 'otherSport' ? { sport: 'wbbl' } : {})).cookie
          : undefined
      const res = await request(route, f, caller, cookie)
      const where = `${route.method} ${route.url} as ${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`
      expect(res.statusCode, where).not.toBe(500)
      if (route.policy === 'visitor') continue
      expect([401, 403, 513], where).not.toContain(res.statusCode)
      if (route.policy !== 'user') expect(res.statusCode, where).not.toBe(404)
    }
  })

  it('refuses an unknown field in every request body with a 400 naming it, changing nothing', async () => {
    // Issue 27: one spelling per field, and a misspelt one is said, never silently dropped.
    const f = await fixture()
    const checked: string[] = []
    for (const route of routes) {
      const { params, query, body } = build(route, f)
      if (typeof body !== 'object' || body === null || Array.isArray(body)) continue
      const caller = route.policy === 'admin' ? 'admin' : 'commissioner'
      const before = await fingerprint(t.db)
      const res = await t.app.inject({
        method: route.method as 'POST',
        url: fillUrl(route.url, params),
        ...(query ? { query: JSON.parse(JSON.stringify(query)) as Record<string, string> } : {}),
        payload: { ...body, unknownProbe: 1 },
        headers: { cookie: users[caller].cookie },
      })
      const where = `${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 200)}`
      expect(res.statusCode, where).toBe(400)
      expect(res.json().errors, where).toContainEqual({
        code: 'VALIDATION',
        message: 'Unknown field "unknownProbe"',
        param: 'unknownProbe',
      })
      expect(changedTables(before, await fingerprint(t.db)), where).toEqual([])
      checked.push(`${route.method} ${route.url}`)
    }
    expect(checked).toEqual(
      expect.arrayContaining(['POST /api/auth/register', 'POST /api/:sport/user']),
    )
    expect(checked.length).toBeGreaterThan(20)
  })

  it("never shows another tipper's open tips", async () => {
    for (const caller of ['user', 'commissioner', 'admin'] as const) {
      const res = await t.app.inject({
        url: `/api/bbl/predictions/1/user/${users.member.id}`,
        headers: { cookie: users[caller].cookie },
      })
      expect(res.statusCode).toBe(200)
      const tips = res.json().success.predictions as { match: number; squad: number }[]
      expect(tips.filter((p) => p.match === match.id && p.squad !== 0)).toEqual([])
    }
    const mates = await t.app.inject({
      url: '/api/bbl/predictions/1/leagues',
      headers: { cookie: users.commissioner.cookie },
    })
    expect(mates.statusCode).toBe(200)
    expect(JSON.stringify(mates.json().success)).not.toContain(`"userId":${users.member.id}`)
  })
})

describe('the policy before the input', () => {
  // Issue 28: the policy is enforced before the body is parsed or any input validated, so a
  // caller below it gets the same 401, 403 or 513 whatever it sends, never a 400 describing the
  // input the route expects.
  it('refuses callers below the policy the same way whatever the input, never with a 400', async () => {
    const f = await fixture()
    const unbuilt: string[] = []
    const failures: string[] = []
    const seen = new Set<string>()
    let wrong = 0
    for (const route of routes) {
      for (const caller of refusedByPolicy(route)) {
        const { good, inputs, unbuilt: missing } = badInputs(route, f, caller.keep)
        unbuilt.push(...missing)
        seen.add(caller.who)
        for (const input of [good, ...inputs]) {
          const res = await send(route, input, caller.cookie)
          const code = res.json<{ errors?: { code: string }[] }>().errors?.[0]?.code
          if (res.statusCode !== caller.status || code !== caller.code)
            failures.push(
              `${route.method} ${route.url} as ${caller.who}, ${input.what}: ` +
                `${res.statusCode} ${res.body.slice(0, 120)}`,
            )
        }
        wrong += inputs.length
      }
    }
    expect(unbuilt).toEqual([])
    expect(failures).toEqual([])
    expect([...seen].sort()).toEqual(['expired session', 'otherSport', 'user', 'visitor'])
    // Every route but a visitor's had its input made wrong (and most more than once).
    expect(wrong).toBeGreaterThan(2 * routes.filter((r) => r.policy !== 'visitor').length)
  })
})
