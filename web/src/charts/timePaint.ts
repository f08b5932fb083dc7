// What a time chart paints on its canvas (or on an SvgRecorder for a saved picture): the shaded
// states behind, then each series' dots or line, clipped to the plot.

import { colorOf } from '../theme';
import { rowsWithin, type ColumnStore } from '../data/columns';
import type { ViewSpec } from '../data/views';
import type { BandSpec, SeriesSpec } from '../data/panels';
import { drawBands, drawLine, drawScatter, type Scale, type ScatterCounts, type ScatterStyle } from './draw';
import { columnMax, columnQuantile } from './scales';

/** Every series' x column. */
export const X_FIELD = 'second';

export const NO_COUNTS: ScatterCounts = { points: 0, zeros: 0, above: 0 };

/** A series, from the chart's store unless it names its own (another run's). */
export interface ChartSeries extends SeriesSpec {
  store?: ColumnStore;
  /** Unique among the chart's series when two runs draw the same field. */
  key?: string;
}

export interface TimePaint {
  /** The store of the run the chart is about: its bands, and the series without their own. */
  store: ColumnStore;
  series: readonly ChartSeries[];
  /** The series whose counts are reported. */
  mainIndex: number;
  bands: readonly BandSpec[] | undefined;
  viewY: ViewSpec['y'];
  x: Scale;
  y: Scale;
  xDomain: [number, number];
  yDomain: [number, number];
  /** The plot's box in px. */
  plot: { left: number; top: number; width: number; height: number };
  style: ScatterStyle;
}

/** Paints bands, dots and lines onto a context; returns the main series' counts and the data top. */
export function paintTime(ctx: CanvasRenderingContext2D, p: TimePaint): { main: ScatterCounts; max: number; drawn: number } {
  const { store, x, y, xDomain, yDomain, style } = p;
  let main: ScatterCounts = NO_COUNTS;
  let max = NaN;
  let drawn = 0;
  const bottom = p.plot.top + p.plot.height;
  if (store.length > 0 && store.has(X_FIELD)) {
    const xs = store.column(X_FIELD);
    for (const b of p.bands ?? []) {
      if (store.has(b.field)) {
        drawBands(ctx, xs, store.column(b.field), store.length, x, xDomain, b.value, p.plot.top, bottom, colorOf(b.color));
      }
    }
  }
  // Keep a little room past the plot edges so floor/top markers are not cut in half.
  ctx.save();
  ctx.beginPath();
  ctx.rect(p.plot.left - 4, p.plot.top - 8, p.plot.width + 8, p.plot.height + 12);
  ctx.clip();
  p.series.forEach((s, k) => {
    const st = s.store ?? store;
    if (st.length === 0 || !st.has(X_FIELD) || !st.has(s.field)) return;
    const xs = st.column(X_FIELD);
    const ys = st.column(s.field);
    const color = colorOf(s.color);
    const c =
      s.kind === 'line'
        ? drawLine(ctx, xs, ys, st.length, x, y, xDomain, yDomain, color)
        : drawScatter(ctx, xs, ys, st.length, x, y, p.viewY.kind, xDomain, yDomain, {
            ...style,
            dot: color,
            zero: colorOf(style.zero),
            above: colorOf(style.above),
          });
    if (k === p.mainIndex) main = c;
    if (c.points > 0) drawn++;
    // The axis fits the seconds in view (a fresh drive's peak must not squash the steady state).
    const [lo, hi] = rowsWithin(xs, xDomain[0], xDomain[1]);
    const inView = ys.subarray(lo, hi);
    const m = p.viewY.robust ? columnQuantile(inView, 0.98) : columnMax(inView);
    if (!(m <= max)) max = m;
  });
  ctx.restore();
  return { main, max, drawn };
}
