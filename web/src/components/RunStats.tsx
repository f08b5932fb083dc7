// Numbers for the chart's current window, the way the S3700 review reads its linear chart:
// lowest and highest second, their spread, and the mean.

import type { ColumnStore } from '../data/columns';
import { numberFormat } from '../format';

export interface RunStatsProps {
  store: ColumnStore;
  /** Re-computed when this changes (the store itself is mutated in place). */
  version: number;
  from: number;
  to: number;
  field: string;
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

const nf = numberFormat({ maximumFractionDigits: 0 });

export function RunStats({ store, from, to, field }: RunStatsProps) {
  const s = windowStats(store, field, from, to);
  if (s.count === 0) return null;
  const spread = s.max > 0 ? ((s.max - s.min) / s.max) * 100 : NaN;
  return (
    <p className="run-stats" data-testid="run-stats">
      From {nf.format(from)} s: lowest <strong>{nf.format(s.min)}</strong>, highest <strong>{nf.format(s.max)}</strong> IOPS
      {Number.isFinite(spread) && <> (a difference of {spread.toFixed(0)}%)</>}, mean <strong>{nf.format(s.mean)}</strong> over{' '}
      {nf.format(s.count)} s{s.zeros > 0 && <>; {nf.format(s.zeros)} s with no IO completed</>}.
    </p>
  );
}
