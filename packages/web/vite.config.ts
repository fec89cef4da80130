import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { defineConfig, type Plugin } from 'vitest/config'
import react from '@vitejs/plugin-react'

const server = 'http://localhost:3000'

/**
 * Brotli and gzip copies of the built text assets beside them, which the server sends to browsers
 * that accept them (@fastify/static `preCompressed`). Compressed once at build time, at the
 * highest levels, so no request pays for it (bench/README.md: the landing page's scripts went
 * over the wire uncompressed, 520 KB, and dominated Lighthouse's mobile load).
 */
function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    writeBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) {
        // .vite/manifest.json is for the server (route preloads), never sent.
        if (!/\.(js|css|svg|json|txt)$/.test(name) || name.startsWith('.vite/')) continue
        const file = path.join(outDir, name)
        const body = fs.readFileSync(file)
        if (body.length < 1024) continue
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(body, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
          }),
        )
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }))
      }
    },
  }
}

export default defineConfig({
  plugins: [react(), precompress()],
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
