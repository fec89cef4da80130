import { render, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { JoinLinkRoute, ShareRoute } from './link-routes.tsx'

const land = async (path: string) => {
  const router = createMemoryRouter(
    [
      { path: '/share/:sport/:section/:token', element: <ShareRoute /> },
      { path: '/leagues/join/:code', element: <JoinLinkRoute /> },
      { path: '*', element: null },
    ],
    { initialEntries: [path] },
  )
  render(<RouterProvider router={router} />)
  await waitFor(() => expect(router.state.location.pathname).not.toBe(path))
  return router.state.location.pathname
}

describe('link routes', () => {
  it('opens the shared league, or the competition for a general share', async () => {
    const league = btoa(JSON.stringify({ t: '1234', league_id: 7 }))
    expect(await land(`/share/wbbl/league/${league}`)).toBe('/wbbl/league/7/ladder')
    expect(await land(`/share/bbl/general/${btoa('{"t":"1"}')}`)).toBe('/bbl')
    expect(await land('/share/cricket/general/x')).toBe('/')
  })
  it('sends a join link without a sport to the remembered sport', async () => {
    localStorage.setItem('selectedSport-1', 'wbbl')
    expect(await land('/leagues/join/ABCDEFGH23')).toBe('/wbbl/leagues/join/ABCDEFGH23')
  })
})
