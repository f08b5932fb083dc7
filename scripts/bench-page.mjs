// The page's speed in Chromium (issue 10's figures), against the built app:
//   npm run build && cargo build --release -p ssdlab-cli && node scripts/bench-page.mjs
// (CHROMIUM_PATH to use another Chromium). Prints: what the first load fetches (gzip -9 and
// brotli of exactly the files the page requests until the engine is ready; views not on screen
// load when opened), long tasks, the time from Start to the first dot on the full-size S3700,
// while four runs stream at once the longest main-thread task, frames per second and the time a
// click takes to show, and the engine in Chromium against the native CLI on the same run, side
// by side (alternating, SSDLAB_BENCH_ROUNDS rounds).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const port = Number(process.env.SSDLAB_BENCH_PORT || 4275);
const seconds = Number(process.env.SSDLAB_BENCH_SECONDS || 300);
const rounds = Number(process.env.SSDLAB_BENCH_ROUNDS || 2);

/** Sizes of built files by their served paths (raw, gzip -9, brotli 11). */
function sizes(paths) {
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const p of paths) {
    const b = readFileSync(`web/dist/${p === '' ? 'index.html' : p}`);
    raw += b.length;
    gz += gzipSync(b, { level: 9 }).length;
    br += brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files: paths.length, raw, gz, br };
}
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;

/** The native CLI on the same run: wall seconds (erase, fill and run), from its JSON. */
function nativeRun() {
  const out = execFileSync('target/release/ssdlab', ['run', '--drive', 's3700-200', '--workload', 'consistency', '--seconds', String(seconds), '--json']);
  return JSON.parse(out.toString()).wall_seconds;
}

