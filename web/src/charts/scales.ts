// Scales, ticks and clamping for the IOPS-vs-time scatter. D3 does the maths; React and the
// canvas only draw what comes out of here.

import { scaleLinear, scaleLog, type ScaleContinuousNumeric } from 'd3';

import type { ViewSpec, YKind } from '../data/views';

export { formatCount } from '../format';

/** Bottom of every log axis: 1 IOPS. Seconds with 0 IOPS are drawn here with their own marker. */
export const LOG_FLOOR = 1;
/** Smallest top of a log IOPS axis (the articles' charts go to 100K). */
export const LOG_MIN_TOP = 100_000;

/** Top of a log axis: the power of ten at or above the data, never below LOG_MIN_TOP. */
export function logTop(dataMax: number, minTop = LOG_MIN_TOP): number {
  if (!(dataMax > minTop)) return minTop;
  return 10 ** Math.ceil(Math.log10(dataMax) - 1e-12);
}

/** About one linear tick per 40 px of axis height, 2 to 8 of them. */
export function linearTickCount(heightPx: number): number {
  return Math.max(2, Math.min(8, Math.floor(heightPx / 40)));
}

/** The y domain for a view given the largest value in the data (and the axis height in px). */
export function resolveYDomain(y: ViewSpec['y'], dataMax: number, heightPx = 320): [number, number] {
  if (y.kind === 'log') return [LOG_FLOOR, y.max ?? logTop(dataMax, y.minTop)];
  if (y.max !== undefined) return [0, y.max];
  return [0, niceLinearTop(dataMax, linearTickCount(heightPx))];
}

/** A round top for a linear axis fitted to the data (at least 1), landing on a tick. */
export function niceLinearTop(dataMax: number, tickCount = 8): number {
  if (!(dataMax > 0)) return 1;
  const [, top] = scaleLinear()
    .domain([0, dataMax * 1.05])
    .nice(tickCount)
    .domain();
  return top;
}

export function makeYScale(kind: YKind, domain: [number, number], range: [number, number]): ScaleContinuousNumeric<number, number> {
  return kind === 'log' ? scaleLog().domain(domain).range(range).clamp(true) : scaleLinear().domain(domain).range(range).clamp(true);
}

/** Powers of ten from the floor to the top: 1, 10, 100, ... */
export function logTicks(domain: [number, number]): number[] {
  const out: number[] = [];
  const lo = Math.ceil(Math.log10(domain[0]) - 1e-9);
  const hi = Math.floor(Math.log10(domain[1]) + 1e-9);
  for (let e = lo; e <= hi; e++) out.push(10 ** e);
  return out;
}

/** 2..9 x each power of ten inside the domain: light gridlines between the decades. */
export function logMinorTicks(domain: [number, number]): number[] {
  const out: number[] = [];
  for (const p of logTicks([domain[0], domain[1] / 10])) {
    for (let k = 2; k <= 9; k++) {
      const v = k * p;
      if (v > domain[0] && v < domain[1]) out.push(v);
    }
  }
  return out;
}

/** Ticks for a y axis; linear axes get about one tick per 40 px of height (8 for 320 px+). */
export function yTicks(kind: YKind, domain: [number, number], heightPx = 320): number[] {
  if (kind === 'log') return logTicks(domain);
  return scaleLinear().domain(domain).ticks(linearTickCount(heightPx));
}

export function xTicks(domain: [number, number], widthPx: number): number[] {
  const count = Math.max(2, Math.min(12, Math.floor(widthPx / 80)));
  return scaleLinear().domain(domain).ticks(count);
}

/** How a value is drawn on an axis. */
export const Mark = {
  /** Skipped (NaN, or outside the x range). */
  None: 0,
  /** A plain dot at the value. */
  Dot: 1,
  /** A 0 on a log axis: drawn at the floor with the "zero" marker. */
  ZeroAtFloor: 2,
  /** Above a fixed top: drawn at the top edge with the "clipped" marker. */
  AboveTop: 3,
} as const;
export type Mark = (typeof Mark)[keyof typeof Mark];

/**
 * Classifies a y value for an axis and returns the value to plot in `out[0]`.
 * Log axes: v <= 0 -> ZeroAtFloor at the floor; 0 < v < floor -> a Dot at the floor.
 * Any axis: v > top -> AboveTop at the top.
 */
export function classifyY(v: number, kind: YKind, domain: [number, number], out: [number]): Mark {
  if (Number.isNaN(v)) return Mark.None;
  const [lo, hi] = domain;
  if (v > hi) {
    out[0] = hi;
    return Mark.AboveTop;
  }
  if (kind === 'log') {
    if (v <= 0) {
      out[0] = lo;
      return Mark.ZeroAtFloor;
    }
    out[0] = v < lo ? lo : v;
    return Mark.Dot;
  }
  out[0] = v < lo ? lo : v;
  return Mark.Dot;
}

/** The value below which `q` of a column's non-NaN values lie (NaN when there are none). */
export function columnQuantile(col: Float64Array, q: number): number {
  const values = col.filter((v) => !Number.isNaN(v)).sort();
  if (values.length === 0) return NaN;
  return values[Math.min(values.length - 1, Math.floor(q * values.length))];
}

/** Largest finite value of a column (NaN when there is none). */
export function columnMax(col: Float64Array, from = 0, to = col.length): number {
  let m = -Infinity;
  for (let i = from; i < to; i++) {
    const v = col[i];
    if (v > m) m = v;
  }
  return m === -Infinity ? NaN : m;
}

/** Room for one reference label; a label too close to another moves one slot to the left. */
export const REF_LABEL_WIDTH = 150;
const REF_LABEL_HEIGHT = 12;

/** For labels at pixel heights `ys`, the slot (0 = at the right edge, 1, 2 ... leftwards) of each. */
export function refLabelSlots(ys: readonly number[]): number[] {
  const slots = new Array<number>(ys.length).fill(0);
  const order = ys.map((_, i) => i).sort((a, b) => ys[a] - ys[b]);
  order.forEach((i, k) => {
    const near = order.slice(0, k).filter((j) => Math.abs(ys[j] - ys[i]) < REF_LABEL_HEIGHT);
    while (near.some((j) => slots[j] === slots[i])) slots[i]++;
  });
  return slots;
}
