import { createContext, useContext, useDeferredValue, useMemo, type ReactNode } from 'react'
import type { Advert, MrecsFile, NotificationBarFile } from '@tipping/contract/content'
import type { AppConfigFile } from '@tipping/contract/static-files'
import type { Sport } from '@tipping/contract/constants'
import { api } from './api.ts'
import { lazySchema } from './lazy-schema.ts'
import { staticJson } from './static-data.ts'

// The site-wide content every page needs before its first paint (spec 2: offseason mode, top
// banner, notification bar, login-enabled flag), read once from app-config.json and
// notification_bar.json. Loading them first means nothing appears late and pushes the page down.

export interface SiteContent {
  config: AppConfigFile
  bars: NotificationBarFile['bars']
  /** Each sport's adverts ({sport}/mrecs.json), known before first paint so slots never jump. */
  adverts: Record<Sport, Advert[]>
}

export const SITE_CONTENT_DEFAULTS: SiteContent = {
  config: {
    matchCentreUrl: null,
    brand: null,
    appStoreUrl: null,
    playStoreUrl: null,
    errorReportUrl: null,
    taggingScriptUrl: null,
    offseason: false,
    loginEnabled: true,
    topBanner: null,
  },
  bars: [],
  adverts: { bbl: [], wbbl: [] },
}

export const SiteContentContext = createContext<SiteContent>(SITE_CONTENT_DEFAULTS)

export const useSiteContent = (): SiteContent => useContext(SiteContentContext)

/** The notification bar of a sport, when one is switched on. */
export function notificationBarFor(content: SiteContent, sport: Sport): string | null {
  const bar = content.bars.find((b) => b.sport === sport)
  return bar?.isEnabled && bar.message ? bar.message : null
}

/** Paths that exist in offseason mode (spec 2). */
export const OFFSEASON_PATHS = ['/', '/privacy-policy', '/terms'] as const

/**
 * Spec 2: in offseason mode only /, /privacy-policy and /terms exist; any other path goes to `/`
 * unless it contains "terms". The admin console stays reachable, so an admin can end the
 * offseason (the console checks the admin role itself).
 */
export function offseasonRedirects(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  if ((OFFSEASON_PATHS as readonly string[]).includes(path)) return false
  if (path.includes('terms')) return false
  if (path === '/admin' || path.startsWith('/admin/')) return false
  return true
}

/** The first advert of a slot type of a sport, if any. */
export function advertFor(content: SiteContent, sport: Sport, type: Advert['type']): Advert | null {
  return content.adverts[sport].find((a) => a.type === type) ?? null
}

// The files' schemas are loaded only to check an answer (never in production): this file is on
// the landing page's first download, which zod must stay out of (lib/lazy-schema.ts).
const staticFiles = () => import('@tipping/contract/static-files')
const contentFiles = () => import('@tipping/contract/content')

export const siteContentApi = api.injectEndpoints({
  endpoints: (build) => ({
    siteAppConfig: build.query<AppConfigFile, void>({
      query: () => ({ static: 'app-config.json' }),
      responseSchema: lazySchema(() => staticFiles().then((m) => m.appConfigFileSchema)),
      providesTags: ['Static'],
    }),
    siteNotificationBars: build.query<NotificationBarFile, void>({
      query: () => ({ static: 'notification_bar.json' }),
      responseSchema: lazySchema(() => contentFiles().then((m) => m.notificationBarFileSchema)),
      providesTags: ['Static'],
    }),
    siteAdverts: build.query<MrecsFile, Sport>({
      query: (sport) => ({ static: `${sport}/mrecs.json` }),
      responseSchema: lazySchema(() => contentFiles().then((m) => m.mrecsFileSchema)),
      providesTags: ['Static'],
    }),
  }),
})

const SITE_FILES = ['app-config.json', 'notification_bar.json', 'bbl/mrecs.json', 'wbbl/mrecs.json']

/**
 * Starts reading the site content's files before the app renders (app/boot-reads.ts): the
 * queries below then share those requests rather than wait for the router to load a page's code.
 */
export function prefetchSiteContent(): void {
  for (const file of SITE_FILES) staticJson(file).catch(() => undefined)
}

/**
 * The site content from its files; `fallback` shows until every file has answered or failed (a
 * file that failed leaves its part at the defaults).
 */
export function SiteContentProvider({
  children,
  fallback,
}: {
  children: ReactNode
  fallback: ReactNode
}) {
  const config = siteContentApi.useSiteAppConfigQuery()
  const bars = siteContentApi.useSiteNotificationBarsQuery()
  const bbl = siteContentApi.useSiteAdvertsQuery('bbl')
  const wbbl = siteContentApi.useSiteAdvertsQuery('wbbl')
  const settled = [config, bars, bbl, wbbl].every((q) => q.isSuccess || q.isError)
  const content = useMemo<SiteContent>(
    () => ({
      config: { ...SITE_CONTENT_DEFAULTS.config, ...config.data },
      bars: bars.data?.bars ?? [],
      adverts: { bbl: bbl.data?.adverts ?? [], wbbl: wbbl.data?.adverts ?? [] },
    }),
    [config.data, bars.data, bbl.data, wbbl.data],
  )
  // What this gate lets through is a load's largest render (the header, the page, the footer, all
  // code run for the first time): deferred, React renders it in slices that yield to input while
  // the fallback stays a moment longer, instead of in one task that freezes a slow phone (decision
  // 041). Only the showing waits; content that goes away goes at once.
  const shown = useDeferredValue(settled) && settled
  if (!shown) return <>{fallback}</>
  return <SiteContentContext.Provider value={content}>{children}</SiteContentContext.Provider>
}
