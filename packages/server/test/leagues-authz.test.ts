import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, loadSeasons, registerUser, type TestApp } from './helpers.ts'

// The authorisation matrix of every league route: five roles x each route x a private and a
// public league. For each cell: the status code; that a private league's code, members and ladder
// never reach a non-member; and that a refused call (or a read) leaves the database as it was.
// ROLE_ADMIN grants nothing over leagues (admins run results, not other people's leagues): an
// admin who is not a member is a non-member.

type Role = 'visitor' | 'member' | 'nonMember' | 'commissioner' | 'admin'
type Privacy = 'private' | 'public'
const ROLES: Role[] = ['visitor', 'member', 'nonMember', 'commissioner', 'admin']

let t: TestApp
const users = {} as Record<Exclude<Role, 'visitor'>, { cookie: string; id: number }>
// Names that would only show if a private league's members leaked.
const MEMBER_TEAM = 'Zanzibar Hidden Members'
const COMMISSIONER_TEAM = 'Quetzal Secret Commish'

beforeAll(async () => {
  t = await createTestApp({ config: { APP_ORIGIN: 'https://tipping.example' } })
  await loadSeasons(t.db)
  users.commissioner = await registerUser(t.app, { team_name: COMMISSIONER_TEAM })
  users.member = await registerUser(t.app, { team_name: MEMBER_TEAM })
  users.nonMember = await registerUser(t.app, { team_name: 'Outsiders' })
  users.admin = await registerUser(t.app, { team_name: 'Admins' })
  await t.db
    .updateTable('users')
    .set({ roles: ['ROLE_ADMIN', 'ROLE_USER_BBL', 'ROLE_USER_WBBL'] })
    .where('id', '=', users.admin.id)
    .execute()
})
afterAll(() => t.close())

const cookieOf = (role: Role) => (role === 'visitor' ? {} : { cookie: users[role].cookie })

interface Fixture {
  id: number
  code: string
  name: string
}

let made = 0
/** A fresh league per cell: the commissioner's, with one other member. */
async function fixture(privacy: Privacy): Promise<Fixture> {
  const name = `Authz ${privacy} ${++made}`
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/bbl/league',
    headers: cookieOf('commissioner'),
    payload: { name, privacy, startRound: 1 },
  })
  const league = res.json().success.league as { id: number; code: string }
  await t.app.inject({
    method: 'POST',
    url: `/api/bbl/league/${league.code}/join`,
    headers: cookieOf('member'),
  })
  return { id: league.id, code: league.code, name }
}

/** Everything a league call could change. */
async function snapshot(): Promise<string> {
  const [leagues, members, outbox, audit] = await Promise.all([
    t.db.selectFrom('leagues').selectAll().orderBy('id').execute(),
    t.db.selectFrom('league_members').selectAll().orderBy('league_id').orderBy('user_id').execute(),
    t.db.selectFrom('email_outbox').selectAll().orderBy('id').execute(),
    t.db.selectFrom('audit_log').selectAll().orderBy('id').execute(),
  ])
  return JSON.stringify({ leagues, members, outbox, audit })
}

/** Expected status: one number for every role but the visitor, or split by privacy. */
type Cell = number | Record<Privacy, number>
interface Route {
  name: string
  /** The route as the OpenAPI document names it. */
  op: string
  method: 'GET' | 'POST'
  url: (l: Fixture) => string
  body?: (l: Fixture) => object
  /** The caller supplies the join code itself, so seeing it back is no leak. */
  callerKnowsCode?: boolean
  expect: Record<Exclude<Role, 'visitor'>, Cell>
}

// The commissioner manages; a member may read and leave; a non-member sees a public league (and
// is refused managing it: 403) but a private one does not exist for them (404).
const manage = {
  commissioner: 200,
  member: 403,
  nonMember: { private: 404, public: 403 },
  admin: { private: 404, public: 403 },
}
const read = {
  commissioner: 200,
  member: 200,
  nonMember: { private: 404, public: 200 },
  admin: { private: 404, public: 200 },
}
const anyone = { commissioner: 200, member: 200, nonMember: 200, admin: 200 }

