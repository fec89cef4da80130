import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import type { Advert, MrecsFile, NotificationBarFile } from '@tipping/contract/content'
import type { AppConfigFile } from '@tipping/contract/static-files'
import type { Sport } from '@tipping/contract/constants'
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

const advertsOf = (sport: Sport) =>
  staticJson<MrecsFile>(`${sport}/mrecs.json`)
    .then((f) => f.adverts)
    .catch(() => [])

export async function loadSiteContent(): Promise<SiteContent> {
  const [config, bars, bbl, wbbl] = await Promise.all([
    staticJson<AppConfigFile>('app-config.json').catch(() => SITE_CONTENT_DEFAULTS.config),
    staticJson<NotificationBarFile>('notification_bar.json').catch(() => ({ bars: [] })),
    advertsOf('bbl'),
    advertsOf('wbbl'),
  ])
  return {
    config: { ...SITE_CONTENT_DEFAULTS.config, ...config },
    bars: bars.bars,
    adverts: { bbl, wbbl },
  }
}

/**
 * Loads the site content once; `fallback` shows until it is there (a failed load uses defaults).
 * `initial` may hand over a load already under way (app/boot-reads.ts).
 */
export function SiteContentProvider({
  children,
  fallback,
  initial,
}: {
  children: ReactNode
  fallback: ReactNode
  initial?: () => Promise<SiteContent> | null
}) {
  const [content, setContent] = useState<SiteContent | null>(null)
  useEffect(() => {
    let live = true
    void (initial?.() ?? loadSiteContent()).then((c) => live && setContent(c))
    return () => {
      live = false
    }
  }, [initial])
  if (!content) return <>{fallback}</>
  return <SiteContentContext.Provider value={content}>{children}</SiteContentContext.Provider>
}
