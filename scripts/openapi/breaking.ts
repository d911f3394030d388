/**
 * `npm run openapi:breaking` (CI): apps/server/openapi.json against the first committed document of the same API
 * version (info.version, API_VERSION in apps/server/src/platform/http/openapi-document.ts). Optic's breaking-change
 * checks (`optic diff --check`, npm @useoptic/optic) fail on a removed operation, response field or enum value,
 * a new required request field, a changed type…; raising API_VERSION (and `npm run openapi:update`) starts a new
 * baseline. With no earlier document of this version there is nothing to compare.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FILE = 'apps/server/openapi.json';
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
const versionOf = (text: string) => (JSON.parse(text) as { info: { version: string } }).info.version;

const current = readFileSync(join(root, FILE), 'utf8');
const version = versionOf(current);
let base: { commit: string; text: string } | null = null;
for (const commit of git('log', '--format=%H', '--', FILE).split('\n').filter(Boolean)) {
  let text: string;
  try {
    text = git('show', `${commit}:${FILE}`);
  } catch {
    break; // deleted in that commit
  }
  if (versionOf(text) !== version) break;
  base = { commit, text };
}
if (!base) {
  console.log(`openapi:breaking: API version ${version} has no earlier document: nothing to compare`);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'lamella-openapi-'));
writeFileSync(join(dir, 'base.json'), base.text);
writeFileSync(join(dir, 'current.json'), current);
// run in the temporary folder: Optic writes its ci-run-details.json into the working folder
const optic = spawnSync(join(root, 'node_modules', '.bin', 'optic'), ['diff', join(dir, 'base.json'), join(dir, 'current.json'), '--check'], {
  cwd: dir,
  encoding: 'utf8',
  env: { ...process.env, OPTIC_TELEMETRY_LEVEL: 'off', CI: 'true' },
  maxBuffer: 64 * 1024 * 1024,
});
if (optic.status !== 0) {
  process.stdout.write(optic.stdout);
  process.stderr.write(optic.stderr);
  console.error(
    `openapi:breaking: ${FILE} breaks clients of API version ${version} (as of ${base.commit.slice(0, 10)}). ` +
      'Raise API_VERSION in apps/server/src/platform/http/openapi-document.ts and run `npm run openapi:update`, or keep the change compatible.',
  );
  process.exit(1);
}
console.log(`openapi:breaking: no breaking change against API version ${version} as of ${base.commit.slice(0, 10)}`);
