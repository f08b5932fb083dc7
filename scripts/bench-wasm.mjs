// The wasm engine's speed and memory, run in Node from the same module the browser loads
// (web/src/engine/pkg, built by scripts/build-wasm.sh). Prints one Markdown table row each.
//   node scripts/bench-wasm.mjs [seconds] [page]
// With `page`, it runs the page worker's loop (advance_inside, inside and latency_histogram per
// slice, as web/src/engine/runner.ts does) and adds the process's user CPU time, and that of the
// steady state alone (the slices from the first to start at or after second 1400; the native
// loop's figure: engine/wasm/examples/page_native.rs). SSDLAB_WASM_PKG: another build's pkg
// directory (e.g. a copy of an older build, to compare side by side).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = process.env.SSDLAB_WASM_PKG || join(dirname(fileURLToPath(import.meta.url)), '../web/src/engine/pkg');
const STEADY_FROM = 1400;
const wasm = await import(join(pkg, 'ssdlab_wasm.js'));
wasm.initSync({ module: readFileSync(join(pkg, 'ssdlab_wasm_bg.wasm')) });

const seconds = Number(process.argv[2] ?? 2000);
const pageLoop = process.argv[3] === 'page';
const cpu0 = process.cpuUsage();
const fields = JSON.parse(wasm.sample_fields());
const iopsCol = fields.indexOf('iops');
const t0 = performance.now();
const sim = new wasm.Simulation(JSON.stringify({ drive: 's3700-200', workload: 'consistency', seconds }));
const setupMs = performance.now() - t0;
let ios = 0;
let steady = null;
while (!sim.finished()) {
  if (!steady && sim.seconds_done() >= STEADY_FROM) steady = { from: sim.seconds_done(), user: process.cpuUsage(cpu0).user };
  const cols = pageLoop ? sim.advance_inside(200_000, 0xffff_ffff) : sim.advance(200_000);
  if (pageLoop) {
    sim.inside();
    sim.latency_histogram();
  }
  const n = cols.length / fields.length;
  for (let r = 0; r < n; r++) ios += cols[iopsCol * n + r];
}
const wall = (performance.now() - t0) / 1000;
const userUs = process.cpuUsage(cpu0).user;
const user = userUs / 1e6;
const steadyText = steady ? `, from second ${steady.from}: ${((userUs - steady.user) / 1e6).toFixed(2)} s` : '';
const mem = sim.memory_bytes();
const perUnit = mem / (sim.raw_bytes() / 4096);
sim.free();
console.log(`| wasm engine (Node ${process.version}${pageLoop ? ", the page's loop" : ''}), S3700 ${seconds} s run | ${wall.toFixed(1)} s wall (${(setupMs / 1000).toFixed(1)} s erase and fill; ${user.toFixed(2)} s user CPU${steadyText}), ${(ios / wall / 1e6).toFixed(2)} M host IOs/s |`);
console.log(`| wasm linear memory after the run | ${(mem / 2 ** 20).toFixed(0)} MiB = ${perUnit.toFixed(2)} bytes per 4 KiB of raw NAND (target < 10) |`);
