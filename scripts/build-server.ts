/**
 * `npm run build` (and so `npm start`): the server as one JavaScript bundle in dist/server/ (issue 30 item 5), so
 * that `npm start` runs it with plain Node.js instead of transpiling some 400 TypeScript files at every start (tsx;
 * about two thirds of the start). `npm run dev` and the tests still run the sources with tsx.
 *
 * - The server's sources and the workspace packages (@lamella/*, TypeScript) are bundled; every other package stays
 *   an import of node_modules, loaded as before.
 * - `import.meta.url` in a bundled module still names its source file (rewritten per module, relative to the
 *   bundle), so what the code finds next to it — migrations, openapi-facts.json, the package.json version, the
 *   launcher and the image decode worker it starts with tsx, the models of @lamella/analysis — is where it was.
 * - Modules imported with `await import()` (Redis, the report writers…) stay separate chunks, loaded when first used.
 * Source maps go next to the bundle: `node --enable-source-maps` (npm start) reports the sources' lines.
 */
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';

// esbuild is tsx's own dependency (tsx transpiles with it): the copy `npm ci` installs with tsx, no package of its own
const require = createRequire(import.meta.url);
const { build } = createRequire(require.resolve('tsx'))('esbuild') as typeof Esbuild;
type Plugin = Esbuild.Plugin;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const serverOutdir = join(root, 'dist', 'server');

/**
 * Packages bundled with the sources: plain ES modules of many small files, whose loading one file at a time was most
 * of the start's module loading (drizzle-orm's ~450 files, TypeBox's ~700). Every other package stays an import.
 */
const BUNDLED = process.env.LAMELLA_BUNDLED === undefined ? ['drizzle-orm', 'typebox'] : process.env.LAMELLA_BUNDLED.split(',').filter(Boolean);
const bundledPackage = (path: string) => BUNDLED.some((p) => path === p || path.startsWith(`${p}/`));

/** Bundles our own TypeScript (apps/, packages/) and BUNDLED; other packages from node_modules stay imports. */
const sourcesOnly = (outdir: string): Plugin => ({
  name: 'lamella-sources-only',
  setup(b) {
    // a bare import is a package: external, except the workspace's own (their sources are TypeScript) and BUNDLED
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@lamella/') || bundledPackage(args.path)) return undefined;
      return { path: args.path, external: true };
    });
    b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      let contents = await readFile(args.path, 'utf8');
      if (contents.includes('import.meta.url')) {
        const fromBundle = relative(outdir, args.path).split(sep).join('/');
        contents = contents.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`);
      }
      const ext = args.path.slice(args.path.lastIndexOf('.') + 1);
      const loader = ext === 'tsx' ? 'tsx' : ext.endsWith('ts') ? 'ts' : 'js';
      return { contents, loader };
    });
  },
});

export async function buildServer(outdir = serverOutdir): Promise<void> {
  await rm(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { main: join(root, 'apps/server/src/main.ts') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    sourcemap: 'linked',
    // CommonJS packages bundled call require(): the module's own (Node's createRequire), as in CommonJS
    banner: {
      js: [
        '// Lamella server bundle: built by scripts/build-server.ts from apps/server/src (npm run build); do not edit',
        "import { createRequire as __lamellaRequire } from 'node:module';",
        'const require = __lamellaRequire(import.meta.url);',
      ].join('\n'),
    },
    logLevel: 'warning',
    plugins: [sourcesOnly(outdir)],
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = performance.now();
  await buildServer();
  console.log(`server bundle: ${relative(root, serverOutdir)}/main.js (${Math.round(performance.now() - t0)} ms)`);
}