const ROUTES: Route[] = [
  {
    name: 'create',
    op: 'POST /api/{sport}/league',
    method: 'POST',
    url: () => '/api/bbl/league',
    body: () => ({ name: 'Another League', startRound: 1 }),
    expect: anyone,
  },
  {
    name: 'own leagues',
    op: 'GET /api/{sport}/leagues',
    method: 'GET',
    url: () => '/api/bbl/leagues',
    expect: anyone,
  },
  {
    name: 'search by name',
    op: 'GET /api/{sport}/league/show-for-join',
    method: 'GET',
    url: (l) => `/api/bbl/league/show-for-join?search=${encodeURIComponent(l.name)}`,
    expect: anyone,
  },
  {
    name: 'show',
    op: 'GET /api/{sport}/league/{id}',
    method: 'GET',
    url: (l) => `/api/bbl/league/${l.id}`,
    expect: read,
  },
  {
    name: 'update',
    op: 'POST /api/{sport}/league/{id}',
    method: 'POST',
    url: (l) => `/api/bbl/league/${l.id}`,
    body: () => ({ description: 'Changed' }),
    expect: manage,
  },
  {
    name: 'delete',
    op: 'POST /api/{sport}/league/{id}/delete',
    method: 'POST',
    url: (l) => `/api/bbl/league/${l.id}/delete`,
    expect: manage,
  },
  {
    name: 'join by code',
    op: 'POST /api/{sport}/league/{code}/join',
    method: 'POST',
    url: (l) => `/api/bbl/league/${l.code}/join`,
    callerKnowsCode: true,
    expect: anyone,
  },
  {
    name: 'leave',
    op: 'POST /api/{sport}/league/{id}/leave',
    method: 'POST',
    url: (l) => `/api/bbl/league/${l.id}/leave`,
    expect: { commissioner: 409, member: 200, nonMember: 404, admin: 404 },
  },
  {
    name: 'members',
    op: 'GET /api/{sport}/league/{id}/user/show-joined',
    method: 'GET',
    url: (l) => `/api/bbl/league/${l.id}/user/show-joined`,
    expect: read,
  },
  {
    name: 'remove member',
    op: 'POST /api/{sport}/league/{id}/user/{userId}',
    method: 'POST',
    url: (l) => `/api/bbl/league/${l.id}/user/${users.member.id}`,
    expect: manage,
  },
  {
    name: 'hand over',
    op: 'POST /api/{sport}/league/{id}/commissioner',
    method: 'POST',
    url: (l) => `/api/bbl/league/${l.id}/commissioner`,
    body: () => ({ userId: users.member.id }),
    expect: manage,
  },
  {
    name: 'ladder',
    op: 'GET /api/{sport}/rankings/{id}/rankings',
    method: 'GET',
    url: (l) => `/api/bbl/rankings/${l.id}/rankings`,
    expect: read,
  },
  {
    name: 'week ladder',
    op: 'GET /api/{sport}/rankings/{id}/rankings',
    method: 'GET',
    url: (l) => `/api/bbl/rankings/${l.id}/rankings?round=1&page=1`,
    expect: read,
  },
  {
    name: 'head-to-head',
    op: 'GET /api/{sport}/league/{id}/head-to-head',
    method: 'GET',
    url: (l) =>
      `/api/bbl/league/${l.id}/head-to-head?a=${users.commissioner.id}&b=${users.member.id}`,
    // The members' own record: a public league's visitors are refused too.
    expect: {
      commissioner: 200,
      member: 200,
      nonMember: { private: 404, public: 403 },
      admin: { private: 404, public: 403 },
    },
  },
  {
    name: 'honours',
    op: 'GET /api/{sport}/league/{id}/honours',
    method: 'GET',
    url: (l) => `/api/bbl/league/${l.id}/honours`,
    expect: read,
  },
  {
    name: 'invite',
    op: 'POST /api/{sport}/league/{id}/invite',
    method: 'POST',
    url: (l) => `/api/bbl/league/${l.id}/invite`,
    body: () => ({ emails: ['friend@example.com'] }),
    expect: manage,
  },
  {
    name: 'send emails',
    op: 'POST /api/{sport}/league/send_emails',
    method: 'POST',
    url: () => '/api/bbl/league/send_emails',
    body: (l) => ({ leagueId: l.id, subject: 'Hi', message: 'Hello members' }),
    expect: manage,
  },
  {
    name: 'delete_multi',
    op: 'POST /api/tipping_join/delete_multi',
    method: 'POST',
    url: () => '/api/tipping_join/delete_multi',
    body: (l) => ({ leagueId: l.id, userIds: [users.member.id] }),
    expect: manage,
  },
  {
    name: 'edit_users',
    op: 'POST /api/tipping_join/edit_users',
    method: 'POST',
    url: () => '/api/tipping_join/edit_users',
    body: (l) => ({ leagueId: l.id, users: [{ userId: users.member.id, remove: true }] }),
    expect: manage,
  },
]

