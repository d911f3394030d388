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
    // PGlite test apps start from one migrated snapshot instead of migrating an empty cluster each time
    globalSetup: ['apps/server/test/pglite-snapshot.ts'],
    pool: 'forks',
    // One module graph per worker instead of one per test file: the server's modules are imported once, which
    // halves the suite's CPU time. Tests share no state through modules (each starts its own app and database).
    isolate: false,
    maxWorkers: 2,
  },
});
