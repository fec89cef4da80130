import { describe, expect, it } from 'vitest'
import { isAppPage } from './pages.ts'

describe('isAppPage', () => {
  it('knows each kind of page, as the router matches it', () => {
    for (const path of [
      '/',
      '/wbbl',
      '/bbl/tipping',
      '/bbl/tipping/',
      '/bbl/TIPPING',
      '/wbbl/league/7/members',
      '/wbbl/league/7/head-to-head',
      '/bbl/help',
      '/bbl/help/faq',
      '/bbl/help/contact',
      '/admin',
      '/login-app/callback',
      '/share/bbl/league/abc',
      '/leagues/join/X1',
      '/bbl/leagues/join/X1',
      '/bbl/league/%31',
    ]) {
      expect(isAppPage(path), path).toBe(true)
    }
  })

  it('refuses what no page has: other sports, other depths, unknown words, bad escapes', () => {
    for (const path of [
      '/index.html',
      '/xyz',
      '/xyz/tipping',
      '/BBL/tipping',
      '/bbl/tipping/1',
      '/bbl/league',
      '/bbl/archive/2024/league/3/ladder',
      '/admin/nothing',
      '/favicon.ico',
      '/bbl/league/%E0%A4%A',
      '/terms/x',
    ]) {
      expect(isAppPage(path), path).toBe(false)
    }
  })
})
