// The web app's pages, as the server needs to know them: every other path it answers with the
// app's not-found page and a 404 status, so a mistyped or retired address, a scanner's probe and
// a search engine's crawl get an honest "not found" instead of a 200 for a page that says so.
// The router (packages/web/src/app/router.tsx) draws these pages; its test checks the two lists
// are the same.
import { SPORTS } from './constants.ts'
import { SSO_CALLBACK_PATHS } from './sso-clients.ts'

/** The landing page's paths: it draws the sport, the sign-in or sign-up dialog each names. */
export const LANDING_PATHS: readonly string[] = [
  '/',
  '/login',
  '/registration',
  '/forgot-password',
  '/bbl',
  '/wbbl',
  '/login-app',
  '/login-bigbash-app',
]

/**
 * Every page's path pattern. `:name` matches any one segment, except `:sport`, which matches a
 * sport only (any other value draws the not-found page).
 */
export const APP_PAGE_PATTERNS: readonly string[] = [
  ...LANDING_PATHS,
  ...Object.values(SSO_CALLBACK_PATHS),
  '/:sport/tipping',
  '/:sport/leagues',
  '/:sport/leagues/join',
  '/:sport/leagues/join/:code',
  '/:sport/leagues/create',
  '/:sport/rankings',
  '/:sport/league/:leagueId',
  '/:sport/league/:leagueId/:section',
  '/:sport/league/:leagueId/head-to-head',
  '/:sport/season',
  '/:sport/tips-history',
  '/:sport/archive',
  '/:sport/archive/:year',
  '/:sport/archive/:year/league/:leagueId',
  '/:sport/account',
  '/:sport/help/contact',
  '/admin',
  '/admin/matches',
  '/admin/content',
  '/admin/users',
  '/admin/leagues',
  '/admin/emails',
  '/admin/audit',
  '/admin/health',
  '/:sport/help',
  '/:sport/help/:section',
  '/terms',
  '/privacy-policy',
  '/logout',
  '/reset-password',
  '/share/:sport/:section/:token',
  '/leagues/join/:code',
  // The account page of the remembered sport: where /.well-known/change-password leads.
  '/account',
]

const segments = (path: string): string[] => path.split('/').filter((s) => s !== '')

// Split once, when first asked (the web app imports this module for LANDING_PATHS alone).
let patterns: string[][] | null = null

/** A decoded path segment, or null when its escapes are malformed (no page has such a path). */
const decode = (segment: string): string | null => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

/**
 * Whether the app draws a page (not its not-found page) at `pathname` (no query string). As the
 * router matches: literal segments in either case, a trailing slash ignored.
 */
export function isAppPage(pathname: string): boolean {
  const parts = segments(pathname).map(decode)
  if (parts.some((p) => p === null)) return false
  patterns ??= APP_PAGE_PATTERNS.map(segments)
  return patterns.some(
    (pattern) =>
      pattern.length === parts.length &&
      pattern.every((want, i) => {
        const got = parts[i]!
        if (want === ':sport') return (SPORTS as readonly string[]).includes(got)
        if (want.startsWith(':')) return true
        return want.toLowerCase() === got.toLowerCase()
      }),
  )
}
