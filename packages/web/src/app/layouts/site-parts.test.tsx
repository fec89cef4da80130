import { fireEvent, render, screen, within } from '@testing-library/react'
import { Provider } from 'react-redux'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Advert } from '@tipping/contract/content'
import {
  SITE_CONTENT_DEFAULTS,
  SiteContentContext,
  type SiteContent,
} from '../../lib/site-content.tsx'
import { createTestStore } from '../../lib/test-store.ts'
import { AdvertSlot, advertImageFor } from './advert-slot.tsx'
import { Header } from './header.tsx'
import { NotificationBar, notificationBarKey } from './notification-bar.tsx'

afterEach(() => {
  localStorage.clear()
  vi.unstubAllGlobals()
})

/** Where the router is now, for tests that follow a link. */
function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>
}

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
  const renderHeader = (sport: 'bbl' | 'wbbl', now: string, isAdmin = false) =>
    render(
      <Provider store={createTestStore()}>
        <MemoryRouter initialEntries={[`/${sport}/tipping`]}>
          <Header sport={sport} now={new Date(now)} onLogout={() => undefined} isAdmin={isAdmin} />
          <Routes>
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </Provider>,
    )

  it('has every entry, Your Leagues with its sub-menu toggle', () => {
    renderHeader('bbl', '2025-12-20T00:00:00Z')
    const nav = within(screen.getByRole('navigation', { name: 'Main' }))
    const href = (name: string) => nav.getByRole('link', { name }).getAttribute('href')
    expect(href('Tips')).toBe('/bbl/tipping')
    fireEvent.click(nav.getByRole('button', { name: /Your Leagues/ }))
    expect(href('Join a league')).toBe('/bbl/leagues/join')
    expect(href('Create a league')).toBe('/bbl/leagues/create')
    expect(href('Rankings')).toBe('/bbl/rankings')
    expect(href('Help')).toBe('/bbl/help')
    expect(href('Prizes')).toBe('/bbl/help/prizes')
    expect(href('Account')).toBe('/bbl/account')
    expect(nav.getByRole('button', { name: 'Logout' })).toBeTruthy()
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

  it('shows the Your Leagues sub-menu exactly when its toggle says it is expanded', () => {
    renderHeader('bbl', '2025-12-20T00:00:00Z')
    const leagues = screen.getByRole('button', { name: 'Your Leagues' })
    const sub = document.getElementById(leagues.getAttribute('aria-controls')!)!
    expect(leagues.getAttribute('aria-expanded')).toBe('false')
    expect(sub.hidden).toBe(true)
    expect(screen.queryByRole('link', { name: 'Join a league' })).toBeNull()
    fireEvent.click(leagues)
    expect(leagues.getAttribute('aria-expanded')).toBe('true')
    expect(sub.hidden).toBe(false)
    expect(within(sub).getByRole('link', { name: 'Create a league' })).toBeTruthy()
    fireEvent.click(leagues)
    expect(leagues.getAttribute('aria-expanded')).toBe('false')
    expect(sub.hidden).toBe(true)
  })

  it('closes on Escape, the sub-menu first, giving focus back to each toggle', () => {
    renderHeader('bbl', '2025-12-20T00:00:00Z')
    const menu = screen.getByRole('button', { name: 'Open menu' })
    fireEvent.click(menu)
    const leagues = screen.getByRole('button', { name: 'Your Leagues' })
    fireEvent.click(leagues)
    const join = screen.getByRole('link', { name: 'Join a league' })
    join.focus()
    fireEvent.keyDown(join, { key: 'Escape' })
    expect(leagues.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(leagues)
    expect(menu.getAttribute('aria-expanded')).toBe('true')
    fireEvent.keyDown(leagues, { key: 'Escape' })
    expect(menu.getAttribute('aria-expanded')).toBe('false')
    expect(menu.getAttribute('aria-label')).toBe('Open menu')
    expect(document.activeElement).toBe(menu)
  })

  it('folds both menus when a link leads to a new page', () => {
    renderHeader('bbl', '2025-12-20T00:00:00Z')
    fireEvent.click(screen.getByRole('button', { name: 'Open menu' }))
    fireEvent.click(screen.getByRole('button', { name: 'Your Leagues' }))
    fireEvent.click(screen.getByRole('link', { name: 'Create a league' }))
    expect(screen.getByTestId('where').textContent).toBe('/bbl/leagues/create')
    expect(screen.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe(
      'false',
    )
    expect(screen.getByRole('button', { name: 'Your Leagues' }).getAttribute('aria-expanded')).toBe(
      'false',
    )
  })

  it('folds the sub-menu on a click outside it', () => {
    renderHeader('bbl', '2025-12-20T00:00:00Z')
    const leagues = screen.getByRole('button', { name: 'Your Leagues' })
    fireEvent.click(leagues)
    fireEvent.pointerDown(screen.getByRole('link', { name: 'Rankings' }))
    expect(leagues.getAttribute('aria-expanded')).toBe('false')
  })

  it('links the admin console for admins only', () => {
    const user = renderHeader('bbl', '2025-12-20T00:00:00Z')
    expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull()
    user.unmount()
    renderHeader('bbl', '2025-12-20T00:00:00Z', true)
    const nav = within(screen.getByRole('navigation', { name: 'Main' }))
    expect(nav.getByRole('link', { name: 'Admin' }).getAttribute('href')).toBe('/admin')
  })
})
