// The marks of an experiment's charts (XYChart.tsx) in SVG, with their scales and ticks: lines
// against queue depth or spare area (log2 or linear x, linear or log y, optional min-max bars and
// a note over each point), and grouped bars.

import { placeGuideNotes } from './guideNotes';
import type { ReactNode } from 'react';
import { scaleBand, scaleLinear, scaleLog } from 'd3';

export interface XYPoint {
  x: number;
  y: number;
  /** A range drawn as a bar through the point (e.g. the lowest and highest second). */
  lo?: number;
  hi?: number;
  /** A short label over the point (e.g. the capacity it would be sold as). */
  note?: string;
}

export interface XYSeries {
  key: string;
  label: string;
  color: string;
  /** SVG stroke-dasharray, to tell runs apart when colours tell corners apart. */
  dash?: string;
  /** Dots at the points (default); false for a dense line (a row per second), drawn as a path only. */
  dots?: boolean;
  points: readonly XYPoint[];
}

export interface BarGroup {
  /** Lines separated by \n. */
  label: string;
  /** Used when the label does not fit under its bars. */
  short?: string;
  bars: readonly { key: string; label: string; color: string; value: number }[];
}

/** A published figure on a line chart: a hollow diamond at (x, y), its words in `label`. */
export interface XYFigure {
  x: number;
  y: number;
  color: string;
  label: string;
  /** The verdict of the point it is compared with (null before that point is measured). */
  holds: boolean | null;
}

/**
 * A line over the plot with its words: horizontal from x0 to x1 at y0 (= y1), or vertical at x0
 * (= x1) from y0 to y1. Infinite ends reach the plot's edge. A published level over a range of
 * the x axis, or where something happened (the cache filled at 113 GB).
 */
export interface XYGuide {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  color: string;
  /** Written beside the line. */
  text: string;
  /** The whole sentence (its tooltip). */
  label: string;
  dash?: string;
  /** A published figure's verdict on this run (null: none yet); absent for the run's own marks. */
  holds?: boolean | null;
}

/** What a line chart draws. */
export interface LineData {
  xLabel: string;
  x: 'log2' | 'linear';
  y: 'linear' | 'log';
  series: readonly XYSeries[];
  yLabel: string;
  formatX?: (v: number) => string;
  formatValue?: (v: number) => string;
  /** Published figures beside the lines (markers; the axes reach them). */
  figures?: readonly XYFigure[];
  /** Lines across the plot (the axes reach their finite ends). */
  guides?: readonly XYGuide[];
}

/** What a bar chart draws. */
export interface BarData {
  xLabel?: string;
  groups: readonly BarGroup[];
  yLabel: string;
  formatValue?: (v: number) => string;
}

/** The plot's marks, or none (`empty`) when there is nothing to draw. */
export interface Marks {
  marks: ReactNode;
  empty: boolean;
}

/** Ticks of a log axis: every power of ten, with 2 and 5 between when there are few. */
function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  const decades = Math.log10(hi / lo);
  const steps = decades < 1.5 ? [1, 2, 5] : decades < 3 ? [1, 3] : [1];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of steps) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

/** The smallest and largest of the values added. */
class Extent {
  lo = Infinity;
  hi = -Infinity;
  add(v: number): void {
    if (v < this.lo) this.lo = v;
    if (v > this.hi) this.hi = v;
  }
  empty(): boolean {
    return this.lo > this.hi;
  }
}

/** The y domain of a log axis around the (positive) values: whole ticks just outside them. */
function logDomain(values: Extent): [number, number] {
  if (values.empty()) return [1, 10];
  const lo = 10 ** Math.floor(Math.log10(values.lo));
  let hi = 10 ** Math.ceil(Math.log10(values.hi));
  if (hi <= lo) hi = lo * 10;
  return [lo, hi];
}

