import { describe, expect, it } from 'vitest'
import {
  advertFor,
  notificationBarFor,
  offseasonRedirects,
  SITE_CONTENT_DEFAULTS,
  type SiteContent,
} from './site-content.tsx'

describe('offseason redirect rule (spec 2)', () => {
  it.each(['/', '/terms', '/privacy-policy', '/terms/', '/privacy-policy/'])(
    'keeps %s, one of the pages that exist in offseason',
    (path) => expect(offseasonRedirects(path)).toBe(false),
  )
  it.each(['/bbl/terms', '/some-terms-page', '/wbbl/help/terms'])(
    'keeps %s because its path contains terms',
    (path) => expect(offseasonRedirects(path)).toBe(false),
  )
  it.each([
    '/bbl/tipping',
    '/wbbl/leagues',
    '/bbl/help',
    '/bbl/help/prizes',
    '/login',
    '/registration',
    '/bbl',
    '/privacy',
    '/nowhere',
  ])('sends %s to /', (path) => expect(offseasonRedirects(path)).toBe(true))
  it('leaves the admin console reachable so an admin can end the offseason', () => {
    expect(offseasonRedirects('/admin')).toBe(false)
    expect(offseasonRedirects('/admin/content')).toBe(false)
    expect(offseasonRedirects('/administrator')).toBe(true)
  })
})

const content = (over: Partial<SiteContent>): SiteContent => ({ ...SITE_CONTENT_DEFAULTS, ...over })

describe('notification bar of a sport', () => {
  it('is the message of an enabled bar of that sport only', () => {
    const c = content({
      bars: [
        { sport: 'bbl', isEnabled: true, message: 'Week 3 is open' },
        { sport: 'wbbl', isEnabled: false, message: 'Hidden' },
      ],
    })
    expect(notificationBarFor(c, 'bbl')).toBe('Week 3 is open')
    expect(notificationBarFor(c, 'wbbl')).toBeNull()
  })
  it('is nothing when the file is missing or empty', () => {
    expect(notificationBarFor(SITE_CONTENT_DEFAULTS, 'bbl')).toBeNull()
    expect(
      notificationBarFor(
        content({ bars: [{ sport: 'bbl', isEnabled: true, message: '' }] }),
        'bbl',
      ),
    ).toBeNull()
  })
})

describe('advert of a slot', () => {
  const mrec = { type: 'mrec' as const, desktopImage: '/d.png', mobileImage: '/m.png', url: '/x' }
  const second = { ...mrec, desktopImage: '/d2.png' }
  it('is the first advert of that type of that sport', () => {
    const c = content({ adverts: { bbl: [mrec, second], wbbl: [] } })
    expect(advertFor(c, 'bbl', 'mrec')).toBe(mrec)
    expect(advertFor(c, 'bbl', 'leaderboard')).toBeNull()
    expect(advertFor(c, 'wbbl', 'mrec')).toBeNull()
  })
})
