// Where the page's main thread spends its time while four runs stream: the S3700 at four spare
// areas (as `npm run bench:page` starts them), then a V8 CPU profile of the main thread for a few
// seconds, summed by function. For comparing two builds of the page, alternating, on a shared
// machine: the busy share and the functions' shares are steadier than wall-clock figures.
//   node scripts/profile-page.mjs URL [OUT.cpuprofile]   e.g. URL http://127.0.0.1:4393/
// Serve a build unminified to read its function names: `vite build --minify false --outDir DIR`
// and `vite preview --outDir DIR --port PORT`. CHROMIUM_PATH: another Chromium; PROFILE_MS: the
// profile's length (default 5000).
import { writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const [url, out] = process.argv.slice(2);
if (!url) throw new Error('usage: node scripts/profile-page.mjs URL [OUT.cpuprofile]');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.addInitScript(() => localStorage.setItem('ssdlab.guide.done', '1'));
await page.goto(new URL('?seconds=300', url).href);
await page.waitForFunction(() => document.querySelector('[data-testid="engine-state"]')?.getAttribute('data-state') === 'idle', null, {
  timeout: 60_000,
});
for (const span of ['0.9', '0.75', '0.5']) {
  await page.getByTestId('add-run').click();
  await page.locator('label', { has: page.getByTestId(`span-${span}`) }).click();
}
await page.getByTestId('start').click(); // the three new runs
await page.getByTestId('restart').click(); // and all four again from 0
await page.waitForTimeout(3000);

const cdp = await page.context().newCDPSession(page);
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await page.waitForTimeout(Number(process.env.PROFILE_MS ?? 5000));
const { profile } = await cdp.send('Profiler.stop');
await browser.close();
if (out) writeFileSync(out, JSON.stringify(profile));

// Self time by function (name and line of the bundle), and the share not idle.
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
let total = 0;
let idle = 0;
profile.samples.forEach((id, i) => {
  const f = nodes.get(id).callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
  const dt = profile.timeDeltas[i] ?? 0;
  self.set(key, (self.get(key) ?? 0) + dt);
  total += dt;
  if (f.functionName === '(idle)') idle += dt;
});
console.log(`busy ${((100 * (total - idle)) / total).toFixed(1)} % of ${(total / 1000).toFixed(0)} ms`);
for (const [k, us] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
