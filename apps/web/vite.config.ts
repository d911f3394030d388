import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * Every text file of the build also as `.br` (brotli, quality 11) and `.gz` (gzip 9), written once here: the server
 * sends them as they are (@fastify/static `preCompressed`), smaller than on-the-fly compression (brotli 4) and with no
 * compression per request (issue 30 item 5).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'lamella-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json|txt|map)$/.test(file)) continue;
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * The first load of a signed-in page in a few scripts (issue 30 item 5): the bundler's automatic splitting made a
 * chunk of every set of modules that some lazy pages share, so /dashboard loaded 120 files (a browser asks six at a
 * time over HTTP/1.1). Two groups now, one chunk each:
 * - `initial`: everything the entry imports statically (what the sign-in page needs);
 * - `signed-in`: what the signed-in layout and the dashboard use besides that: the app's modules and the modules of
 *   the libraries they import names from (every signed-in page loads the layout, so the other pages find it loaded).
 * The other pages keep their chunks as the bundler makes them.
 * A library's index re-exports all of it, so the modules used are found by name: an `import { Select } from
 * '@mantine/core'` takes the module that defines Select (following `export … from` through the index), and that
 * module's own imports in turn (usedModules). The graph is read once the build has parsed every module (buildEnd),
 * before the chunks are made. LAMELLA_BUILD_STATS=<file>: the chunks with their modules and sizes as JSON.
 */
const signedInRoots = ['src/features/layout/AppLayout.tsx', 'src/features/workbench/DashboardWorkbench.tsx'];

type Ctx = ThisParameterType<Extract<NonNullable<Plugin['buildEnd']>, (...args: never[]) => unknown>>;

/** The modules `roots` run, with their static imports followed by the names they import (see above). */
async function usedModules(ctx: Ctx, roots: string[]): Promise<Set<string>> {
  const resolved = new Map<string, string | null>();
  const resolve = async (spec: string, importer: string) => {
    const key = `${importer}\0${spec}`;
    if (!resolved.has(key)) resolved.set(key, (await ctx.resolve(spec, importer))?.id ?? null);
    return resolved.get(key)!;
  };
  const names = (list: string) =>
    list
      .split(',')
      .map((n) => n.trim().replace(/^type\s+/, ''))
      .filter(Boolean)
      .map((n) => {
        const [local, as] = n.split(/\s+as\s+/);
        return { imported: local.trim(), exported: (as ?? local).trim() };
      });
  /** The module that defines `name` as `id` exports it, through `export { … } from` and `export * from`. */
  const origin = async (id: string, name: string, depth = 0): Promise<string[]> => {
    const code = ctx.getModuleInfo(id)?.code ?? '';
    if (depth > 8) return [id];
    for (const m of code.matchAll(/export\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
      const hit = names(m[1]).find((n) => n.exported === name);
      if (hit) {
        const target = await resolve(m[2], id);
        return target ? origin(target, hit.imported, depth + 1) : [id];
      }
    }
    if (new RegExp(`export\\s+(const|let|var|function\\*?|class|async\\s+function)\\s+${name.replace('$', '\\$')}\\b`).test(code)) return [id];
    for (const m of code.matchAll(/export\s*\*\s*from\s*['"]([^'"]+)['"]/g)) {
      const target = await resolve(m[1], id);
      if (target && ctx.getModuleInfo(target)?.exports?.includes(name)) return origin(target, name, depth + 1);
    }
    return [id];
  };
  const used = new Set<string>();
  /** Modules imported as a namespace: what they re-export is used too. */
  const whole = new Set<string>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (used.has(id)) continue;
    used.add(id);
    const code = ctx.getModuleInfo(id)?.code ?? '';
    for (const m of code.matchAll(/(?:^|[;\n}])\s*import(?!\s*[(.])\s*([^'";]*?)\s*(?:from\s*)?['"]([^'"]+)['"]/g)) {
      const clause = m[1];
      const target = await resolve(m[2], id);
      if (!target || /^type\b/.test(clause)) continue;
      const named = /\{([^}]*)\}/.exec(clause);
      const rest = clause
        .replace(/\{[^}]*\}/, '')
        .replace(/,/g, ' ')
        .trim();
      // a default or namespace import, or one for its effects: the module itself
      if (!named || rest || !clause) stack.push(target);
      if (rest.startsWith('*')) whole.add(target);
      if (named) for (const n of names(named[1])) stack.push(...(await origin(target, n.imported)));
    }
    if (whole.has(id))
      for (const m of code.matchAll(/export\s*(?:\*|\{[^}]*\})\s*(?:as\s+[\w$]+\s*)?from\s*['"]([^'"]+)['"]/g)) {
        const target = await resolve(m[1], id);
        if (target) {
          whole.add(target);
          stack.push(target);
        }
      }
  }
  return used;
}

function firstLoadChunks(): { plugin: Plugin; inSignedIn: (id: string) => boolean } {
  let signedIn = new Set<string>();
  const plugin: Plugin = {
    name: 'lamella-first-load-chunks',
    apply: 'build',
    async buildEnd() {
      const ids = new Set(this.getModuleIds());
      const roots = signedInRoots.map((r) => fileURLToPath(new URL(r, import.meta.url)));
      for (const r of roots) if (!ids.has(r)) throw new Error(`first-load chunks: ${r} is not part of the build`);
      signedIn = await usedModules(this, roots);
    },
    generateBundle(_options, bundle) {
      const file = process.env.LAMELLA_BUILD_STATS;
      if (!file) return;
      const chunks = Object.values(bundle).flatMap((c) =>
        c.type === 'chunk'
          ? [
              {
                file: c.fileName,
                isEntry: c.isEntry,
                imports: c.imports,
                dynamicImports: c.dynamicImports,
                modules: Object.fromEntries(Object.entries(c.modules).map(([id, m]) => [id, m.renderedLength])),
              },
            ]
          : [],
      );
      writeFileSync(file, JSON.stringify(chunks, null, 1));
    },
  };
  return { plugin, inSignedIn: (id) => signedIn.has(id) };
}
const chunks = firstLoadChunks();

/**
 * index.html asks at once for what the first screen waits on, alongside the entry script instead of after it runs:
 * the English translations (always loaded: the language, or the fallback of another) and the `signed-in` chunk; the
 * session (GET /api/users/me, every signed-in page asks it first) is hinted by the server where there is one. The entry's fetches of the same URLs take the
 * preloaded answers (same credentials mode: `include`, api/client.ts and i18n/index.ts).
 */
function firstLoadHints(): Plugin {
  return {
    name: 'lamella-first-load-hints',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const signedIn = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.name === 'signed-in');
        if (!signedIn) throw new Error('first-load hints: no signed-in chunk in the build');
        return [
          // the session's hint (GET /api/users/me) comes as a Link header, only to a browser that has a session
          // (apps/server/src/platform/http/session-hints.ts): a signed-out visitor's preload would answer 401
          {
            tag: 'link',
            attrs: { rel: 'preload', href: '/api/languages/en', as: 'fetch', crossorigin: 'use-credentials' },
            injectTo: 'head' as const,
          },
          { tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${signedIn.fileName}` }, injectTo: 'head' as const },
        ];
      },
    },
  };
}

