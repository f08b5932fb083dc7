// Native and wasm builds of the engine must give identical samples for the same config and seed.
// Runs the real wasm (built by scripts/build-wasm.sh into ./pkg, and ./pkg-full for the experiment) in Node and the real `ssdlab`
// CLI, on a small S3700-architecture drive that reaches garbage collection within the run.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');

const SET: Record<string, number | boolean> = {
  'geometry.blocks_per_plane': 128,
  user_bytes: 12_500_000_768,
  'gc.start_free_blocks': 6,
  'gc.boost_below_free_blocks': 3,
  'gc.boost_until_free_blocks': 5,
};
/** `cargo` arguments that run the native CLI as `npm test` built it (scripts/test.sh's `ci`
 * profile), so the comparison does not build it a second time. */
const NATIVE_CLI = ['run', '--profile', 'ci', '-q', '-p', 'ssdlab-cli', '--'];
const SECONDS = 60;
const SEED = 42;

/** Run settings beyond the drive, as the CLI flag and the JSON field name them. */
interface Extra {
  flags: string[];
  json: Record<string, unknown>;
  set: Record<string, number | boolean>;
}

function nativeCsv(extra: Extra): string {
  const dir = mkdtempSync(join(tmpdir(), 'ssdlab-parity-'));
  const csv = join(dir, 'native.csv');
  const sets = Object.entries({ ...SET, ...extra.set }).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  execFileSync(
    'cargo',
    [
      ...NATIVE_CLI,
      'run',
      '--drive',
      's3700-200',
      '--seconds',
      String(SECONDS),
      '--steady-from',
      '30',
      '--seed',
      String(SEED),
      ...sets,
      ...extra.flags,
      '--csv',
      csv,
    ],
    { cwd: repo, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return readFileSync(csv, 'utf8');
}

const PLAIN: Extra = { flags: [], json: {}, set: {} };
// Compression, unaligned writes (read-modify-write) and TRIM commands in one run.
const DATA_PATH: Extra = {
  flags: ['--workload', 'write-trim', '--align-bytes', '512', '--compressibility', '0.4'],
  json: { workload: 'write-trim', align_bytes: 512, compressibility: 0.4 },
  set: { 'controller.compression': true, 'controller.compression_slot_bytes': 1024 },
};

describe('native and wasm engines', () => {
  it.each([
    ['the default drive', PLAIN],
    ['compression, unaligned writes and TRIM', DATA_PATH],
  ])(
    'give identical per-second samples for the same config and seed: %s',
    async (_name, extra) => {
      const wasm = await import('./pkg/ssdlab_wasm.js');
      wasm.initSync({ module: readFileSync(join(here, 'pkg/ssdlab_wasm_bg.wasm')) });
      const fields: string[] = JSON.parse(wasm.sample_fields());
      const sim = new wasm.Simulation(
        JSON.stringify({ drive: 's3700-200', seconds: SECONDS, seed: SEED, ...extra.json, set: { ...SET, ...extra.set } }),
      );
      // Advance in uneven slices stopping at seconds, as the worker does: slicing must not change
      // the result.
      const rows: number[][] = [];
      for (let slice = 1; !sim.finished(); slice++) {
        const cols = sim.advance_inside(37_000 * slice, slice % 3 === 0 ? rows.length + 1 : 0xffff_ffff);
        const n = cols.length / fields.length;
        for (let r = 0; r < n; r++) rows.push(fields.map((_, c) => cols[c * n + r]));
      }
      sim.free();

      const [header, ...lines] = nativeCsv(extra).trim().split('\n');
      expect(header.split(',')).toEqual(fields);
      const native = lines.map((l) => l.split(',').map(Number));
      expect(rows.length).toBe(SECONDS);
      expect(native.length).toBe(SECONDS);
      // GC ran, so the comparison covers the whole model, not just the fresh-drive phase.
      const gcMoves = fields.indexOf('gc_moves');
      expect(rows.some((r) => r[gcMoves] > 0)).toBe(true);
      if (extra === DATA_PATH) expect(rows.some((r) => r[fields.indexOf('rmw_reads')] > 0)).toBe(true);
      for (let i = 0; i < SECONDS; i++) expect(rows[i]).toEqual(native[i]);
    },
    180_000,
  );
});

describe('an experiment', () => {
  it('gives the same table in wasm (in slices) as `ssdlab sweep` natively', async () => {
    const wasm = await import('./pkg-full/ssdlab_full.js');
    wasm.initSync({ module: readFileSync(join(here, 'pkg-full/ssdlab_full_bg.wasm')) });
    const request = {
      experiment: 'four-corners',
      drive: 's3700-200',
      seed: SEED,
      seconds: 4,
      ramp_seconds: 1,
      queue_depths: [1, 16],
      set: SET,
    };
    const exp = new wasm.Experiment(JSON.stringify(request));
    // The CSV assembled as the worker does, each slice's new lines appended.
    let rowsSeen = 0;
    let csv = '';
    for (let slice = 1; !exp.finished(); slice++) {
      const added = exp.advance(23_000 * slice);
      csv += exp.csv(rowsSeen);
      rowsSeen += added;
    }
    exp.free();
    const sets = Object.entries(SET).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
    const native = execFileSync(
      'cargo',
      [
        ...NATIVE_CLI,
        'sweep',
        'four-corners',
        '--drive',
        's3700-200',
        '--seed',
        String(SEED),
        '--seconds',
        '4',
        '--ramp-seconds',
        '1',
        '--queue-depths',
        '1,16',
        ...sets,
      ],
      { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
    ).toString();
    // Four corners at two queue depths, every row with its numbers.
    expect(rowsSeen).toBe(8);
    expect(csv.trim().split('\n')).toHaveLength(9);
    expect(csv).toBe(native);
  }, 180_000);
});
