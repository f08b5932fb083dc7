// Numbers for the chart's current window, the way the S3700 review reads its linear chart:
// lowest and highest second, their spread, and the mean.

import type { ColumnStore } from '../data/columns';
import type { Metric } from '../data/views';
import { formatInt, numberFormat } from '../format';

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
  /** How much of its last second the run covered, if it ended inside it (a replay's end), else NaN. */
  partial: number;
}

/**
 * Per-second amounts (IOPS, MB/s) over a window, by the engine's rule for a run's summary (its
 * `Summary`): the mean is the count over the time run, a last second the run covered in part
 * (`second_covered` < 1) counting by its share; the lowest and highest are of whole seconds (the
 * partial one's rate if no second is whole).
 */
export function windowStats(store: ColumnStore, field: string, from: number, to: number, rate = true): WindowStats {
  const out: WindowStats = { count: 0, min: Infinity, max: -Infinity, mean: NaN, zeros: 0, partial: NaN };
  if (!store.has('second') || !store.has(field)) return out;
  const xs = store.column('second');
  const ys = store.column(field);
  // A mean (latency) is not an amount per second: a partial second weighs as a whole one. Runs
  // kept from before the engine had the column covered every second whole.
  const covered = rate && store.has('second_covered') ? store.column('second_covered') : null;
  let sum = 0;
  let time = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const v = ys[i];
    if (x < from || x > to || Number.isNaN(v)) continue;
    const share = covered && covered[i] < 1 ? covered[i] : 1;
    out.count++;
    sum += v;
    time += share;
    if (share < 1) {
      out.partial = share;
      continue;
    }
    if (v < out.min) out.min = v;
    if (v > out.max) out.max = v;
    if (v === 0) out.zeros++;
  }
  if (time > 0) out.mean = sum / time;
  if (out.count > 0 && out.min === Infinity) out.min = out.max = out.mean;
  return out;
}

const nf3 = numberFormat({ maximumFractionDigits: 3 });

export function RunStats({ store, from, to, metric }: RunStatsProps) {
  const s = windowStats(store, metric.id, from, to, metric.rate);
  if (s.count === 0) return null;
  const spread = s.max > 0 ? ((s.max - s.min) / s.max) * 100 : NaN;
  const v = metric.value;
  // A latency is written with its own unit (µs, ms); IOPS and MB/s are named once.
  const unit = metric.rate ? ` ${metric.unit}` : '';
  return (
    <p className="run-stats" data-testid="run-stats">
      From {formatInt(from)} s: lowest <strong>{v(s.min)}</strong>, highest <strong>{v(s.max)}</strong>
      {unit}
      {Number.isFinite(spread) && <> (a difference of {spread.toFixed(0)}%)</>}, mean <strong>{v(s.mean)}</strong> over {formatInt(s.count)}{' '}
      s{s.zeros > 0 && <>; {formatInt(s.zeros)} s with no IO completed</>}
      {Number.isFinite(s.partial) && (
        <>
          ; the workload ended {nf3.format(s.partial)} s into its last second, which counts in the mean by that share, not in the lowest and
          highest
        </>
      )}
      .
    </p>
  );
}