/** A dense line's points (sorted by x) as the chart can show them: in each pixel column, the
 * first, lowest, highest and last point, in x order. A fill's row per second is tens of
 * thousands of points; the drawn line is the same at the screen's resolution, and redrawing
 * it as rows stream in stays proportional to the chart's width, not to the rows. */
export function perPixelColumn(points: readonly XYPoint[], x: (v: number) => number): readonly XYPoint[] {
  if (points.length <= 4) return points;
  const out: XYPoint[] = [];
  let i = 0;
  while (i < points.length) {
    const column = Math.round(x(points[i].x));
    let j = i;
    let lo = i;
    let hi = i;
    while (j + 1 < points.length && Math.round(x(points[j + 1].x)) === column) {
      j++;
      if (points[j].y < points[lo].y) lo = j;
      if (points[j].y > points[hi].y) hi = j;
    }
    for (const k of [...new Set([i, lo, hi, j])].sort((a, b) => a - b)) out.push(points[k]);
    i = j + 1;
  }
  return out;
}

export function lineMarks(p: LineData, w: number, h: number, formatY: (v: number) => string): Marks {
  const drawable = (q: { x: number; y: number }) => Number.isFinite(q.x) && Number.isFinite(q.y) && (p.y !== 'log' || q.y > 0);
  const figures = (p.figures ?? []).filter(drawable);
  const guides = (p.guides ?? []).filter((g) => [g.x0, g.x1, g.y0, g.y1].every((v) => !Number.isNaN(v)));
  // The axes reach every point, figure and guide's finite end. One pass without copies: a fill's
  // lines are tens of thousands of points, redrawn as its rows stream in.
  const xs = new Extent();
  const ys = new Extent();
  // A log2 axis has a tick at each x (a handful of queue depths); a linear one needs only the ends.
  const xValues = p.x === 'log2' ? new Set<number>() : null;
  const reach = (q: { x: number; y: number; lo?: number; hi?: number }) => {
    xs.add(q.x);
    xValues?.add(q.x);
    for (const v of [q.y, q.lo ?? q.y, q.hi ?? q.y]) if (Number.isFinite(v) && (p.y !== 'log' || v > 0)) ys.add(v);
  };
  for (const s of p.series) for (const q of s.points) if (drawable(q)) reach(q);
  if (xs.empty()) return { marks: null, empty: true };
  for (const f of figures) reach(f);
  for (const g of guides)
    for (const q of [
      { x: g.x0, y: g.y0 },
      { x: g.x1, y: g.y1 },
    ])
      if (drawable(q)) reach(q);
  const formatX = p.formatX ?? ((v: number) => String(v));
  const formatValue = p.formatValue ?? formatY;
  let x: (v: number) => number;
  let xTicks: number[];
  if (xValues) {
    const s = scaleLog()
      .base(2)
      .domain([xs.lo / 1.4, xs.hi * 1.4])
      .range([0, w]);
    x = (v) => s(v);
    xTicks = [...xValues].sort((a, b) => a - b);
  } else {
    const span = xs.hi - xs.lo || Math.abs(xs.lo) || 1;
    // Room either side of the points, but an axis of amounts (GB written) starts at 0, not below.
    const lo = xs.lo >= 0 ? Math.max(0, xs.lo - span * 0.12) : xs.lo - span * 0.12;
    const s = scaleLinear()
      .domain([lo, xs.hi + span * 0.12])
      .range([0, w]);
    x = (v) => s(v);
    xTicks = s.ticks(Math.max(2, Math.min(8, Math.floor(w / 70))));
  }
  let y: (v: number) => number;
  let yTicks: number[];
  if (p.y === 'log') {
    const [lo, hi] = logDomain(ys);
    const s = scaleLog().domain([lo, hi]).range([h, 0]);
    y = (v) => s(v);
    yTicks = logTicks(lo, hi);
  } else {
    const s = scaleLinear()
      .domain([0, (ys.empty() ? 0 : ys.hi) * 1.12 || 1])
      .nice(5)
      .range([h, 0]);
    y = (v) => s(v);
    yTicks = s.ticks(5);
  }
  const sx = (v: number) => (v === -Infinity ? 0 : v === Infinity ? w : Math.min(w, Math.max(0, x(v))));
  const sy = (v: number) => (v === -Infinity ? h : v === Infinity ? 0 : y(v));
  const segments = guides.map((g) => ({ x0: sx(g.x0), x1: sx(g.x1), y0: sy(g.y0), y1: sy(g.y1), vertical: g.x0 === g.x1, text: g.text }));
  const notes = placeGuideNotes(segments, w);
  // Fewer x labels on a narrow chart: every other one when they would touch.
  const every = xTicks.length * 34 > w ? 2 : 1;
  const marks = (
    <>
      <g className="grid">
        {yTicks.map((t) => (
          <line key={`y${t}`} x1={0} x2={w} y1={y(t)} y2={y(t)} />
        ))}
        {xTicks.map((t) => (
          <line key={`x${t}`} x1={x(t)} x2={x(t)} y1={0} y2={h} />
        ))}
      </g>
      <g className="ticks y">
        {yTicks.map((t) => (
          <text key={t} x={-8} y={y(t)} dy="0.32em" textAnchor="end">
            {formatY(t)}
          </text>
        ))}
      </g>
      <g className="ticks x">
        {xTicks.map((t, i) =>
          i % every === 0 || i === xTicks.length - 1 ? (
            <text key={t} x={x(t)} y={h + 18} textAnchor="middle">
              {formatX(t)}
            </text>
          ) : null,
        )}
      </g>
      {p.series.map((s, si) => {
        const ok = s.points.filter((q) => Number.isFinite(q.y) && (p.y !== 'log' || q.y > 0));
        if (!ok.every((q, i) => i === 0 || ok[i - 1].x <= q.x)) ok.sort((a, b) => a.x - b.x);
        const line = s.dots === false ? perPixelColumn(ok, x) : ok;
        const d = line.map((q, i) => `${i === 0 ? 'M' : 'L'}${x(q.x).toFixed(1)},${y(q.y).toFixed(1)}`).join('');
        return (
          <g key={s.key} className="series" data-series={s.key}>
            {ok.length > 1 && <path d={d} fill="none" stroke={s.color} strokeWidth={2.2} strokeDasharray={s.dash} />}
            {(s.dots ?? true) &&
              ok.map((q) => (
                <g key={q.x}>
                  {q.lo !== undefined && q.hi !== undefined && (
                    <path
                      d={`M${x(q.x)},${y(q.lo)}V${y(q.hi)}M${x(q.x) - 4},${y(q.lo)}h8M${x(q.x) - 4},${y(q.hi)}h8`}
                      stroke={s.color}
                      strokeWidth={1.4}
                      fill="none"
                    />
                  )}
                  <circle cx={x(q.x)} cy={y(q.y)} r={3.6} fill={s.color} stroke="var(--panel)" strokeWidth={1}>
                    <title>{`${s.label}, ${p.xLabel} ${formatX(q.x)}: ${formatValue(q.y)} ${p.yLabel}`}</title>
                  </circle>
                  {q.note && (
                    <text className="point-note" x={x(q.x)} y={si % 2 === 0 ? y(q.hi ?? q.y) - 9 : y(q.lo ?? q.y) + 17} textAnchor="middle">
                      {q.note}
                    </text>
                  )}
                </g>
              ))}
          </g>
        );
      })}
      {guides.length > 0 && (
        <g className="guides" data-testid="xy-guides">
          {guides.map((g, i) => {
            const seg = segments[i];
            const note = notes[i];
            return (
              <g key={i} className="xy-guide" data-holds={g.holds === null || g.holds === undefined ? undefined : String(g.holds)}>
                <title>{g.label}</title>
                <line
                  x1={seg.x0}
                  x2={seg.x1}
                  y1={seg.y0}
                  y2={seg.y1}
                  stroke={g.color}
                  strokeWidth={seg.vertical ? 1.6 : 2}
                  strokeDasharray={g.dash}
                />
                <text className="guide-note" x={note.x} y={note.y} textAnchor={note.anchor}>
                  {g.text}
                </text>
              </g>
            );
          })}
        </g>
      )}
      {figures.length > 0 && (
        <g className="figures" data-testid="xy-figures">
          {figures.map((f, i) => {
            const [cx, cy] = [x(f.x), y(f.y)];
            return (
              <path
                key={i}
                className="xy-figure"
                d={`M${cx},${cy - 7}L${cx + 7},${cy}L${cx},${cy + 7}L${cx - 7},${cy}Z`}
                fill="none"
                stroke={f.color}
                strokeWidth={2}
                data-holds={f.holds === null ? undefined : String(f.holds)}
              >
                <title>{f.label}</title>
              </path>
            );
          })}
        </g>
      )}
    </>
  );
  return { marks, empty: false };
}

