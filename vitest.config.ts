import { defineConfig } from 'vitest/config';

/**
 * One runner for the whole repository. Server suites build their own databases, so they get generous
 * timeouts (PGlite boots in a second or two; the CI machine has 2 cores). Timings are never asserted.
 * The browser journeys run first, as a group of their own (sequence.groupOrder; vitest runs groups one
 * after the other): E2E_SERVERS files at once (default 2), worker N against server N (VITEST_POOL_ID, see
 * e2e/global-setup.ts and support.ts), so no two journeys ever share a server. The other projects follow;
 * two files at once (vitest's default on 2 cores is one): the server suites build their own databases and
 * spend much of their time waiting on PostgreSQL. `E2E_SERVERS=1` starts one server, enough for a
 * single journey.
 */
const e2eServers = Math.max(1, Number(process.env.E2E_SERVERS ?? 2) || 1);
/**
 * The group after the journeys' (pool ids are only dependable in the first group a run starts); projects
 * of one group must share their worker count.
 */
const afterJourneys = { sequence: { groupOrder: 1 }, maxWorkers: 2 };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.test.ts'],
          globalSetup: ['./global-setup.ts'],
          exclude: ['node_modules/**'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // A journey waits for what the page does after a push and a refetch; vitest's default of 1 s
          // is too short for that on a loaded machine.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          maxWorkers: e2eServers,
        },
      },
      { test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'], ...afterJourneys } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Files share their worker's modules: each builds its own app and database and none mocks a
          // module, and importing the whole server again for every file cost about 2 s a file.
          isolate: false,
          ...afterJourneys,
        },
      },
      { test: { name: 'admin', root: 'apps/admin', include: ['src/**/*.test.ts'], ...afterJourneys } },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          ...afterJourneys,
        },
      },
    ],
  },
});
