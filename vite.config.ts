import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { offline } from './web/offline/plugin.ts';

// The app lives in web/ (index.html there); static files are served from ../public as they are.
export default defineConfig({
  root: 'web',
  publicDir: '../public',
  // offline(): the service worker that lets the built site run offline after one visit.
  plugins: [react(), offline()],
  // Relative asset URLs, so the built app also works when served from a sub-path or embedded.
  base: './',
  worker: {
    format: 'es',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    strictPort: true,
  },
});
