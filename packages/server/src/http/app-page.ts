import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import {
  BOOT_DATA_ELEMENT_ID,
  BOOT_STATIC_FILES,
  type BootStatic,
} from '@tipping/contract/boot-files'
import { gameName, SITE_NAME, SPORTS, type Sport } from '@tipping/contract/constants'
import { defaultRoundNumber } from '@tipping/contract/rules/rounds'
import { roundsFileSchema } from '@tipping/contract/static-files'
import { escapeHtml } from '../html.ts'
import { loadRoutePreloads } from './route-preloads.ts'

// The single-page app's index.html as each visitor gets it. Three additions save a slow phone
// the round trips that otherwise stand between the script and the first paint:
// - the site content (BOOT_STATIC_FILES) and the static checksums, inline as JSON;
// - a preload of the session check the app starts at boot (every page makes it), and on a
//   sport's pages of the page's own chunks (route-preloads.ts) and, for a signed-in visitor, of
//   the static files the page reads as it mounts (SPORT_PAGE_STATIC_FILES) and, on the tipping
//   page, of the week's read it makes first (weekPreload);
// - a fresh style nonce (below).

export interface AppPage {
  /** `signedIn`: the request carries a session cookie (valid or not: only a hint for preloads). */
  render(url: string, csp: unknown, signedIn?: boolean): { html: string; csp: string | null }
}

/**
 * The published files a sport page reads as soon as it mounts (packages/web/src/lib/static-api.ts),
 * by the page's first path segment. Preloaded with the page, they arrive while its scripts load
 * and run, instead of one round trip after them (decision 036). Only for a signed-in visitor:
 * anyone else is sent on to sign in, and an unused preload is a console warning.
 */
export const SPORT_PAGE_STATIC_FILES: Readonly<Record<string, readonly string[]>> = {
  tipping: ['rounds.json', 'squads.json', 'venues.json', 'formguide.json'],
}

export function createAppPage(webDistDir: string, staticDir: string, appOrigin: string): AppPage {
  const indexHtml = fs.readFileSync(path.join(webDistDir, 'index.html'), 'utf8')
  const preview = linkPreview(indexHtml, appOrigin)
  const routes = loadRoutePreloads(webDistDir)
  // checksums.json is read on every page (a few KB): an admin's change shows on the next load,
  // as it did when the app fetched it. The boot files are read again only when it changes; the
  // publisher writes checksums.json last, so the files are already new by then.
  let boot: {
    key: string
    json: string
    checksums: Record<string, string>
    weeks: Map<Sport, number | null>
  } | null = null
  const bootData = () => {
    const key = readText(path.join(staticDir, 'checksums.json')) ?? ''
    if (boot?.key !== key) {
      const data = readBootStatic(staticDir, key)
      boot = {
        key,
        json: scriptSafe(JSON.stringify(data)),
        checksums: data.checksums,
        weeks: new Map(),
      }
    }
    return boot
  }
  return {
    render(url, csp, signedIn = false) {
      const pathname = url.split('?')[0]!
      const sport = SPORTS.find((s) => pathname === `/${s}` || pathname.startsWith(`/${s}/`))
      // credentials "include", as the app's own fetch, or the browser would not use the preload.
      const segment = pathname.split('/')[2] ?? ''
      const { json, checksums, weeks } = bootData()
      // The week the tipping page opens on, from the published fixture: read once per publish.
      const weekShown = (s: Sport) => {
        if (!weeks.has(s)) weeks.set(s, firstWeek(staticDir, s))
        return weeks.get(s)!
      }
      const preload =
        '<link rel="preload" href="/api/session" as="fetch" crossorigin="use-credentials">' +
        (sport ? routes.forSportPage(segment) : '') +
        (sport && signedIn ? staticPreloads(sport, segment, checksums) : '') +
        (sport && signedIn && pathname.replace(/\/$/, '') === `/${sport}/tipping`
          ? weekPreload(sport, weekShown(sport))
          : '')
      const data = `<script type="application/json" id="${BOOT_DATA_ELEMENT_ID}">${json}</script>`
      const page = withStyleNonce(indexHtml, csp)
      return {
        html: page.html.replace('</head>', `${preview(sport)}${preload}${data}</head>`),
        csp: page.csp,
      }
    },
  }
}

/**
 * What a chat app or a social site shows for a link to any page (Open Graph, Twitter's card):
 * the game's name (the sport's on its pages), the page's own description and the share card, at
 * the configured origin (never the request's Host). Every page is the same app, so each names the
 * site's root as its address. The share links (`/share/...`, modules/share) say more.
 */
