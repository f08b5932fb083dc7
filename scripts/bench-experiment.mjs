// An experiment's speed in wasm, run in Node from the full module the experiment worker loads
// (web/src/engine/pkg-full, built by scripts/build-wasm.sh), through the worker's loop
// (web/src/engine/experimentRunner.ts): slices of host IOs sized to ~100 ms, and after a slice
// that adds rows, the table, its figures and its CSV (JSON parsed, as the worker does).
//   node scripts/bench-experiment.mjs REQUEST_JSON [fixed_slice_ios]
// e.g. '{"experiment":"whole-drive-fill","drive":"870qvo-1000"}'. Prints the process's user CPU
// time, split into the engine's slices (`advance`) and the rest of the loop (progress, table,
// figures, CSV), and the number of slices. With fixed_slice_ios, every slice is that size (no
// wall-clock sizing: the same slices every run). SSDLAB_WASM_PKG: another build's pkg-full.
// REPEAT=N: the experiment N times in the one instance (the first pays V8's compiling and the
// memory's first touch; the later ones reuse both), each with its user and system CPU.
// PREGROW_MIB=M: before the first run, M MiB allocated in the engine's memory and freed (grown,
// not touched); with PRETOUCH=1 also written (the first run then faults no fresh page in).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = process.env.SSDLAB_WASM_PKG || join(dirname(fileURLToPath(import.meta.url)), '../web/src/engine/pkg-full');
const wasm = await import(join(pkg, 'ssdlab_full.js'));
const engine = wasm.initSync({ module: readFileSync(join(pkg, 'ssdlab_full_bg.wasm')) });
const pregrow = Number(process.env.PREGROW_MIB || 0) * 2 ** 20;
if (pregrow > 0) {
  const at = engine.__wbindgen_malloc(pregrow, 8);
  if (process.env.PRETOUCH === '1') new Uint8Array(engine.memory.buffer, at, pregrow).fill(1);
  engine.__wbindgen_free(at, pregrow, 8);
}

// web/src/engine/slices.ts
const SLICE_TARGET_MS = 100;
const SLICE_MIN_IOS = 2_000;
const SLICE_MAX_IOS = 400_000;
function nextSliceIos(ios, ms) {
  if (!(ms > 0)) return Math.min(SLICE_MAX_IOS, ios * 2);
  const next = Math.sqrt(ios * ((ios * SLICE_TARGET_MS) / ms));
  return Math.round(Math.min(SLICE_MAX_IOS, Math.max(SLICE_MIN_IOS, next)));
}

const request = process.argv[2];
const fixed = process.argv[3] ? Number(process.argv[3]) : 0;
const userNow = () => process.cpuUsage().user / 1e6;

function runOnce() {
  const cpu0 = userNow();
  const exp = new wasm.Experiment(request);
  let sliceIos = fixed || 150_000;
  let slices = 0;
  let advanceCpu = 0;
  let restCpu = 0;
  let rows = 0;
  for (;;) {
    const t0 = performance.now();
    const c0 = userNow();
    const added = exp.advance(sliceIos);
    const c1 = userNow();
    const finished = exp.finished();
    const progress = JSON.parse(exp.progress_json());
    if (added > 0 || finished) {
      if (exp.rows_json) {
        const from = rows;
        rows += JSON.parse(exp.rows_json(from)).length;
        JSON.parse(exp.figures_json());
        exp.csv(from);
      } else {
        // A build before 2026-11-26's fillspeed: the whole table every time.
        rows = JSON.parse(exp.table_json()).rows.length;
        JSON.parse(exp.figures_json());
        exp.table_csv();
      }
    }
    const c2 = userNow();
    advanceCpu += c1 - c0;
    restCpu += c2 - c1;
    slices++;
    if (!fixed) sliceIos = nextSliceIos(sliceIos, performance.now() - t0);
    if (finished) {
      console.log(`${request}: ${rows} rows, ${progress.points} points, ${slices} slices`);
      break;
    }
  }
  exp.free();
  const total = userNow() - cpu0;
  console.log(`user CPU ${total.toFixed(2)} s: advance ${advanceCpu.toFixed(2)} s, table/figures/csv ${restCpu.toFixed(2)} s`);
}

for (let k = 1, n = Number(process.env.REPEAT || 1); k <= n; k++) {
  const sys0 = process.cpuUsage().system;
  runOnce();
  if (n > 1) console.log(`run ${k}: system CPU ${((process.cpuUsage().system - sys0) / 1e6).toFixed(2)} s`);
}
