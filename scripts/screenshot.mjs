// Regenerates docs/screenshot.png: the full-size S3700 200GB at 29 % and 47 % spare area, 2000 s
// each, compared in the built app in Chromium, with the second of a steady-state dip explained.
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
  const other = encodeURIComponent('drive=s3700-200&span=0.75&seconds=2000');
  await page.goto(`http://127.0.0.1:${port}/?drive=s3700-200&span=1&seconds=2000&compare=${other}`);
  await page.getByTestId('engine-state').and(page.locator('[data-state="idle"]')).waitFor({ timeout: 30_000 });
  await page.getByTestId('start').click();
  for (const i of [1, 2]) await page.getByTestId(`run-${i}`).getByText(/done/).waitFor({ timeout: 900_000 });
  // Explain the slowest second of the first run's steady state (1485 s: 27,788 IOPS, as
  // `ssdlab run --drive s3700-200 --csv` gives it), as a reader would: with the keyboard.
  await page.getByTestId('iops-chart').focus();
  await page.keyboard.press('End');
  // From 1999 s: 51 steps of ten seconds and 4 of one.
  for (let i = 0; i < 51; i++) await page.keyboard.press('Shift+ArrowLeft');
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await page.mouse.move(0, 0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'docs/screenshot.png', fullPage: true });
  await browser.close();
  console.log('wrote docs/screenshot.png');
} finally {
  server.kill();
}
