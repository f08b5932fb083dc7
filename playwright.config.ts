import { defineConfig } from '@playwright/test';
import { APP_PORT, HOST_PORT, THIRD_PORT } from './e2e/ports';

// Playwright drives Debian's Chromium (Playwright's own browser download is not available here).
// `npm test` builds the app first; the web server only serves web/dist with `vite preview`.
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const port = APP_PORT;
const isCI = !!process.env.CI;

export default defineConfig({
  testDir: 'e2e',
  // The page's benchmark runs with `npm run bench` (playwright.bench.config.ts).
  testIgnore: 'bench/**',
  outputDir: 'test-results',
  // One simulation allocates ~0.5 GB of wasm memory and keeps a core busy; on 2 cores run serially.
  workers: 1,
  fullyParallel: false,
  // A test's own steps (loading, clicks, checks; each check waits up to 20 s): the time its runs
  // spend moving is added by e2e/helpers.ts (untilDone), so only this part is a fixed budget.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  retries: isCI ? 1 : 0,
  forbidOnly: isCI,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    browserName: 'chromium',
    viewport: { width: 1280, height: 900 },
    // Recording a trace costs every test its snapshots and screencast (the 2000 s run of
    // evidence.spec took 3.4 min traced, 1.2 min not): a failed test's retry records one
    // (CI retries once); locally, `--trace on` when one is wanted.
    trace: 'on-first-retry',
    // The offline spec allows the service worker; elsewhere each test sees the network directly.
    serviceWorkers: 'block',
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
  webServer: [
    {
      command: `node_modules/.bin/vite preview --port ${port} --strictPort --host 127.0.0.1`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: !isCI,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // Pages of other origins that frame the app (e2e/embed.spec.ts).
    {
      command: `node scripts/static-server.mjs e2e/hosts ${HOST_PORT} ${THIRD_PORT}`,
      url: `http://127.0.0.1:${HOST_PORT}/host.html`,
      reuseExistingServer: !isCI,
      timeout: 20_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
