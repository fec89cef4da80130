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
  tipping: 'src/app/tipping-route.tsx',
  leagues: 'src/features/leagues/leagues-page.tsx',
  rankings: 'src/features/leagues/rankings-page.tsx',
  league: 'src/features/leagues/league-page.tsx',
  account: 'src/features/auth/account-page.tsx',
  season: 'src/features/season/season-page.tsx',
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

/**
 * Reads the Vite manifest and builds every page's links once, at start-up: the manifest changes
 * only with a new build, which restarts the server.
 */
export function loadRoutePreloads(webDistDir: string): RoutePreloads {
  let manifest: Manifest = {}
  try {
    manifest = JSON.parse(
      fs.readFileSync(path.join(webDistDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest
  } catch {
    // An older build, or none: pages load their chunks as before.
  }
  const loaded = entryChunks(manifest)
  const links = new Map(
    Object.entries(SPORT_PAGE_MODULES)
      .filter(([, module]) => manifest[module])
      .map(([segment, module]) => [segment, linksFor(manifest, module, loaded)]),
  )
  return { forSportPage: (segment) => links.get(segment) ?? '' }
}

/** The entry chunks and their static imports: what index.html already loads. */
function entryChunks(manifest: Manifest): Set<string> {
  const loaded = new Set<string>()
  const walk = (key: string): void => {
    if (loaded.has(key)) return
    loaded.add(key)
    for (const k of manifest[key]?.imports ?? []) walk(k)
  }
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key)
  return loaded
}

/**
 * The module's chunk and its static imports, transitively, minus `loaded` (what index.html
 * already loads). Stylesheets as `rel=stylesheet`, which the app's own loader finds
 * and does not add again; scripts as `modulepreload`.
 */
function linksFor(manifest: Manifest, module: string, loaded: Set<string>): string {
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
