import { describe, expect, it } from 'vitest'
import {
  deepLinkFor,
  homeRedirect,
  RECENT_REGISTRATION_MS,
  rememberDeepLink,
  routeAfterSignIn,
  savedInvite,
  takeRouteAfterSignIn,
} from './after-sign-in.ts'

const now = new Date('2026-11-23T10:00:00Z')
const at = (msAgo: number) => ({ date: new Date(now.getTime() - msAgo).toISOString() })
const fresh = { recovered: false, registeredAt: at(60_000) }
const old = { recovered: false, registeredAt: at(RECENT_REGISTRATION_MS + 1) }
const recovered = { recovered: true, registeredAt: at(60_000) }
const join = '/bbl/leagues/join/ABCDEFGH23'
const create = '/wbbl/leagues/create'
const tipping = '/bbl/tipping'

describe('guards after sign-in (spec 2), table by table', () => {
  it.each([
    ['new user, no link', fresh, {}, '/bbl/leagues'],
    ['new user, tipping link', fresh, { tippingLink: tipping }, tipping],
    [
      'new user, create link wins over tipping',
      fresh,
      { createLink: create, tippingLink: tipping },
      create,
    ],
    ['new user, join link wins over all', fresh, { joinLink: join, createLink: create }, join],
    [
      'old user ignores create and tipping links',
      old,
      { createLink: create, tippingLink: tipping },
      '/bbl/leagues',
    ],
    ['old user still follows an invite', old, { joinLink: join }, join],
    ['recovered account goes to leagues', recovered, { tippingLink: tipping }, '/bbl/leagues'],
    ['recovered account still follows an invite', recovered, { joinLink: join }, join],
    ['a tampered link is ignored', fresh, { tippingLink: 'https://evil.example/' }, '/bbl/leagues'],
    ['a link of the wrong kind is ignored', fresh, { createLink: tipping }, '/bbl/leagues'],
  ])('%s', (_name, user, saved, expected) => {
    expect(routeAfterSignIn(user, 'bbl', now, saved)).toBe(expected)
  })

  it('knows which signed-out visits leave a link behind', () => {
    expect(deepLinkFor(join)).toBe('joinLink')
    expect(deepLinkFor(create)).toBe('createLink')
    expect(deepLinkFor(tipping)).toBe('tippingLink')
    expect(deepLinkFor('/bbl/rankings')).toBeNull()
  })
})

describe('saved links never leave the app', () => {
  it('ignores a tampered saved link that names another origin or is not an app path', () => {
    const recent = { recovered: false, registeredAt: { date: now.toISOString() } }
    for (const hostile of [
      'https://evil.example/bbl/tipping',
      '//evil.example/bbl/leagues/join/ABCDEFGHJK',
      '/bbl/leagues/join/ABC?next=https://evil.example',
      '/bbl/tipping/../../evil',
      'javascript:alert(1)',
      '/\\evil.example/bbl/tipping',
    ]) {
      expect(deepLinkFor(hostile)).toBeNull()
      expect(
        routeAfterSignIn(recent, 'bbl', now, {
          joinLink: hostile,
          createLink: hostile,
          tippingLink: hostile,
        }),
      ).toBe('/bbl/leagues')
    }
  })
})

describe('a new account with no saved link (issue 27)', () => {
  it('lands on the leagues page: registering saves no tipping link of its own', () => {
    localStorage.clear()
    expect(takeRouteAfterSignIn(fresh, 'wbbl', now)).toBe('/wbbl/leagues')
  })

  it('follows the link a signed-out visit saved, once', () => {
    localStorage.clear()
    rememberDeepLink('/wbbl/tipping')
    expect(takeRouteAfterSignIn(fresh, 'wbbl', now)).toBe('/wbbl/tipping')
    expect(takeRouteAfterSignIn(fresh, 'wbbl', now)).toBe('/wbbl/leagues')
  })
})

describe('a signed-in visit to / (spec 2)', () => {
  const both = { roles: ['ROLE_USER_BBL', 'ROLE_USER_WBBL'] }
  it.each([
    ['goes to the sport', { ...fresh, ...both }, 'wbbl', false, '/wbbl'],
    ['an established account too', { ...old, ...both }, 'bbl', false, '/bbl'],
    ['a recovered account stays', { ...recovered, ...both }, 'bbl', false, null],
    ['stays in the offseason (/ is the offseason page)', { ...fresh, ...both }, 'bbl', true, null],
    [
      'stays when the account does not play that sport',
      { ...fresh, roles: ['ROLE_USER_BBL'] },
      'wbbl',
      false,
      null,
    ],
  ] as const)('%s', (_name, user, sport, offseason, expected) => {
    expect(homeRedirect(user, sport, offseason)).toBe(expected)
  })
})

describe('the saved invite the sign-in forms mention', () => {
  it('is the join link a signed-out visit saved, until sign-in takes it', () => {
    localStorage.clear()
    expect(savedInvite()).toBeNull()
    rememberDeepLink('/bbl/tipping')
    expect(savedInvite()).toBeNull()
    rememberDeepLink(join)
    expect(savedInvite()).toBe(join)
    expect(takeRouteAfterSignIn(fresh, 'bbl', now)).toBe(join)
    expect(savedInvite()).toBeNull()
  })

  it('ignores a stored value that is not a join link', () => {
    localStorage.setItem('joinLink-1', 'https://evil.example/bbl/leagues/join/ABCDEFGH23')
    expect(savedInvite()).toBeNull()
    localStorage.clear()
  })
})
