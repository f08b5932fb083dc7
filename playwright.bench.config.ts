import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// The page's benchmark (e2e/bench), run by `npm run bench` only: the same browser and server as
// the e2e tests, one long test.
export default defineConfig({
  ...base,
  testDir: 'e2e/bench',
  testIgnore: [],
  outputDir: 'test-results/bench',
  retries: 0,
  // Playwright's own trace (screenshots and snapshots at every step) would load the machine the
  // benchmark measures.
  use: { ...base.use, trace: 'off' },
});
