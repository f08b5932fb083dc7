import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { offline } from './web/offline/plugin.ts';

// The app lives in web/ (index.html there); static files are served from ../public as they are.
// Pages by absolute path: `vite build` resolves a relative input against the working directory,
// the dev server's dependency scan against `root`, so only an absolute path suits both.
const page = (name: string) => fileURLToPath(new URL(`./web/${name}`, import.meta.url));

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
    // The app, and the embed an article frames (docs/EMBEDDING.md): a page of its own, so it
    // loads only what a chart needs.
    rolldownOptions: {
      input: { main: page('index.html'), embed: page('embed.html') },
      // What both pages load at first is one chunk, not one per combination of pages and lazy
      // views. Only what they load at first ($initial): code that lazy views alone share (the
      // labs' checker) stays out of the first load.
      output: { codeSplitting: { groups: [{ name: 'shared', minShareCount: 2, tags: ['$initial'] }] } },
    },
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