const server = spawn('node_modules/.bin/vite', ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], { stdio: 'ignore' });
try {
  await new Promise((r) => setTimeout(r, 1500));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    localStorage.setItem('ssdlab.guide.done', '1');
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ at: e.startTime, ms: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  const fetched = new Set();
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.port === String(port)) fetched.add(u.pathname.replace(/^\//, ''));
  });
  const t0 = Date.now();
  await page.goto(`http://127.0.0.1:${port}/?seconds=${seconds}`);
  await page.locator('[data-testid="engine-state"][data-state="idle"]').waitFor({ timeout: 60_000 });
  console.log(`load to engine ready: ${Date.now() - t0} ms`);
  const first = sizes([...fetched].filter((p) => !p.startsWith('@')));
  const all = sizes(['', ...readdirSync('web/dist/assets').map((f) => `assets/${f}`)]);
  console.log(
    `first load: ${first.files} files, ${kb(first.raw)}, ${kb(first.gz)} gzip, ${kb(first.br)} brotli ` +
      `(all ${all.files} built files: ${kb(all.gz)} gzip, ${kb(all.br)} brotli)`,
  );
  const loadTasks = await page.evaluate(() => window.__longTasks.splice(0));
  console.log(`long tasks while loading: ${loadTasks.length}, longest ${Math.max(0, ...loadTasks.map((t) => t.ms)).toFixed(0)} ms`);

  // One full-size S3700: time from Start to the first dot.
  const clicked = await page.evaluate(() => performance.now());
  await page.getByTestId('start').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="iops-chart"]')?.getAttribute('data-points')) > 0, null, { timeout: 60_000 });
  const firstDot = (await page.evaluate(() => performance.now())) - clicked;
  console.log(`Start to first dot (full-size S3700 200GB, erase and fill included): ${firstDot.toFixed(0)} ms`);
  await page.locator('[data-testid="engine-state"][data-state="finished"]').waitFor({ timeout: 600_000 });
  const oneSpeed = await page.getByTestId('summary').textContent();
  console.log(`one run: ${oneSpeed}`);
  const firstRunTasks = await page.evaluate(() => window.__longTasks.splice(0));
  console.log(`long tasks from Start to the end of that run: ${firstRunTasks.length}, longest ${Math.max(0, ...firstRunTasks.map((t) => t.ms)).toFixed(0)} ms`);

  // The engine in the page's worker against the native CLI, the same run, alternating.
  const pageTimes = [];
  const nativeTimes = [];
  for (let r = 0; r < rounds; r++) {
    nativeTimes.push(nativeRun());
    await page.getByTestId('start').click();
    await page.locator('[data-testid="engine-state"]:not([data-state="finished"])').waitFor();
    await page.locator('[data-testid="engine-state"][data-state="finished"]').waitFor({ timeout: 600_000 });
    const summary = page.getByTestId('summary');
    const engineMs = Number(await summary.getAttribute('data-engine-ms')) + Number(await summary.getAttribute('data-setup-ms'));
    pageTimes.push(engineMs / 1000);
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `engine, S3700 200GB ${seconds} s (erase, fill and run): Chromium worker ${pageTimes.map((t) => t.toFixed(2)).join(' / ')} s, ` +
      `native CLI ${nativeTimes.map((t) => t.toFixed(2)).join(' / ')} s; ratio ${(mean(pageTimes) / mean(nativeTimes)).toFixed(2)}`,
  );
  await page.evaluate(() => window.__longTasks.splice(0));

  // Four runs at once (S3700 at four spare areas), each in its own worker.
  for (const span of ['0.9', '0.75', '0.5']) {
    await page.getByTestId('add-run').click();
    await page.locator('label', { has: page.getByTestId(`span-${span}`) }).click();
  }
  await page.evaluate(() => window.__longTasks.splice(0));
  await page.getByTestId('start').click(); // starts the three new runs
  await page.getByTestId('restart').click(); // and all four again from 0
  await page.waitForTimeout(3000);
  const probe = await page.evaluate(
    () =>
      new Promise((resolve) => {
        let frames = 0;
        const start = performance.now();
        const tick = () => {
          frames++;
          if (performance.now() - start < 5000) requestAnimationFrame(tick);
          else resolve({ fps: (frames * 1000) / (performance.now() - start) });
        };
        requestAnimationFrame(tick);
      }),
  );
  // A click on a view tab until the next frame after the chart shows that view, timed in the page.
  const clicks = [];
  for (const view of ['steady-log', 'whole-log', 'steady-linear', 'whole-log']) {
    clicks.push(
      await page.evaluate(
        (v) =>
          new Promise((resolve) => {
            const chart = document.querySelector('[data-testid="iops-chart"]');
            const t0 = performance.now();
            const obs = new MutationObserver(() => {
              if (chart.getAttribute('data-view') !== v) return;
              obs.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - t0));
            });
            obs.observe(chart, { attributes: true });
            document.querySelector(`[data-testid="view-${v}"]`).click();
          }),
        view,
      ),
    );
    await page.waitForTimeout(300);
  }
  const tasks = await page.evaluate(() => window.__longTasks.splice(0));
  console.log(
    `four runs streaming: ${probe.fps.toFixed(0)} frames/s; long tasks ${tasks.length}, longest ${Math.max(0, ...tasks.map((t) => t.ms)).toFixed(0)} ms; ` +
      `click to the view drawn ${clicks.map((c) => c.toFixed(0)).join(', ')} ms`,
  );
  for (let i = 1; i <= 4; i++) await page.getByTestId(`run-${i}`).getByText(/done/).waitFor({ timeout: 900_000 });
  const speeds = [];
  for (let i = 1; i <= 4; i++) speeds.push(await page.getByTestId(`run-${i}`).textContent());
  console.log(`four runs finished: ${speeds.join(' | ')}`);
  const end = await page.evaluate(() => window.__longTasks.splice(0));
  console.log(`long tasks to the end: ${end.length}, longest ${Math.max(0, ...end.map((t) => t.ms)).toFixed(0)} ms`);
  await browser.close();
} finally {
  server.kill();
}
