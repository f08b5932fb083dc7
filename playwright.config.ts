import { defineConfig } from '@playwright/test';

// Playwright drives Debian's Chromium (Playwright's own browser download is not available here).
// `npm test` builds the app first; the web server only serves web/dist with `vite preview`.
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const port = Number(process.env.SSDLAB_E2E_PORT || 4173);
const isCI = !!process.env.CI;

export default defineConfig({
  testDir: 'e2e',
  // The page's benchmark runs with `npm run bench` (playwright.bench.config.ts).
  testIgnore: 'bench/**',
  outputDir: 'test-results',
  // One simulation allocates ~0.5 GB of wasm memory and keeps a core busy; on 2 cores run serially.
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  retries: isCI ? 1 : 0,
  forbidOnly: isCI,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    browserName: 'chromium',
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `node_modules/.bin/vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !isCI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
