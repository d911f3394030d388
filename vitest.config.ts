import { defineConfig } from 'vitest/config';

/**
 * `npm test`: every test that needs no browser. Server integration tests run against PGlite by default and
 * against the PostgreSQL server in TEST_DATABASE_URL when it is set (a scratch database per test file).
 */
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'apps/*/test/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**'],
    testTimeout: 60_000,
    // Generous: a loaded 2-core machine starts an app (database, migrations, argon2 sign-ups) slowly.
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
