import fs from 'node:fs'
import path from 'node:path'

// The chunks a sport page's route needs, named in the app page so the browser fetches them
// alongside the main script. Without them a phone downloads and runs the main script first,
// and only then learns from the router which page chunk to ask for: one more round trip and
// download before the page can paint (bench/README.md, Lighthouse tipping).

/**
 * The web app's page module for each first path segment after `/{sport}/`, as its router
 * (packages/web/src/app/router.tsx) lazy-loads them. A module missing from the build's manifest
 * is simply not preloaded; the test checks these files exist.
 */
export const SPORT_PAGE_MODULES: Readonly<Record<string, string>> = {
  tipping: 'src/features/tipping/tipping-page.tsx',
  leagues: 'src/features/leagues/leagues-page.tsx',
  rankings: 'src/features/leagues/rankings-page.tsx',
  league: 'src/features/leagues/league-page.tsx',
  account: 'src/features/auth/account-page.tsx',
}

interface ManifestChunk {
  file: string
  imports?: string[]
  css?: string[]
  isEntry?: boolean
}
type Manifest = Record<string, ManifestChunk>

export interface RoutePreloads {
  /** `<link>` elements for the page below `/{sport}/` whose first segment is `segment`. */
  forSportPage(segment: string): string
}

/** Reads the Vite manifest once (it changes only with a new build, which restarts the server). */
export function loadRoutePreloads(webDistDir: string): RoutePreloads {
  let manifest: Manifest = {}
  try {
    manifest = JSON.parse(
      fs.readFileSync(path.join(webDistDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest
  } catch {
    // An older build, or none: pages load their chunks as before.
  }
  const cache = new Map<string, string>()
  return {
    forSportPage(segment) {
      const module = Object.hasOwn(SPORT_PAGE_MODULES, segment)
        ? SPORT_PAGE_MODULES[segment]!
        : undefined
      if (!module || !manifest[module]) return ''
      let links = cache.get(module)
      if (links === undefined) {
        links = linksFor(manifest, module)
        cache.set(module, links)
      }
      return links
    },
  }
}

/**
 * The module's chunk and its static imports, transitively, minus what index.html already loads
 * (the entry and its imports). Stylesheets as `rel=stylesheet`, which the app's own loader finds
 * and does not add again; scripts as `modulepreload`.
 */
function linksFor(manifest: Manifest, module: string): string {
  const loaded = new Set<string>()
  const walkEntry = (key: string): void => {
    if (loaded.has(key)) return
    loaded.add(key)
    for (const k of manifest[key]?.imports ?? []) walkEntry(k)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walkEntry(key)

  const scripts: string[] = []
  const styles: string[] = []
  const seen = new Set<string>()
  const walk = (key: string): void => {
    if (seen.has(key) || loaded.has(key)) return
    seen.add(key)
    const chunk = manifest[key]
    if (!chunk) return
    ;(chunk.file.endsWith('.css') ? styles : scripts).push(chunk.file)
    for (const css of chunk.css ?? []) styles.push(css)
    for (const k of chunk.imports ?? []) walk(k)
  }
  walk(module)
  return [
    ...styles.map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`),
    ...scripts.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
  ].join('')
}
