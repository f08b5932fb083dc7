import { chromium } from '@playwright/test';
const [,, url, out, w, h, theme, waitFinished] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const ctx = await browser.newContext({ viewport: { width: Number(w), height: Number(h) }, colorScheme: theme || 'light' });
const page = await ctx.newPage();
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
page.on('pageerror', (e) => console.log('pageerror:', e.message));
await page.goto(url);
await page.waitForSelector('[data-testid="engine-state"][data-state="idle"]', { timeout: 30000 });
if (waitFinished) {
  await page.getByTestId('start').click();
  await page.waitForSelector('[data-testid="engine-state"][data-state="finished"]', { timeout: 300000 });
  await page.waitForTimeout(300);
}
await page.screenshot({ path: out, fullPage: false });
await browser.close();
