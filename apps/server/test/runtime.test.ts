import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Issue 29: the server, the launcher and the tests run on Node.js 24 LTS, the `node` devDependency that npm
// scripts put first on PATH (node_modules/.bin); child processes (launchers, thumbnails) use process.execPath.
describe('runtime', () => {
  it('is the Node.js major that package.json pins', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const pinned = pkg.devDependencies.node!;
    expect(process.versions.node.split('.')[0]).toBe(pinned.split('.')[0]);
    expect(Number(process.versions.node.split('.')[0])).toBe(24);
  });

  it('starts children (launchers, workers) on the same runtime', () => {
    const out = execFileSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    expect(out).toBe(process.version);
  });
});
