import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

const serverTests = {
  root: 'packages/server',
  include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  // Run once, in their own project below: they start their own PostgreSQL cluster and server.
  exclude: ['test/reliability/**'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
}

// Three tiers (STYLE.md): unit tests beside the code, integration tests through app.inject on a
// freshly migrated database, and Playwright end-to-end specs in e2e/ (run by `npm run test:e2e`).
if (process.env.CI && !process.env.DATABASE_URL) {
  throw new Error('CI must also run the suite on PostgreSQL: set DATABASE_URL')
}

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on CI's two-core machine, one, so every
    // file ran after the other (39 minutes of tests, 2026-11-28). With two, the unit and database
    // suites run two files at a time. The projects that must run alone say so themselves: the
    // browser specs turn file parallelism off (Vitest then runs them one by one, in a group of
    // their own at the end) and reliability has its own group before them.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'] } },
      // The bench's pure helpers (bench/src/pages-lib.ts); the bench itself is run, not tested.
      { test: { name: 'bench', root: 'bench', include: ['src/**/*.test.ts'] } },
      { test: { ...serverTests, name: 'server', globalSetup: ['test/global-setup.ts'] } },
      // The same suite on a real PostgreSQL server whenever DATABASE_URL names one (CI always does).
      ...(process.env.DATABASE_URL
        ? [
            {
              test: {
                ...serverTests,
                name: 'server-postgres',
                globalSetup: ['test/global-setup-postgres.ts'],
              },
            },
          ]
        : []),
      // Crash/restart, database outage, overload and backup round trips (docs/RELIABILITY.md):
      // real server processes on a throwaway PostgreSQL cluster; needs PostgreSQL's binaries.
      {
        test: {
          name: 'reliability',
          root: 'packages/server',
          include: ['test/reliability/**/*.test.ts'],
          globalSetup: ['test/reliability/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // After every other project, alone: capacity and recovery times are measured here.
          sequence: { groupOrder: 1 },
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
