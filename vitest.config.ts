import { defineConfig } from 'vitest/config';

/**
 * One runner for the whole repository. Server suites build their own databases, so they get generous
 * timeouts (PGlite boots in a second or two; the CI machine has 2 cores). Timings are never asserted.
 * The browser journeys come first: they run one file at a time against one server, so started first they
 * hold one worker while the other works through the server and web suites, instead of starting last.
 */
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
          fileParallelism: false,
        },
      },
      { test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
        },
      },
    ],
  },
});
