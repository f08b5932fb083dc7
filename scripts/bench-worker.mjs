// The page's engine loop (advance_inside, inside, latency_histogram per slice, slices sized as
// the runner sizes them) in a bare Chromium dedicated worker: no app, no charts. Prints its
// wall time, the worker thread's CPU time (from /proc: Linux) and the engine and steady-state
// (from second 1400) times, to compare with Node (scripts/bench-wasm.mjs) and native
// (page_native) per CPU second (docs/BENCHMARKS.md, issue 19).
//   node scripts/bench-worker.mjs SECONDS [extra Chromium args, e.g. --js-flags=--no-wasm-dynamic-tiering]
// PKG: the module's folder (default web/src/engine/pkg, after scripts/build-wasm.sh); SLICE: a
// fixed slice in host IOs; COMPILE=buffer: instantiate from bytes, not streaming; YIELD=1: a
// setTimeout(0) between slices as the worker does; CHROMIUM_PATH; PORT (default 5374).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { workerCpu } from './thread-cpu.mjs';

const pkg = process.env.PKG || 'web/src/engine/pkg';
const port = Number(process.env.PORT || 5374);
const seconds = Number(process.argv[2] ?? 300);
const extra = process.argv.slice(3);
const slice = Number(process.env.SLICE || 0); // 0: adaptive like the runner (100 ms target)
const worker = `
import init, * as wasm from '/pkg/ssdlab_wasm.js';
self.onmessage = async (e) => {
  const { seconds, slice } = e.data;
  const tInit = performance.now();
  ${process.env.COMPILE === 'buffer' ? "const bytes = await (await fetch('/pkg/ssdlab_wasm_bg.wasm')).arrayBuffer(); await init({ module_or_path: bytes });" : 'await init();'}
  const initMs = performance.now() - tInit;
  const t0 = performance.now();
  const sim = new wasm.Simulation(JSON.stringify({ drive: 's3700-200', workload: 'consistency', seconds }));
  const setupMs = performance.now() - t0;
  let ios = 150000, engineMs = 0, steadyMs = 0, steadyFrom = null, slices = 0;
  while (!sim.finished()) {
    const before = sim.seconds_done();
    const s0 = performance.now();
    const data = sim.advance_inside(slice || ios, 0xffffffff);
    const inside = new Float32Array(sim.inside());
    const lat = sim.latency_histogram();
    sim.seconds_done(); sim.finished(); sim.memory_bytes();
    const ms = performance.now() - s0;
    engineMs += ms; slices++;
    if (before >= 1400) { if (steadyFrom === null) steadyFrom = before; steadyMs += ms; }
    if (!slice) { const ideal = ios * 100 / ms; ios = Math.round(Math.min(400000, Math.max(2000, Math.sqrt(ios * ideal)))); }
    if (${process.env.YIELD === '1'}) await new Promise(r => setTimeout(r, 0));
  }
  sim.free();
  postMessage({ initMs, setupMs, engineMs, steadyMs, steadyFrom, slices });
};`;
const html = `<!doctype html><script type="module">
const w = new Worker('/w.js', { type: 'module' });
window.result = new Promise(r => { w.onmessage = e => r(e.data); });
w.postMessage({ seconds: ${seconds}, slice: ${slice} });
</script>`;
const server = createServer((req, res) => {
  const u = req.url;
  if (u === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  if (u === '/w.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
  if (u.startsWith('/pkg/')) {
    const f = join(pkg, u.slice(5));
    const type = f.endsWith('.wasm') ? 'application/wasm' : 'text/javascript';
    return res.writeHead(200, { 'content-type': type }).end(readFileSync(f));
  }
  res.writeHead(404).end();
});
await new Promise((r) => server.listen(port, '127.0.0.1', r));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', ...extra],
});
const page = await browser.newPage();
let lastUtime = 0;
const poll = setInterval(() => {
  const u = workerCpu();
  if (u > 0) lastUtime = u;
}, 200);
const t0 = Date.now();
await page.goto(`http://127.0.0.1:${port}/`);
const r = await page.evaluate(() => window.result);
clearInterval(poll);
console.log(JSON.stringify({ seconds, extra, pkg, wallS: (Date.now() - t0) / 1000, workerUserS: lastUtime, ...r }));
await browser.close();
server.close();
