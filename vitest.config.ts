import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (seconds on the 2-core machine, 2026-12-07), started first. Vitest orders files by
 * their last durations when it has them (node_modules/.vite), but CI runs on a clean clone, where it orders by file
 * size: golden.test.ts (69 s, a small file) then started last and ran alone for its last minute while the other
 * worker had nothing left. Starting the long files first lets the short ones fill both workers at the end.
 */
export const SLOW_FIRST = [
  'packages/analysis/src/golden.test.ts', // 69
  'apps/server/test/launcher-faults.test.ts', // 31
  'apps/server/test/admin/compute-launchers.test.ts', // 27
  'apps/server/test/pipeline.test.ts', // 24
  'packages/analysis/src/models/tone.test.ts', // 21
  'packages/analysis/src/learned/grains.test.ts', // 18
  'apps/server/test/uploads-memory.test.ts', // 16
  'apps/launcher/src/train.test.ts', // 16
  'apps/server/test/training-runs.test.ts', // 15
  'apps/server/test/training-loop.test.ts', // 14
  'packages/analysis/src/models/models.test.ts', // 14
];

for (const f of SLOW_FIRST)
  if (!existsSync(new URL(f, import.meta.url))) throw new Error(`vitest.config.ts: SLOW_FIRST names a missing test file: ${f}`);

class SlowFirstSequencer extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW_FIRST.findIndex((s) => f.moduleId.endsWith(s));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // a stable sort: the listed files first in their order, the rest as vitest ordered them
    return sorted
      .map((f, i) => ({ f, i, r: rank(f) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.f);
  }
}

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
    sequence: { sequencer: SlowFirstSequencer },
  },
});
