import { chromium } from '@playwright/test';
const [url, out, w = '1280', scheme = 'light', scrollTo = '0', wait = '6000'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: +w, height: 900 }, colorScheme: scheme });
page.on('pageerror', (e) => console.log('pageerror:', e.message));
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
await page.goto(url);
await page.waitForTimeout(2000);
if (scrollTo !== '0') { await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'center' }), scrollTo); }
await page.waitForTimeout(+wait);
await page.screenshot({ path: out });
for (const f of page.frames()) { if (f === page.mainFrame()) continue; console.log(f.url().slice(0, 80), await f.evaluate(() => { const e = document.querySelector('[data-testid=embed]'); return e ? `${e.dataset.state} visible=${e.dataset.visible} until=${e.dataset.until}` : 'none'; })); }
await browser.close();
