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

const backend = process.env.LAMELLA_BACKEND ?? 'http://localhost:8080';

export default defineConfig(({ command }) => ({
  plugins: [react(), precompress()],
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
  // Vite's default chunk-size warning (500 kB) stays on: a chunk above it is worth a look.
  build: { outDir: 'dist', sourcemap: false },
}));
