// Numbers for the chart's current window, the way the S3700 review reads its linear chart:
// lowest and highest second, their spread, and the mean.

import type { ColumnStore } from '../data/columns';
import type { Metric } from '../data/views';
import { formatInt } from '../format';

export interface RunStatsProps {
  store: ColumnStore;
  /** Re-computed when this changes (the store itself is mutated in place). */
  version: number;
  from: number;
  to: number;
  /** What the chart plots: the numbers are of it, in its unit. */
  metric: Metric;
}

export interface WindowStats {
  count: number;
  min: number;
  max: number;
  mean: number;
  zeros: number;
}

export function windowStats(store: ColumnStore, field: string, from: number, to: number): WindowStats {
  const out: WindowStats = { count: 0, min: Infinity, max: -Infinity, mean: NaN, zeros: 0 };
  if (!store.has('second') || !store.has(field)) return out;
  const xs = store.column('second');
  const ys = store.column(field);
  let sum = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const v = ys[i];
    if (x < from || x > to || Number.isNaN(v)) continue;
    out.count++;
    sum += v;
    if (v < out.min) out.min = v;
    if (v > out.max) out.max = v;
    if (v === 0) out.zeros++;
  }
  if (out.count > 0) out.mean = sum / out.count;
  return out;
}

export function RunStats({ store, from, to, metric }: RunStatsProps) {
  const s = windowStats(store, metric.id, from, to);
  if (s.count === 0) return null;
  const spread = s.max > 0 ? ((s.max - s.min) / s.max) * 100 : NaN;
  const v = metric.value;
  // A latency is written with its own unit (µs, ms); IOPS and MB/s are named once.
  const unit = metric.id === 'mean_latency_us' ? '' : ` ${metric.unit}`;
  return (
    <p className="run-stats" data-testid="run-stats">
      From {formatInt(from)} s: lowest <strong>{v(s.min)}</strong>, highest <strong>{v(s.max)}</strong>
      {unit}
      {Number.isFinite(spread) && <> (a difference of {spread.toFixed(0)}%)</>}, mean <strong>{v(s.mean)}</strong> over {formatInt(s.count)}{' '}
      s{s.zeros > 0 && <>; {formatInt(s.zeros)} s with no IO completed</>}.
    </p>
  );
}
