// Regenerates docs/screenshot.png: a full 2000 s S3700 run in the built app, in Chromium.
//   npm run build && node scripts/screenshot.mjs   (CHROMIUM_PATH to use another Chromium)
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';

const port = 4174;
const server = spawn('node_modules/.bin/vite', ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
  stdio: 'ignore',
});
try {
  await new Promise((r) => setTimeout(r, 1500));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // The first-visit guide is for people, not for the README's picture.
  await page.addInitScript(() => localStorage.setItem('ssdlab.guide.done', '1'));
  await page.goto(`http://127.0.0.1:${port}/?drive=s3700-200&span=1&seconds=2000`);
  await page.getByTestId('engine-state').and(page.locator('[data-state="idle"]')).waitFor({ timeout: 30_000 });
  await page.getByTestId('start').click();
  await page.locator('[data-testid="engine-state"][data-state="finished"]').waitFor({ timeout: 600_000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'docs/screenshot.png', fullPage: true });
  await browser.close();
  console.log('wrote docs/screenshot.png');
} finally {
  server.kill();
}
