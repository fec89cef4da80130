import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import { VitePWA } from 'vite-plugin-pwa'

const server = 'http://localhost:3000'

export default defineConfig({
  plugins: [
    react(),
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
  build: { target: 'es2022', sourcemap: false, manifest: true },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
  },
})
