import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

const server = 'http://localhost:3000'

export default defineConfig({
  plugins: [react()],
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
