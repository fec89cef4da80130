import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { VitePWA } from 'vite-plugin-pwa'

const server = 'http://localhost:3000'

/**
 * Code only the admin console runs: a page's chunk (its facade is an admin page, so what it holds
 * is reached from admin pages alone), or a shared chunk whose own modules are all the console's.
 * Such chunks are named under assets/admin/, so the service worker's precache leaves them out
 * (players never open the console, offline or not: decision 025). A chunk shared with any player
 * page stays where it was.
 */
const ADMIN_ONLY = /[\\/]src[\\/](features[\\/]admin|app[\\/]layouts[\\/]admin-layout)[\\/.]/
const WEB_SRC = /[\\/]packages[\\/]web[\\/]src[\\/]/
const adminOnly = (chunk: { facadeModuleId: string | null; moduleIds: readonly string[] }) => {
  if (chunk.facadeModuleId) return ADMIN_ONLY.test(chunk.facadeModuleId)
  const own = chunk.moduleIds.filter((id) => WEB_SRC.test(id))
  return own.length > 0 && own.every((id) => ADMIN_ONLY.test(id))
}

/**
 * The modules of the tipping page's first load that other lazily loaded pages share (decision
 * 036), found from the module graph once it is built (static imports only: what the page's chunk
 * needs before it can run). Left to itself the bundler gives each different set of sharers a
 * chunk of its own: ten chunks of 0.1-2 KB, each a request a phone makes before the page paints.
 */
const TIPPING_ROUTE = /[\\/]src[\\/]app[\\/]tipping-route\.tsx$/
const MAIN = /[\\/]packages[\\/]web[\\/]src[\\/]main\.tsx$/
let tippingShared = new Set<string>()
const tippingSharedModules = (): Plugin => ({
  name: 'tipping-shared-modules',
  buildEnd() {
    const ids = [...this.getModuleIds()]
    const closure = (from: string[]): Set<string> => {
      const seen = new Set<string>()
      const stack = [...from]
      while (stack.length > 0) {
        const id = stack.pop()!
        if (seen.has(id)) continue
        seen.add(id)
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []))
      }
      return seen
    }
    const route = ids.find((id) => TIPPING_ROUTE.test(id))
    const main = ids.find((id) => MAIN.test(id))
    if (!route || !main) return
    const initial = closure([main])
    const lazyEntries = new Set(
      ids.flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []),
    )
    lazyEntries.delete(route)
    const others = closure([...lazyEntries])
    tippingShared = new Set(
      [...closure([route])].filter((id) => id !== route && !initial.has(id) && others.has(id)),
    )
  },
})

export default defineConfig({
  plugins: [
    react(),
    tippingSharedModules(),
    // The installable app and its service worker (src/sw.ts; decision 025). The page registers
    // the worker itself, after its first paint (features/offline/register-worker.ts), so nothing
    // is injected into the landing page's first download.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifestFilename: 'manifest.webmanifest',
      includeAssets: [],
      manifest: {
        id: '/',
        name: 'Big Bash Tipping',
        short_name: 'BBL Tipping',
        description:
          'Tip the winner of every Big Bash match, predict the Super Sixes, and beat your mates in leagues.',
        start_url: '/bbl/tipping',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#0b1f3a',
        theme_color: '#0b1f3a',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      injectManifest: {
        // The app's code and its icons; not the adverts (fetched when shown), the compressed
        // copies (the server picks them) or the build's chunk manifest.
        globPatterns: ['assets/**/*.{js,css,woff2,svg,png,webp}', 'icons/*.png'],
        // Nor the admin console's own chunks (named under assets/admin/ by the build below):
        // 58 KiB of the 1,016 KiB precache, and a player never needs them (decision 025).
        globIgnores: ['assets/admin/**'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        // A classic script, as the page registers it (no `type: 'module'`). The plugin's default
        // ES build sets an output option the bundler reports as deprecated on every build.
        rollupFormat: 'iife',
      },
    }),
  ],
  // `/oidc`: the development identity provider (run the server with APP_ORIGIN=http://localhost:5173).
  server: { proxy: { '/api': server, '/static': server, '/share': server, '/oidc': server } },
  // The manifest tells the server which chunks a route needs, to preload them with the page
  // (packages/server/src/http/route-preloads.ts).
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    rollupOptions: {
      output: {
        // Fewer, larger chunks before a page's first paint (decision 036): on a phone's network
        // each chunk is a request of its own (six at a time per host over HTTP/1.1, a round trip
        // each). The main script's modules are one chunk (they were 15, split by which lazy pages
        // also use them: all loaded by every page anyway), and the tipping page's shared modules
        // one more, so the page needs two chunks of its own instead of eleven.
        codeSplitting: {
          groups: [
            { name: 'index', tags: ['$initial'], priority: 2 },
            { name: 'tipping-shared', test: (id: string) => tippingShared.has(id), priority: 1 },
          ],
        },
        chunkFileNames: (chunk) =>
          adminOnly(chunk) ? 'assets/admin/[name]-[hash].js' : 'assets/[name]-[hash].js',
      },
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
})
