// The page's long main-thread tasks (over 50 ms) on a first visit: a new browser with a fresh
// profile, from navigation to the end of one run (or, FOUR=1, of four at once: the S3700 at four
// spare areas), as the page benchmark's first visits count them (e2e/bench/page.spec.ts), but
// alone and with what each task was, and each run's time to finish (Start to "done", s):
//   node scripts/long-tasks.mjs URL [SECONDS]      e.g. URL http://127.0.0.1:4393/
// The visit starts once the new browser is idle (thread-cpu.mjs browserIdle); SETTLE=0 navigates at
// once, while Chromium still starts its own processes beside the page.
// TRACE=1: a Chrome trace of the visit, and each long task's biggest events (script, style,
// layout, paint, GC); TRACE_OUT=FILE also saves the trace's events. PROFILE=1: instead, a V8 CPU profile of the main thread from navigation to
// engine ready + 1 s, by function (serve an unminified build to read the names: see
// scripts/profile-page.mjs). CHROMIUM_PATH: another Chromium.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { browserIdle } from './thread-cpu.mjs';

const [url, secondsArg] = process.argv.slice(2);
if (!url) throw new Error('usage: node scripts/long-tasks.mjs URL [SECONDS]');
const seconds = Number(secondsArg || 2000);
const four = process.env.FOUR === '1';
const trace = process.env.TRACE === '1';
const profileLoad = process.env.PROFILE === '1';
const loadAtStart = loadavg()[0];
const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'ssdlab-profile-')), {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  viewport: { width: 1280, height: 900 },
  serviceWorkers: 'allow',
});
const page = context.pages()[0] ?? (await context.newPage());
// SETTLE=0: navigate at once, while the browser is still starting (its own work then competes).
const settledS = process.env.SETTLE === '0' ? 0 : await browserIdle();
await page.addInitScript(() => {
  localStorage.setItem('ssdlab.guide.done', '1');
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ at: Math.round(e.startTime), ms: Math.round(e.duration) });
  }).observe({ type: 'longtask', buffered: true });
});
const cdp = await context.newCDPSession(page);
const events = [];
if (trace) {
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', {
    categories: 'toplevel,devtools.timeline,v8,blink,loading,disabled-by-default-devtools.timeline',
    transferMode: 'ReportEvents',
  });
}
if (profileLoad) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
}
const engineIs = (state) =>
  page.waitForFunction((s) => document.querySelector('[data-testid="engine-state"]')?.getAttribute('data-state') === s, state, {
    timeout: 1_800_000,
    polling: 500,
  });
await page.goto(new URL(`?seconds=${seconds}`, url).href);
await engineIs('idle');
await page.waitForTimeout(1000); // what follows ready belongs to the load too
const loading = await page.evaluate(() => window.__longTasks.splice(0));
let profile = null;
let running = [];
let finishS = [];
if (profileLoad) {
  profile = (await cdp.send('Profiler.stop')).profile;
} else {
  if (four) {
    for (const span of ['0.9', '0.75', '0.5']) {
      await page.getByTestId('add-run').click();
      await page.locator('label', { has: page.getByTestId(`span-${span}`) }).click();
    }
  }
  await page.getByTestId('start').click();
  if (four) await page.getByTestId('restart').click(); // all four from 0
  // Each run's time to finish: from here to its "done" in the run list (polled every 250 ms).
  finishS = await page.evaluate(
    (n) =>
      new Promise((resolve) => {
        const t0 = performance.now();
        const at = [];
        const poll = setInterval(() => {
          for (let i = 0; i < n; i++) {
            const done = /done/.test(document.querySelector(`[data-testid="run-${i + 1}"]`)?.textContent ?? '');
            if (done && at[i] === undefined) at[i] = (performance.now() - t0) / 1000;
          }
          if (at.filter((x) => x !== undefined).length === n) {
            clearInterval(poll);
            resolve(at);
          }
        }, 250);
      }),
    four ? 4 : 1,
  );
  running = await page.evaluate(() => window.__longTasks.splice(0));
}
if (trace) {
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await done;
}
await context.close();

const list = (xs) =>
  `${xs.length} (longest ${Math.max(0, ...xs.map((t) => t.ms))} ms)${xs.length ? ': ' : ''}${xs.map((t) => `${t.ms}@${t.at}`).join(' ')}`;
console.log(
  `load average ${loadAtStart.toFixed(1)} -> ${loadavg()[0].toFixed(1)}; browser idle after ${settledS.toFixed(1)} s; long tasks as ms@start ms`,
);
console.log(`while loading: ${list(loading)}`);
if (!profileLoad) console.log(`${four ? 'four runs' : 'from Start to the end of the run'}: ${list(running)}`);
if (!profileLoad) console.log(`time to finish: ${finishS.map((s) => `${s.toFixed(1)} s`).join(', ')}`);

if (trace && process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify(events));
if (trace) {
  // Each long task of the page's main thread with its biggest events inside (ms).
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = (e) => mains.some((m) => m.pid === e.pid && m.tid === e.tid);
  const tasks = events.filter((e) => onMain(e) && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.dur > 50_000);
  for (const t of tasks) {
    const inside = events.filter(
      (e) => e !== t && e.pid === t.pid && e.tid === t.tid && e.ph === 'X' && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur,
    );
    const name = (e) => `${e.name}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ''}`;
    const top = inside
      .filter((e) => (e.dur ?? 0) > 5_000)
      .sort((a, b) => b.dur - a.dur)
      .slice(0, 8)
      .map((e) => `${name(e)} ${(e.dur / 1000).toFixed(0)}`);
    // tdur: the thread's CPU time in the task, steadier than wall time on a shared machine.
    console.log(`task ${(t.dur / 1000).toFixed(0)} ms (cpu ${((t.tdur ?? 0) / 1000).toFixed(0)}): ${top.join(', ')}`);
  }
}

if (profile) {
  // Self and total time by function (name and line of the bundle).
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (id) => {
    const f = nodes.get(id).callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
  };
  const self = new Map();
  const total = new Map();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    all += dt;
    self.set(key(id), (self.get(key(id)) ?? 0) + dt);
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) if (!seen.has(key(n))) seen.add(key(n));
    for (const k of seen) total.set(k, (total.get(k) ?? 0) + dt);
  });
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`profile of ${(all / 1000).toFixed(0)} ms; self time:`);
  for (const [k, us] of top(self, 25)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
  console.log('total time (with callees):');
  for (const [k, us] of top(total, 40)) console.log(`${(us / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}
