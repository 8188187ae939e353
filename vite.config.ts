// Vite build of the web app (src/web): React + Tailwind, output to dist/web, dev proxy to the API server on :3000.
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

const apiServer = process.env.ADMINEASE_DEV_API ?? 'http://localhost:3000';

export default defineConfig({
  root: '.',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // No source maps in the production build (the server refuses *.map too): the sources stay private.
    sourcemap: false,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiServer, changeOrigin: false },
      '/ai': { target: apiServer, changeOrigin: false },
    },
  },
});
