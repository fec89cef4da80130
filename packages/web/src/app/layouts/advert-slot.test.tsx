import { render, screen } from '@testing-library/react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { describe, expect, it } from 'vitest'
import type { Advert } from '@tipping/contract/content'
import { SITE_CONTENT_DEFAULTS, SiteContentContext } from '../../lib/site-content.tsx'
import { AdvertArea } from './advert-slot.tsx'

const advert = (type: Advert['type']): Advert => ({
  type,
  desktopImage: `/ads/${type}-desk.png`,
  mobileImage: `/ads/${type}-phone.png`,
  url: '/bbl/help/prizes',
})

const areaAt = (path: string) =>
  render(
    <SiteContentContext.Provider
      value={{
        ...SITE_CONTENT_DEFAULTS,
        adverts: {
          bbl: [{ ...advert('leaderboard'), alt: 'Win $10,000. See the prizes.' }, advert('mrec')],
          wbbl: [],
        },
      }}
    >
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/:sport/*" element={<AdvertArea sport="bbl" />} />
        </Routes>
      </MemoryRouter>
    </SiteContentContext.Provider>,
  )

describe('the advert area under a page', () => {
  it('shows the leaderboard and the mrec under a page', () => {
    areaAt('/bbl/leagues')
    expect(screen.getByTestId('advert-leaderboard')).toBeTruthy()
    expect(screen.getByTestId('advert-mrec')).toBeTruthy()
  })

  it("names each advert's link by what its images say, or as an advertisement when unsaid", () => {
    areaAt('/bbl/leagues')
    // WCAG 1.1.1: the image's words are its alternative, and so the name of the link it is in.
    expect(
      screen.getByRole('link', { name: 'Advertisement: Win $10,000. See the prizes.' }),
    ).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Advertisement' })).toBeTruthy()
  })

  it('is left out on the tipping screen, whose advert is at its top (spec 2)', () => {
    areaAt('/bbl/tipping')
    expect(screen.queryByTestId('advert-leaderboard')).toBeNull()
    expect(screen.queryByTestId('advert-mrec')).toBeNull()
  })
})