function linkPreview(indexHtml: string, appOrigin: string): (sport: Sport | undefined) => string {
  const origin = appOrigin.replace(/\/+$/, '')
  // As written in index.html: already attribute text (its entities stay as they are).
  const description = /<meta\s+name="description"\s+content="([^"]*)"/.exec(indexHtml)?.[1] ?? ''
  const tag = (property: string, content: string) =>
    `<meta property="${property}" content="${escapeHtml(content)}">`
  const tags = (title: string) =>
    tag('og:type', 'website') +
    tag('og:site_name', SITE_NAME) +
    tag('og:title', title) +
    `<meta property="og:description" content="${description}">` +
    tag('og:image', `${origin}/share-card.png`) +
    tag('og:image:width', '1200') +
    tag('og:image:height', '630') +
    tag('og:url', `${origin}/`) +
    '<meta name="twitter:card" content="summary_large_image">'
  const bySport = new Map<Sport | undefined, string>([
    [undefined, tags(SITE_NAME)],
    ...SPORTS.map((s): [Sport, string] => [s, tags(gameName(s))]),
  ])
  return (sport) => bySport.get(sport)!
}

/**
 * The page's static files, addressed exactly as the app's `staticJson` asks for them (the
 * checksum as `v`, none when unknown) and with its fetch's mode (CORS, same-origin
 * credentials: `crossorigin`), or the browser would fetch them a second time.
 */
function staticPreloads(sport: string, segment: string, checksums: Record<string, string>) {
  return (SPORT_PAGE_STATIC_FILES[segment] ?? [])
    .flatMap((name) => {
      const file = `${sport}/${name}`
      const sum = checksums[file] ?? ''
      // The publisher's checksums are hex; anything else is not written into the page.
      if (!/^[\w.-]*$/.test(sum)) return []
      return [
        `<link rel="preload" href="/static/${file}${sum ? `?v=${sum}` : ''}" as="fetch" crossorigin>`,
      ]
    })
    .join('')
}

/**
 * The tipping page's first read, its week's tips and lockouts (`GET /api/{sport}/predictions/{n}`):
 * the page can only ask once its script has run and the fixture has named the week, a round trip
 * after everything else. Named here, it is on its way with the page's other files (decision 048).
 * Credentials as the app's own fetch sends them, or the browser would ask twice.
 */
function weekPreload(sport: Sport, week: number | null): string {
  if (week === null) return ''
  return `<link rel="preload" href="/api/${sport}/predictions/${week}" as="fetch" crossorigin="use-credentials">`
}

/** The published fixture's first week to show (the contract's rule, as the page applies it). */
function firstWeek(staticDir: string, sport: Sport): number | null {
  const file = roundsFileSchema.safeParse(
    parse(readText(path.join(staticDir, sport, 'rounds.json'))),
  )
  return file.success ? defaultRoundNumber(file.data.rounds) : null
}

const readText = (file: string): string | undefined => {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

const parse = (text: string | undefined): unknown => {
  try {
    return text === undefined ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * The boot files as published now, with the checksums from `checksumsText` (checksums.json as
 * already read); a missing or unreadable file is left out (the app fetches it).
 */
function readBootStatic(staticDir: string, checksumsText: string): BootStatic {
  const sums = parse(checksumsText) as { files?: Record<string, string> } | undefined
  const files: Record<string, unknown> = {}
  for (const file of BOOT_STATIC_FILES) {
    const value = parse(readText(path.join(staticDir, file)))
    if (value !== undefined) files[file] = value
  }
  return { checksums: sums?.files ?? {}, files }
}

/** JSON that cannot end its <script> element or open a comment: every `<` escaped. */
export const scriptSafe = (json: string): string => json.replace(/</g, '\\u003c')

/**
 * A fresh style nonce per answer: Radix Dialog's scroll lock inserts one <style> element when a
 * modal opens, which `style-src 'self'` would block. The nonce is allowed for styles on this
 * answer only (scripts stay 'self'), and the page reads it from a meta tag (main.tsx).
 */
function withStyleNonce(html: string, csp: unknown): { html: string; csp: string | null } {
  const allowed = styleNonce(csp)
  if (!allowed) return { html, csp: null }
  return {
    html: html.replace('<head>', `<head><meta name="csp-nonce" content="${allowed.nonce}">`),
    csp: allowed.csp,
  }
}

/**
 * A fresh nonce, and the answer's Content-Security-Policy allowing a `<style>` element that
 * carries it; null when the answer has no policy (the element needs no nonce then).
 */
export function styleNonce(csp: unknown): { nonce: string; csp: string } | null {
  if (typeof csp !== 'string') return null
  const nonce = crypto.randomBytes(16).toString('base64')
  return { nonce, csp: csp.replace("style-src 'self'", `style-src 'self' 'nonce-${nonce}'`) }
}
