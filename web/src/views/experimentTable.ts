// An experiment's table as the view reads it: each run's entry, a column's cells, and the words
// for the engine's column names and corners.

import type { Cell, ExperimentTable } from '../engine/experimentProtocol';
import type { ExperimentEntry } from '../engine/experiments';

/** One run's experiment as the view shows it. */
export interface ExperimentRun {
  key: number;
  name: string;
  color: string;
  entry: ExperimentEntry | null;
}

export const CORNER_WORDS: Record<string, string> = {
  'sequential-read': '128 KB sequential read',
  'sequential-write': '128 KB sequential write',
  'random-read': '4 KB random read',
  'random-write': '4 KB random write',
  'mixed-70-30': '4 KB random 70/30',
};

/** Readable names of the engine's columns (a column not listed shows its own name). */
export const COLUMN_WORDS: Record<string, string> = {
  corner: 'Corner',
  queue_depth: 'Queue depth',
  iops: 'IOPS',
  mb_s: 'MB/s',
  latency_mean_us: 'Mean latency (µs)',
  latency_p99_us: '99th pct latency (µs)',
  latency_max_us: 'Max latency (µs)',
  read_percent: 'Reads (%)',
  second: 'Second',
  write_amplification: 'Write amplification',
  free_blocks: 'Free blocks',
  gc_moves: 'GC copies',
  span: 'Span',
  advertised_gb: 'Sold as (GB)',
  spare_percent: 'Spare (%)',
  steady_iops_mean: 'Steady IOPS, mean',
  steady_iops_min: 'Steady IOPS, lowest',
  steady_iops_max: 'Steady IOPS, highest',
  steady_spread: 'Steady spread',
  rated_pb: 'Rated (PB)',
  nand_limited_pb: 'NAND-limited (PB)',
  nand_over_rated: 'NAND / rated',
  drive_writes_per_day: 'Drive writes per day',
  gb_written: 'Written (GB)',
  slc_free_gb: 'SLC room (GB)',
  slc_data_gb: 'SLC to fold (GB)',
  fold_mb_s: 'Folded (MB/s)',
  rest_s: 'Rest (s)',
  write: 'Write',
  gb: 'GB',
  drive_writes: 'Drive writes',
  host: 'Host',
  layout: 'Layout',
  over_provisioning_percent: 'Over-provisioning (%)',
  seconds: 'Seconds',
  app_mb_s: 'App MB/s',
  host_write_amplification: 'Host WA',
  total_write_amplification: 'Total WA',
};

export const num = (v: Cell | undefined): number => (typeof v === 'number' ? v : NaN);

export function column(table: ExperimentTable, name: string): Cell[] {
  const i = table.columns.indexOf(name);
  return i < 0 ? [] : table.rows.map((r) => r[i]);
}
