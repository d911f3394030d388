/**
 * `npm run openapi:update`: finds the error codes and doc comments in the source (facts.ts), starts the server
 * (PGlite in memory) and writes the document it serves at /api/openapi.json to apps/server/openapi.json.
 * `npm run openapi:check` (CI): the same without writing; fails when either file is not current.
 * `npm run openapi:update -- --committed`: the same for the last commit (HEAD, in a temporary worktree), so that
 * files others are still editing in a shared tree do not enter the document; the two files are copied back.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { collectFacts, FACTS_FILE } from './facts.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const DOCUMENT_FILE = join(root, 'apps/server/openapi.json');
const check = process.argv.includes('--check');

/** The files as prettier writes JSON (the repository's `prettier --check .`); compared by content. */
const pretty = async (file: string, value: unknown) => format(JSON.stringify(value), { ...(await resolveConfig(file)), filepath: file });
const same = (file: string, value: unknown) => {
  try {
    return JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))) === JSON.stringify(value);
  } catch {
    return false;
  }
};

/** The document the server serves. */
export async function servedDocument(): Promise<unknown> {
  const { startTestApp } = await import('../../apps/server/test/test-app.ts');
  const t = await startTestApp();
  try {
    const res = await t.client().get('/api/openapi.json');
    if (res.status !== 200) throw new Error(`GET /api/openapi.json answered ${res.status}`);
    return res.body;
  } finally {
    await t.close();
  }
}

/** Runs the update in a worktree of HEAD whose node_modules are this tree's, but with its own workspace packages. */
function updateFromCommit(): void {
  const dir = join(mkdtempSync(join(tmpdir(), 'lamella-openapi-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', dir, 'HEAD'], { cwd: root, stdio: 'inherit' });
  try {
    mkdirSync(join(dir, 'node_modules'));
    for (const e of readdirSync(join(root, 'node_modules')))
      if (e !== '@lamella') symlinkSync(join(root, 'node_modules', e), join(dir, 'node_modules', e));
    mkdirSync(join(dir, 'node_modules/@lamella'));
    for (const e of readdirSync(join(root, 'node_modules/@lamella'))) {
      const target = execFileSync('readlink', ['-f', join(root, 'node_modules/@lamella', e)], { encoding: 'utf8' }).trim();
      symlinkSync(join(dir, target.slice(root.length + 1)), join(dir, 'node_modules/@lamella', e));
    }
    for (const ws of ['apps', 'packages'])
      for (const e of readdirSync(join(root, ws))) {
        const own = join(root, ws, e, 'node_modules');
        if (existsSync(own) && existsSync(join(dir, ws, e))) symlinkSync(own, join(dir, ws, e, 'node_modules'));
      }
    execFileSync('npx', ['--no', 'tsx', 'scripts/openapi/update.ts'], { cwd: dir, stdio: 'inherit' });
    for (const f of [FACTS_FILE, DOCUMENT_FILE, join(root, 'clients/python/lamella/models.py')]) copyFileSync(join(dir, f.slice(root.length + 1)), f);
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
    rmSync(dirname(dir), { recursive: true, force: true });
  }
}

async function main() {
  if (process.argv.includes('--committed')) {
    updateFromCommit();
    console.log('written from HEAD: apps/server/openapi.json and openapi-facts.json');
    process.exit(0);
  }
  const stale: string[] = [];
  const facts = JSON.parse(JSON.stringify(collectFacts())) as unknown;
  if (!same(FACTS_FILE, facts)) {
    if (check) stale.push(FACTS_FILE);
    else writeFileSync(FACTS_FILE, await pretty(FACTS_FILE, facts));
  }
  // the server reads the facts file when it builds the document: written first
  const document = await servedDocument();
  if (!same(DOCUMENT_FILE, document)) {
    if (check) stale.push(DOCUMENT_FILE);
    else writeFileSync(DOCUMENT_FILE, await pretty(DOCUMENT_FILE, document));
  }
  // the Python client's dataclasses follow the document (clients/python/generate.py)
  const python = spawnSync('python3', [join(root, 'clients/python/generate.py'), ...(check ? ['--check'] : [])], { encoding: 'utf8' });
  if (python.status !== 0) stale.push(join(root, 'clients/python/lamella/models.py'));
  if (stale.length) {
    console.error(`Not current: ${stale.map((f) => f.slice(root.length + 1)).join(', ')}. Run \`npm run openapi:update\` and commit.`);
    process.exit(1);
  }
  const ops = Object.values((document as { paths: Record<string, object> }).paths).flatMap((p) => Object.keys(p)).length;
  console.log(`${check ? 'current' : 'written'}: apps/server/openapi.json (${ops} operations), openapi-facts.json, clients/python/lamella/models.py`);
  process.exit(0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