const backend = process.env.LAMELLA_BACKEND ?? 'http://localhost:8080';

export default defineConfig(({ command }) => ({
  plugins: [react(), precompress(), chunks.plugin, firstLoadHints()],
  // The built app takes the contracts' schemas as plain JSON Schema (src/lib/typebox-lite.ts) instead of TypeBox:
  // it never validates with them (issue 30 item 5, first load). The dev server and the tests keep TypeBox.
  resolve:
    command === 'build' ? { alias: [{ find: /^typebox$/, replacement: fileURLToPath(new URL('./src/lib/typebox-lite.ts', import.meta.url)) }] } : {},
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, ws: true, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/socket.io': { target: backend, ws: true, changeOrigin: true },
    },
  },
  // The warning's limit is above the `initial` chunk (about 640 kB: React, the router, Mantine's core, i18next, the
  // sign-in page; 165 KB as brotli): any other chunk above it is worth a look.
  build: {
    chunkSizeWarningLimit: 700,
    outDir: 'dist',
    sourcemap: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // the higher priority chooses first: what `initial` holds, `signed-in` does not take
          groups: [
            { name: 'initial', tags: ['$initial'], priority: 2 },
            // the used modules only, not all that their libraries' indexes import
            { name: 'signed-in', test: (id: string) => chunks.inSignedIn(id), priority: 1, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
}));
