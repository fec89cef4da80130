import { defineConfig } from 'vitest/config'

// Three tiers (STYLE.md): unit tests beside the code, integration tests through app.inject on a
// freshly migrated database, and Playwright end-to-end specs in e2e/ (run by `npm run test:e2e`).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'packages/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          globalSetup: ['test/global-setup.ts'],
        },
      },
      'packages/web',
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.spec.ts'],
          testTimeout: 120_000,
          hookTimeout: 300_000,
          globalSetup: ['global-setup.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
})
