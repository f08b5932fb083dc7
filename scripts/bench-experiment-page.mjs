// An experiment in the page as a user meets it: a fresh Chromium profile opens URL (an experiment
// in its link, e.g. `?drive=870qvo-1000&experiment=whole-drive-fill`), waits for the engine, and
// clicks Run experiment; prints the wall time from the click to the first point and to the end
// (the page's own clock), the experiment's "done in" (the engine's slices only), and the CPU of
// each of the browser's threads meanwhile (user + system, from /proc: Linux only), the workers'
// first. Compare with `ssdlab sweep EXPERIMENT --drive ID` run just before or after: the machine
// is shared, so only ratios from the same minutes mean anything.
//   node scripts/bench-experiment-page.mjs URL [ROUNDS]
// ROUNDS > 1 runs the experiment again in the same page (the engine then compiled and warm).
// Serve a build with `node scripts/static-server.mjs web/dist PORT`. CHROMIUM_PATH: another Chromium.
import { chromium } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadCpu } from './thread-cpu.mjs';

const [url, roundsArg] = process.argv.slice(2);
if (!url) throw new Error('usage: node scripts/bench-experiment-page.mjs URL [ROUNDS]');
const rounds = Number(roundsArg || 1);

const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'ssdlab-exp-')), {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  viewport: { width: 1280, height: 900 },
});
const page = context.pages()[0] ?? (await context.newPage());
await page.addInitScript(() => localStorage.setItem('ssdlab.guide.done', '1'));
await page.goto(url);
const run = page.getByRole('button', { name: 'Run experiment' }).first();
await run.waitFor({ timeout: 60_000 });
await page.waitForTimeout(2000); // the engine loaded, the page settled
for (let round = 1; round <= rounds; round++) {
  if (round > 1) await page.waitForTimeout(1500);
  await page.evaluate(() => {
    // The page's clock at the click, at the first point and at the end.
    const marks = { click: NaN, first: NaN, done: NaN };
    window.__experimentMarks = marks;
    document.addEventListener('click', () => (marks.click = performance.now()), { capture: true, once: true });
    const observer = new MutationObserver(() => {
      const text = document.querySelector('[data-testid=exp-progress-text]')?.textContent ?? '';
      if (Number.isNaN(marks.first) && /^Point /.test(text)) marks.first = performance.now();
      if (!Number.isNaN(marks.first) && / in [0-9.]+ s$/.test(text)) {
        marks.done = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const before = threadCpu();
  await run.click();
  await page.waitForFunction(() => !Number.isNaN(window.__experimentMarks.done), null, { timeout: 600_000, polling: 500 });
  const after = threadCpu();
  const m = await page.evaluate(() => window.__experimentMarks);
  const said = await page.getByTestId('exp-progress-text').first().textContent();
  const used = [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)]).filter(([, d]) => d >= 0.05);
  used.sort((a, b) => Number(b[0].includes('DedicatedWorker')) - Number(a[0].includes('DedicatedWorker')) || b[1] - a[1]);
  console.log(
    `round ${round}: click to first point ${Math.round(m.first - m.click)} ms, to done ${((m.done - m.click) / 1000).toFixed(2)} s; "${said}"`,
  );
  console.log(`  CPU (s): ${used.map(([k, d]) => `${k.split(' ').slice(1).join(' ')} ${d.toFixed(2)}`).join(', ')}`);
}
await context.close();
