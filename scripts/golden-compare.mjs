// Native and wasm engines on every golden case (engine/core/tests/golden/cases.json): runs each
// through the `ssdlab` CLI (--csv) and the wasm module in Node (web/src/engine/pkg, built by
// scripts/build-wasm.sh; web/src/engine/pkg-full for a case with a fio job file or a trace, as
// the page runs them), and checks every per-second value is the same f64 in both.
//   node scripts/golden-compare.mjs [case-name-substring]
// (The CLI writes Rust's shortest round-trip form, so equal numbers mean a byte-identical CSV.)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = join(repo, 'web/src/engine/pkg');
const first = await import(join(pkg, 'ssdlab_wasm.js'));
first.initSync({ module: readFileSync(join(pkg, 'ssdlab_wasm_bg.wasm')) });
const pkgFull = join(repo, 'web/src/engine/pkg-full');
const full = await import(join(pkgFull, 'ssdlab_full.js'));
full.initSync({ module: readFileSync(join(pkgFull, 'ssdlab_full_bg.wasm')) });
const fields = JSON.parse(first.sample_fields());
const cases = JSON.parse(readFileSync(join(repo, 'engine/core/tests/golden/cases.json'), 'utf8'));
const only = process.argv[2] ?? '';
const cli = join(repo, 'target/release/ssdlab');
execFileSync('cargo', ['build', '--release', '-q', '-p', 'ssdlab-cli'], { cwd: repo, stdio: 'inherit' });
const dir = mkdtempSync(join(tmpdir(), 'ssdlab-golden-'));

let failed = 0;
for (const { name, request } of cases.filter((c) => c.name.includes(only))) {
  const req = join(dir, `${name}.json`);
  const csv = join(dir, `${name}.csv`);
  writeFileSync(req, JSON.stringify(request));
  const json = JSON.parse(execFileSync(cli, ['run', '--config', req, '--csv', csv, '--json']).toString());
  const native = readFileSync(csv, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').map(Number));
  const wasm = request.fio != null || request.trace != null ? full : first;
  const sim = new wasm.Simulation(JSON.stringify(request));
  const rows = [];
  while (!sim.finished()) {
    const cols = sim.advance(250_000);
    const n = cols.length / fields.length;
    for (let r = 0; r < n; r++) rows.push(fields.map((_, c) => cols[c * n + r]));
  }
  const cuts = JSON.stringify(JSON.parse(sim.power_cuts_json()));
  sim.free();
  let diff = rows.length === native.length ? '' : `${rows.length} wasm rows, ${native.length} native`;
  for (let r = 0; !diff && r < rows.length; r++) {
    const c = rows[r].findIndex((v, i) => !Object.is(v, native[r][i]));
    if (c >= 0) diff = `second ${r} ${fields[c]}: wasm ${rows[r][c]}, native ${native[r][c]}`;
  }
  if (!diff && JSON.stringify(json.power_cuts ?? []) !== cuts) diff = `power cuts: wasm ${cuts}, native ${JSON.stringify(json.power_cuts)}`;
  console.log(`${diff ? 'DIFF' : 'same'}  ${name}${diff ? `: ${diff}` : ''}`);
  failed += diff ? 1 : 0;
}
console.log(failed ? `${failed} case(s) differ` : 'native and wasm agree on every case');
process.exit(failed ? 1 : 0);
