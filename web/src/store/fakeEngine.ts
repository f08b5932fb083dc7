// A fake engine for the store's tests: workers that record what the page sends and say what a
// test tells them to, and a small catalog (two drives, a synthetic workload and a trace model,
// one experiment), in the shapes the real worker sends.

import { fakeWorkers, FakeWorker } from '../engine/fakeWorker';
import type { ExperimentInfo } from '../engine/experimentProtocol';
import { RECOVERY_INFO } from '../engine/fakeExperiments';
import type { DrivePreset, WorkloadInfo } from '../engine/protocol';
import { DEFAULTS } from '../settings/pageDefaults';
import type { RunSettings } from '../settings/urlState';
import { PageStore } from './store';

export { FakeWorker };

function preset(id: string, name: string): DrivePreset {
  return {
    id,
    name,
    interface: 'sata',
    raw_bytes: 264e9,
    user_bytes: 200e9,
    advertised_bytes: 200e9,
    spec_random_write_iops: 32_000,
    parameters: { 'geometry.dies': 8, 'controller.write_buffer_bytes': 1 << 20, 'power.capacitors': true },
  };
}

export const PRESETS = [preset('s3700-200', 'Intel SSD DC S3700 200GB'), preset('p3700-400', 'Intel SSD DC P3700 400GB')];
export const WORKLOADS: WorkloadInfo[] = [
  { id: 'consistency', description: '4 KB random writes', block_bytes: 4096, queue_depth: 32, read_percent: 0 },
  { id: 'swingbench', description: 'an OLTP trace model', block_bytes: 8192, queue_depth: 8, read_percent: 70, model: true },
];
export const EXPERIMENTS: ExperimentInfo[] = [
  {
    id: 'four-corners',
    title: 'Four corners',
    article: 'a review',
    about: 'sequential and random, reads and writes',
    seconds: 30,
    ramp_seconds: 5,
    queue_depths: [1, 32],
    columns: ['corner', 'qd', 'mb_s'],
    ...RECOVERY_INFO,
  },
];
export const SAMPLE_FIELDS = ['second', 'iops', 'mb_s', 'mean_latency_us'];
export const LAYOUT = { dies: 1, channels: 1, kinds: ['a', 'b', 'c', 'd', 'e', 'f'], valid_bins: 2, erase_bins: 2, row: 12 };

export const READY = {
  type: 'ready',
  presets: PRESETS,
  workloads: WORKLOADS,
  request_fields: { power_cuts_s: [], block_bytes: 4096, queue_depth: 32 },
  fields: SAMPLE_FIELDS,
  experiments: EXPERIMENTS,
};

export const cut = (at: number, lost: number) => ({
  at_s: at,
  acknowledged_writes_lost: lost,
  writes_at_risk: 2,
  flushed_units: 0,
  energy_needed_uj: 1,
  energy_stored_uj: 0,
  rebuild_ms: 3,
});

/** A store on fake workers: `runWorkers` (the app's first is the catalog's) and `expWorkers`. */
export function fakeStore(embedded = false) {
  const run = fakeWorkers();
  const exp = fakeWorkers();
  const clock = { t: 0 };
  const store = new PageStore({ embedded, now: () => clock.t, makeRunWorker: run.make, makeExperimentWorker: exp.make });
  return { store, runWorkers: run.workers, expWorkers: exp.workers, clock };
}

/** `n` seconds from `from` of a run, IOPS `iops(second)`, as the worker posts them. */
export function samples(w: FakeWorker, from: number, n: number, iops: (s: number) => number = () => 1000): void {
  const cols = SAMPLE_FIELDS.length;
  const data = new Float64Array(cols * n);
  for (let i = 0; i < n; i++) {
    data[i] = from + i;
    data[n + i] = iops(from + i);
    data[2 * n + i] = iops(from + i) * 0.004096;
    data[3 * n + i] = 1000;
  }
  w.say({
    type: 'samples',
    fields: SAMPLE_FIELDS,
    n,
    buffer: data.buffer,
    inside: new ArrayBuffer(n * 4 * LAYOUT.row),
    latency: new Float64Array([1e3, 2e3, n]).buffer,
  });
}

export const settings = (patch: Partial<RunSettings> = {}): RunSettings => ({ ...DEFAULTS, seconds: 100, ...patch });
