import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The build of src/first-screen/build.ts (with prerender.tsx) for Node (issue 30 item 5): `npm run build` runs it after the app's
 * build, and runs the result once, which writes dist/first-screen/dashboard-<lng>.html. The libraries stay outside
 * (Node imports them from node_modules); the build itself goes to node_modules/.cache (a tool's cache, like Vite's own).
 */
export default defineConfig({
  plugins: [react()],
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: 'src/first-screen/build.ts',
    outDir: 'node_modules/.cache/first-screen',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: { output: { entryFileNames: 'build.js' } },
  },
});