export function barMarks(p: BarData, w: number, h: number, formatY: (v: number) => string): Marks {
  const values = p.groups.flatMap((g) => g.bars.map((b) => b.value)).filter(Number.isFinite);
  if (values.length === 0) return { marks: null, empty: true };
  const formatValue = p.formatValue ?? formatY;
  const outer = scaleBand()
    .domain(p.groups.map((g) => g.label))
    .range([0, w])
    .paddingInner(0.25)
    .paddingOuter(0.12);
  const keys = p.groups[0].bars.map((b) => b.key);
  const inner = scaleBand().domain(keys).range([0, outer.bandwidth()]).padding(0.08);
  const y = scaleLinear()
    .domain([0, Math.max(...values) * 1.15 || 1])
    .nice(5)
    .range([h, 0]);
  const ticks = y.ticks(5);
  const labelFits = inner.bandwidth() >= 34;
  // About 7 px a character at the tick size: the long labels when every line fits its band.
  const fits = p.groups.every((g) => Math.max(...g.label.split('\n').map((l) => l.length)) * 7 <= outer.step());
  const marks = (
    <>
      <g className="grid">
        {ticks.map((t) => (
          <line key={t} x1={0} x2={w} y1={y(t)} y2={y(t)} />
        ))}
      </g>
      <g className="ticks y">
        {ticks.map((t) => (
          <text key={t} x={-8} y={y(t)} dy="0.32em" textAnchor="end">
            {formatY(t)}
          </text>
        ))}
      </g>
      <g className="ticks x">
        {p.groups.map((g) => (
          <text key={g.label} x={(outer(g.label) ?? 0) + outer.bandwidth() / 2} y={h + 18} textAnchor="middle">
            {(fits ? g.label : (g.short ?? g.label)).split('\n').map((line, i) => (
              <tspan key={i} x={(outer(g.label) ?? 0) + outer.bandwidth() / 2} dy={i === 0 ? 0 : 14}>
                {line}
              </tspan>
            ))}
          </text>
        ))}
      </g>
      {p.groups.map((g) => (
        <g key={g.label} transform={`translate(${outer(g.label) ?? 0} 0)`}>
          {g.bars.map((b) =>
            Number.isFinite(b.value) ? (
              <g key={b.key}>
                <rect x={inner(b.key) ?? 0} y={y(b.value)} width={inner.bandwidth()} height={h - y(b.value)} fill={b.color}>
                  <title>{`${g.label}, ${b.label}: ${formatValue(b.value)} ${p.yLabel}`}</title>
                </rect>
                {labelFits && (
                  <text className="point-note" x={(inner(b.key) ?? 0) + inner.bandwidth() / 2} y={y(b.value) - 5} textAnchor="middle">
                    {formatValue(b.value)}
                  </text>
                )}
              </g>
            ) : null,
          )}
        </g>
      ))}
    </>
  );
  return { marks, empty: false };
}