const expected = (route: Route, role: Role, privacy: Privacy): number => {
  if (role === 'visitor') return 401
  const cell = route.expect[role]
  return typeof cell === 'number' ? cell : cell[privacy]
}

const cases = ROUTES.flatMap((route) =>
  (['private', 'public'] as const).flatMap((privacy) =>
    ROLES.map((role) => ({
      route,
      privacy,
      role,
      status: expected(route, role, privacy),
      label: `${route.method} ${route.name}, ${privacy} league, ${role}`,
    })),
  ),
)

describe('league authorisation matrix', () => {
  it('covers every league route in the API document', () => {
    const doc = t.app.swagger() as {
      paths: Record<string, Record<string, { tags?: string[] }>>
    }
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.tags?.includes('leagues'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    )
    expect(new Set(ROUTES.map((r) => r.op))).toEqual(new Set(documented))
    expect(cases).toHaveLength(ROUTES.length * 2 * ROLES.length)
  })

  it.each(cases)('$label -> $status', async ({ route, privacy, role, status }) => {
    const league = await fixture(privacy)
    const before = await snapshot()
    const res = await t.app.inject({
      method: route.method,
      url: route.url(league),
      headers: cookieOf(role),
      ...(route.body ? { payload: route.body(league) } : {}),
    })
    expect(res.statusCode, res.body).toBe(status)

    const outsider = role === 'visitor' || role === 'nonMember' || role === 'admin'
    if (outsider && privacy === 'private' && !route.callerKnowsCode) {
      expect(res.body).not.toContain(league.code)
      expect(res.body).not.toContain(MEMBER_TEAM)
      expect(res.body).not.toContain(COMMISSIONER_TEAM)
      expect(res.body).not.toContain(league.name)
    }
    if (status >= 400) {
      expect(res.json().errors).toHaveLength(1)
      expect(await snapshot()).toBe(before)
    }
    if (route.method === 'GET') expect(await snapshot()).toBe(before)
  })

  it('keeps a league to its own sport: the other sport’s paths do not find it', async () => {
    const league = await fixture('public')
    const before = await snapshot()
    for (const [method, url] of [
      ['GET', `/api/wbbl/league/${league.id}`],
      ['POST', `/api/wbbl/league/${league.id}/delete`],
      ['GET', `/api/wbbl/rankings/${league.id}/rankings`],
      ['POST', `/api/wbbl/league/${league.id}/invite`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: cookieOf('commissioner'),
        ...(method === 'POST' ? { payload: { emails: ['x@example.com'] } } : {}),
      })
      expect(res.statusCode, url).toBe(404)
    }
    expect(await snapshot()).toBe(before)
  })

  it('finds a private league by its code only, for anyone who has the code', async () => {
    const league = await fixture('private')
    const byCode = await t.app.inject({
      url: `/api/bbl/league/show-for-join?code=${league.code}`,
      headers: cookieOf('nonMember'),
    })
    expect(byCode.json().success.leagues).toEqual([
      expect.objectContaining({ id: league.id, code: league.code, isMember: false }),
    ])
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/bbl/league/WRONGCODE1/join',
      headers: cookieOf('nonMember'),
    })
    expect(wrong.statusCode).toBe(404)
  })
})
