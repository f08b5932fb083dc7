// What a chart can show, as data: the views of a run (which seconds, how the y axis is scaled),
// the metrics the comparison chart plots and its layouts. Settings, links and scenarios name
// them; the charts draw them.

import { formatCount, formatInt, formatMicros, format1 } from '../format';

export type YKind = 'log' | 'linear';

/** One view of a run: which seconds, and how the y axis is scaled. Views are data. */
export interface ViewSpec {
  id: string;
  /** Short name for the view's button; `{from}` is replaced by the resolved start second. */
  label: string;
  /** First second shown. Clamped into the run (see resolveXDomain). */
  xFrom: number;
  /** For a student: which article figure this is and what to look for (the articles' test). */
  explain?: string;
  /** What to look for in any other run (another workload, or MB/s or latency plotted). */
  general?: string;
  y: {
    kind: YKind;
    /** fixed top of the axis; omitted = fit the data */
    max?: number;
    /** fit the data's 98th percentile, not its maximum (rare outliers drawn at the top edge) */
    robust?: boolean;
    /** smallest top of a log axis (default LOG_MIN_TOP, the articles' 100K IOPS) */
    minTop?: number;
  };
}

/**
 * The x domain of a view for a run of `runSeconds`. A view that starts at or after the end of
 * a short run starts at 70% of the run instead (1400 s is 70% of the articles' 2000 s runs).
 */
export function resolveXDomain(view: Pick<ViewSpec, 'xFrom'>, runSeconds: number): [number, number] {
  const end = Math.max(1, runSeconds);
  let from = Math.max(0, view.xFrom);
  if (from >= end) from = Math.floor(end * 0.7);
  return [from, end];
}

export function viewLabel(view: ViewSpec, runSeconds: number): string {
  const [from] = resolveXDomain(view, runSeconds);
  return view.label.replace('{from}', String(from));
}

/**
 * What the chart can plot: a sample column every run (and fio log) may have. `rate`: an amount
 * per second (a second the run covered in part counts by its share); else a mean (latency),
 * whose values carry their own unit.
 */
export const METRICS = [
  { id: 'iops', label: 'IOPS', unit: 'IOPS', format: formatCount, value: formatInt, minTop: undefined, rate: true },
  { id: 'mb_s', label: 'MB/s', unit: 'MB/s', format: formatCount, value: format1, minTop: 1000, rate: true },
  { id: 'mean_latency_us', label: 'Mean latency', unit: 'latency', format: formatMicros, value: formatMicros, minTop: 1000, rate: false },
] as const;
export type Metric = (typeof METRICS)[number];

export const LAYOUTS = [
  { id: 'overlay', label: 'On one chart' },
  { id: 'side', label: 'Side by side' },
] as const;
