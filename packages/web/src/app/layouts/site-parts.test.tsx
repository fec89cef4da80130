import { fireEvent, render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Advert } from '@tipping/contract/content'
import {
  SITE_CONTENT_DEFAULTS,
  SiteContentContext,
  type SiteContent,
} from '../../lib/site-content.tsx'
import { AdvertSlot, advertImageFor } from './advert-slot.tsx'
import { Header } from './header.tsx'
import { NotificationBar, notificationBarKey } from './notification-bar.tsx'

afterEach(() => {
  localStorage.clear()
  vi.unstubAllGlobals()
})

const withContent = (content: Partial<SiteContent>, ui: React.ReactNode) => (
  <SiteContentContext.Provider value={{ ...SITE_CONTENT_DEFAULTS, ...content }}>
    <MemoryRouter>{ui}</MemoryRouter>
  </SiteContentContext.Provider>
)

describe('notification bar', () => {
  const bars: SiteContent['bars'] = [
    { sport: 'bbl', isEnabled: true, message: 'Golden Week starts Friday' },
    { sport: 'wbbl', isEnabled: true, message: 'WBBL finals week' },
  ]

  it('shows the sport message until dismissed, then stays dismissed when mounted again', () => {
    const first = render(withContent({ bars }, <NotificationBar sport="bbl" />))
    expect(screen.getByText('Golden Week starts Friday')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notice' }))
    expect(screen.queryByText('Golden Week starts Friday')).toBeNull()
    // Spec 3: the key holds the string false (with the storage suffix '-1').
    expect(localStorage.getItem(`${notificationBarKey('bbl')}-1`)).toBe('false')
    first.unmount()
    // A reload is a fresh mount: still gone for bbl, while wbbl keeps its own bar.
    render(
      withContent(
        { bars },
        <>
          <NotificationBar sport="bbl" />
          <NotificationBar sport="wbbl" />
        </>,
      ),
    )
    expect(screen.queryByText('Golden Week starts Friday')).toBeNull()
    expect(screen.getByText('WBBL finals week')).toBeTruthy()
  })

  it('shows nothing when the bar is switched off', () => {
    render(
      withContent(
        { bars: [{ sport: 'bbl', isEnabled: false, message: 'Off' }] },
        <NotificationBar sport="bbl" />,
      ),
    )
    expect(screen.queryByTestId('notification-bar')).toBeNull()
  })
})

describe('advert slots', () => {
  const mrec: Advert = {
    type: 'mrec',
    desktopImage: '/ads/desk.png',
    mobileImage: '/ads/phone.png',
    url: 'https://sponsor.example/offer',
  }

  it('chooses the desktop image from 700 px and the mobile one below', () => {
    expect(advertImageFor(mrec, 699)).toBe('/ads/phone.png')
    expect(advertImageFor(mrec, 700)).toBe('/ads/desk.png')
    expect(advertImageFor(mrec, 701)).toBe('/ads/desk.png')
  })

  const matchWidth = (width: number) =>
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: Number(/min-width: (\d+)px/.exec(query)?.[1]) <= width,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    }))

  it.each([
    [699, '/ads/phone.png', '100'],
    [701, '/ads/desk.png', '250'],
  ])('at %i px shows %s with its size reserved', (width, src, height) => {
    matchWidth(width)
    render(
      withContent({ adverts: { bbl: [mrec], wbbl: [] } }, <AdvertSlot sport="bbl" type="mrec" />),
    )
    const img = screen.getByRole('img', { name: /Advertisement/ })
    expect(img.getAttribute('src')).toBe(src)
    expect(img.getAttribute('height')).toBe(height)
    const link = img.closest('a')!
    expect(link.getAttribute('target')).toBe('_blank')
    expect(link.getAttribute('rel')).toContain('noopener')
  })

  it('renders nothing for a slot without an advert', () => {
    render(
      withContent(
        { adverts: { bbl: [mrec], wbbl: [] } },
        <AdvertSlot sport="bbl" type="leaderboard" />,
      ),
    )
    expect(screen.queryByTestId('advert-leaderboard')).toBeNull()
  })
})

describe('header menu (spec 2)', () => {
  const renderHeader = (sport: 'bbl' | 'wbbl', now: string) =>
    render(
      <MemoryRouter>
        <Header sport={sport} now={new Date(now)} onLogout={() => undefined} />
      </MemoryRouter>,
    )

  it('has every entry, Your Leagues with its sub-menu toggle', () => {
    renderHeader('bbl', '2025-12-20T00:00:00Z')
    const nav = within(screen.getByRole('navigation', { name: 'Main' }))
    const href = (name: string) => nav.getByRole('link', { name }).getAttribute('href')
    expect(href('Tips')).toBe('/bbl/tipping')
    expect(href('Join a league')).toBe('/bbl/leagues/join')
    expect(href('Create a league')).toBe('/bbl/leagues/create')
    expect(href('Rankings')).toBe('/bbl/rankings')
    expect(href('Help')).toBe('/bbl/help')
    expect(href('Prizes')).toBe('/bbl/help/prizes')
    expect(href('Account')).toBe('/bbl/account')
    expect(nav.getByRole('button', { name: 'Logout' })).toBeTruthy()
    const leagues = nav.getByRole('button', { name: /Your Leagues/ })
    expect(leagues.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(leagues)
    expect(leagues.getAttribute('aria-expanded')).toBe('true')
    const other = nav.getByRole('link', { name: /WBBL tipping/ })
    expect(other.getAttribute('href')).toBe('/wbbl/tipping')
    expect(other.getAttribute('target')).toBe('_blank')
  })

  it("hides the men's link on the women's site until 14 Dec 2025", () => {
    const before = renderHeader('wbbl', '2025-12-13T23:59:59Z')
    expect(screen.queryByRole('link', { name: /BBL tipping/ })).toBeNull()
    before.unmount()
    renderHeader('wbbl', '2025-12-14T00:00:00Z')
    expect(screen.getByRole('link', { name: /BBL tipping/ }).getAttribute('target')).toBe('_blank')
  })

  it('toggles the mobile menu', () => {
    renderHeader('bbl', '2025-12-20T00:00:00Z')
    const toggle = screen.getByRole('button', { name: 'Open menu' })
    fireEvent.click(toggle)
    expect(screen.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe(
      'true',
    )
  })
})
