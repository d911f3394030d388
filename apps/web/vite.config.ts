import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const backend = process.env.LAMELLA_BACKEND ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
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
});
