// What a run can be taken away as: the samples as `ssdlab run --csv` writes them, the samples
// as fio logs, and the setup as a run request `ssdlab run --config FILE.json` accepts.

import type { ColumnStore } from '../data/columns';
import type { SimConfig } from '../engine/protocol';
import { rustNumber } from '../format';

/** The CLI's CSV: the engine's columns in its order, each number as Rust's `{}` writes it. */
export function samplesCsv(store: ColumnStore, sampleFields: readonly string[]): string {
  const cols = sampleFields.map((f) => store.column(f));
  const lines = [sampleFields.join(',')];
  for (let i = 0; i < store.length; i++) {
    lines.push(cols.map((c) => rustNumber(c[i])).join(','));
  }
  return `${lines.join('\n')}\n`;
}

export type FioLogType = 'iops' | 'lat' | 'bw';

/** What each fio log holds, in fio's units. */
const FIO_VALUE: Record<FioLogType, { field: string; value(v: number): number }> = {
  iops: { field: 'iops', value: (v) => Math.round(v) },
  lat: { field: 'mean_latency_us', value: (v) => Math.round(v * 1000) }, // ns
  bw: { field: 'mb_s', value: (v) => Math.round((v * 1e6) / 1024) }, // KiB/s
};

/**
 * One fio log (`write_iops_log`, `write_lat_log`, `write_bw_log` with log_avg_msec=1000): a line
 * per simulated second, `time_ms, value, ddir, bs, offset`, stamped at the second's end as fio
 * does. ddir is 1 (write) for workloads that write, else 0 (read); seconds with no IO are left out
 * of the latency log (fio logs no latency without IOs).
 */
export function fioLog(store: ColumnStore, type: FioLogType, writes: boolean, blockBytes: number): string {
  const spec = FIO_VALUE[type];
  if (!store.has(spec.field)) return '';
  const seconds = store.column('second');
  const values = store.column(spec.field);
  const iops = store.column('iops');
  const ddir = writes ? 1 : 0;
  const out: string[] = [];
  for (let i = 0; i < store.length; i++) {
    if (type === 'lat' && !(iops[i] > 0)) continue;
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    out.push(`${(seconds[i] + 1) * 1000}, ${spec.value(v)}, ${ddir}, ${blockBytes}, 0`);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/** The run request as a file for `ssdlab run --config FILE.json`. */
export function configJson(config: SimConfig): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * The CLI command that reproduces a run from its config file. The CLI's steady state starts at
 * 1400 s and must start inside the run, so a shorter run names where its steady state starts.
 */
export function cliCommand(fileName: string, seconds: number, steadyFrom: number): string {
  const steady = seconds > 1400 ? '' : ` --steady-from ${steadyFrom}`;
  return `ssdlab run --config ${fileName}${steady} --csv samples.csv --json`;
}
