// One or more per-second fields against time: dots and lines on a <canvas>, shaded states
// behind them, axes, gridlines, reference levels and event markers in SVG. React renders the
// frame; the canvas is redrawn on the next animation frame after new samples, straight from the
// store's columns, without React re-rendering.

import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ColumnStore } from './columns';
import { hoverSecond, rowOf, useHoverSecond } from './hover';
import { drawBands, drawLine, drawScatter, type ScatterCounts, type ScatterStyle } from './draw';
import type { BandSpec, RefLine, SeriesSpec } from './panels';
import {
  columnMax,
  columnQuantile,
  REF_LABEL_WIDTH,
  refLabelSlots,
  formatCount,
  logMinorTicks,
  makeYScale,
  resolveXDomain,
  resolveYDomain,
  xTicks,
  yTicks,
  type ViewSpec,
} from './scales';
import { scaleLinear } from 'd3';

/** A moment marked across the plot, e.g. a power cut. */
export interface TimeMarker {
  at: number;
  label: string;
}

export interface TimeChartProps {
  store: ColumnStore;
  /** The first series is the chart's main one: its counts and notes are reported. */
  series: readonly SeriesSpec[];
  bands?: readonly BandSpec[];
  refs?: readonly RefLine[];
  markers?: readonly TimeMarker[];
  view: ViewSpec;
  /** Length of the run in simulated seconds: the x axis ends there. */
  runSeconds: number;
  xLabel: string;
  yLabel: string;
  /** A small panel: no axis titles (its heading names it; the main chart names the time axis). */
  compact?: boolean;
  /** Accessible name of the chart. */
  label: string;
  height: number;
  testId?: string;
  /** Formats y tick labels (default 1, 10, 1K). */
  formatY?: (v: number) => string;
  /** Formats a value read under the pointer (default: the number, up to 2 decimals). */
  formatValue?: (v: number) => string;
  style?: Partial<ScatterStyle>;
  /** Shown over the plot while no second falls in the view. */
  emptyText?: string;
  /** Redraw at most this often while samples stream in (small panels need not keep up). */
  redrawMs?: number;
}

const X_FIELD = 'second';

const DEFAULT_STYLE: ScatterStyle = {
  dot: '#1f6fd1',
  zero: '#d1342f',
  above: '#b26b00',
  radius: 1.7,
};

const NO_COUNTS: ScatterCounts = { points: 0, zeros: 0, above: 0 };
const exact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });


export const TimeChart = memo(function TimeChart(props: TimeChartProps) {
  const { store, series, view, runSeconds, height } = props;
  const formatY = props.formatY ?? formatCount;
  const formatValue = props.formatValue ?? exact.format;
  const style = useMemo(() => ({ ...DEFAULT_STYLE, ...props.style }), [props.style]);
  const compact = props.compact ?? false;
  const redrawMs = props.redrawMs ?? 0;
  const margin = useMemo(() => ({ top: 12, right: 18, bottom: compact ? 24 : 46, left: 64 }), [compact]);

  const rootRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [dataMax, setDataMax] = useState(NaN);
  const [counts, setCounts] = useState<ScatterCounts>(NO_COUNTS);

  // Follow the container's width.
  useLayoutEffect(() => {
    const el = rootRef.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) setWidth(Math.floor(e.contentRect.width));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const plotW = Math.max(10, width - margin.left - margin.right);
  const plotH = Math.max(10, height - margin.top - margin.bottom);
  const xDomain = useMemo(() => resolveXDomain(view, runSeconds), [view, runSeconds]);
  const yDomain = useMemo(() => resolveYDomain(view.y, dataMax, plotH), [view.y, dataMax, plotH]);
  const x = useMemo(
    () => scaleLinear().domain(xDomain).range([margin.left, margin.left + plotW]),
    [xDomain, plotW, margin],
  );
  const y = useMemo(
    () => makeYScale(view.y.kind, yDomain, [margin.top + plotH, margin.top]),
    [view.y.kind, yDomain, plotH, margin],
  );

  // Draw now and after every store change (at most once per frame).
  useEffect(() => {
    const canvas = canvasRef.current;
    const root = rootRef.current;
    if (!canvas || !root || width === 0) return;
    let frame = 0;
    let drawnVersion = -1;
    const draw = () => {
      frame = 0;
      if (drawnVersion === store.version) return;
      drawnVersion = store.version;
      const dpr = window.devicePixelRatio || 1;
      const wantW = Math.round(width * dpr);
      const wantH = Math.round(height * dpr);
      if (canvas.width !== wantW || canvas.height !== wantH) {
        canvas.width = wantW;
        canvas.height = wantH;
      }
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, width, height);
      const n = store.length;
      let main: ScatterCounts = NO_COUNTS;
      let max = NaN;
      if (n > 0 && store.has(X_FIELD)) {
        const xs = store.column(X_FIELD);
        const bottom = margin.top + plotH;
        for (const b of props.bands ?? []) {
          if (store.has(b.field)) drawBands(ctx, xs, store.column(b.field), n, x, xDomain, b.value, margin.top, bottom, b.color);
        }
        // Keep a little room past the plot edges so floor/top markers are not cut in half.
        ctx.save();
        ctx.beginPath();
        ctx.rect(margin.left - 4, margin.top - 8, plotW + 8, plotH + 12);
        ctx.clip();
        series.forEach((s, k) => {
          if (!store.has(s.field)) return;
          const ys = store.column(s.field);
          const c =
            s.kind === 'line'
              ? drawLine(ctx, xs, ys, n, x, y, xDomain, yDomain, s.color)
              : drawScatter(ctx, xs, ys, n, x, y, view.y.kind, xDomain, yDomain, { ...style, dot: s.color });
          if (k === 0) main = c;
          const m = view.y.robust ? columnQuantile(ys, 0.98) : columnMax(ys);
          if (!(m <= max)) max = m;
        });
        ctx.restore();
      }
      // Re-render the axes only when the data needs a different y domain.
      if (resolveYDomain(view.y, max, plotH)[1] !== yDomain[1]) setDataMax(max);
      root.dataset.points = String(main.points);
      root.dataset.zeros = String(main.zeros);
      root.dataset.total = String(n);
      setCounts((old) =>
        old.points === main.points && old.zeros === main.zeros && old.above === main.above ? old : main,
      );
    };
    let timer = 0;
    let lastDraw = -Infinity;
    const drawInFrame = () => {
      timer = 0;
      frame = requestAnimationFrame(() => {
        lastDraw = performance.now();
        draw();
      });
    };
    const request = () => {
      if (frame || timer) return;
      const wait = lastDraw + redrawMs - performance.now();
      if (wait > 0) timer = window.setTimeout(drawInFrame, wait);
      else drawInFrame();
    };
    request();
    const unsubscribe = store.subscribe(request);
    return () => {
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
      if (timer) clearTimeout(timer);
    };
  }, [store, series, props.bands, view.y, x, y, xDomain, yDomain, width, height, plotW, plotH, style, margin, redrawMs]);

  const yt = yTicks(view.y.kind, yDomain, plotH);
  // A short log axis over many decades labels every other one.
  const labelEvery = plotH / yt.length < 20 ? 2 : 1;
  const yMinor = view.y.kind === 'log' ? logMinorTicks(yDomain) : [];
  const xt = xTicks(xDomain, plotW);
  const bottom = margin.top + plotH;
  const right = margin.left + plotW;
  const refs = (props.refs ?? []).filter((r) => r.value >= yDomain[0] && r.value <= yDomain[1]);
  const markers = (props.markers ?? []).filter((m) => m.at >= xDomain[0] && m.at <= xDomain[1]);

  // Every chart follows the second under the pointer in any of them.
  const hovered = useHoverSecond();
  const hoverRow = hovered !== null && hovered >= xDomain[0] && hovered <= xDomain[1] ? rowOf(store, hovered) : -1;
  const onPointer = (e: React.PointerEvent<HTMLDivElement>) => {
    const px = e.clientX - e.currentTarget.getBoundingClientRect().left;
    const inside = px >= margin.left && px <= right && store.length > 0;
    hoverSecond.set(inside ? Math.round(x.invert(px)) : null);
  };

  return (
    <figure className="chart" aria-label={props.label}>
      <div
        ref={rootRef}
        className="chart-area"
        style={{ height }}
        data-testid={props.testId}
        data-view={view.id}
        data-markers={markers.length}
        role="img"
        aria-label={`${props.label}: ${counts.points} seconds plotted`}
        onPointerMove={onPointer}
        onPointerLeave={() => hoverSecond.set(null)}
      >
        {width > 0 && (
          <svg className="chart-axes" width={width} height={height} aria-hidden="true">
            <g className="grid minor">
              {yMinor.map((v) => (
                <line key={`m${v}`} x1={margin.left} x2={right} y1={y(v)} y2={y(v)} />
              ))}
            </g>
            <g className="grid">
              {yt.map((v) => (
                <line key={`y${v}`} x1={margin.left} x2={right} y1={y(v)} y2={y(v)} />
              ))}
              {xt.map((v) => (
                <line key={`x${v}`} x1={x(v)} x2={x(v)} y1={margin.top} y2={bottom} />
              ))}
            </g>
            <rect className="frame" x={margin.left} y={margin.top} width={plotW} height={plotH} />
            <g className="ticks y">
              {yt.map((v, i) =>
                i % labelEvery === 0 ? (
                  <text key={v} x={margin.left - 8} y={y(v)} dy="0.32em" textAnchor="end">
                    {formatY(v)}
                  </text>
                ) : null,
              )}
            </g>
            <g className="ticks x">
              {xt.map((v) => (
                <text key={v} x={x(v)} y={bottom + 18} textAnchor="middle">
                  {v}
                </text>
              ))}
            </g>
            {!compact && (
              <>
                <text className="axis-title" x={margin.left + plotW / 2} y={height - 6} textAnchor="middle">
                  {props.xLabel}
                </text>
                <text
                  className="axis-title"
                  transform={`translate(16 ${margin.top + plotH / 2}) rotate(-90)`}
                  textAnchor="middle"
                >
                  {props.yLabel}
                </text>
              </>
            )}
          </svg>
        )}
        <canvas ref={canvasRef} className="chart-dots" style={{ width, height }} />
        {width > 0 && (
          // Above the canvas, so levels and events stay readable over dense dots.
          <svg className="chart-overlay" width={width} height={height} aria-hidden="true">
            {refLabelSlots(refs.map((r) => y(r.value))).map((slot, i) => {
              const r = refs[i];
              const py = y(r.value);
              return (
                <g key={`r${r.label}`} className="ref">
                  <line x1={margin.left} x2={right} y1={py} y2={py} />
                  <text x={right - 4 - slot * REF_LABEL_WIDTH} y={py - 3} textAnchor="end">
                    {r.label} ({formatY(r.value)})
                  </text>
                </g>
              );
            })}
            {markers.map((m, i) => {
              // Near the right edge the label goes on the line's left, so it is not cut off.
              const left = x(m.at) > margin.left + plotW * 0.7;
              return (
                <g key={`k${i}`} className="marker">
                  <line x1={x(m.at)} x2={x(m.at)} y1={margin.top} y2={bottom} />
                  <text x={x(m.at) + (left ? -3 : 3)} y={margin.top + 11} textAnchor={left ? 'end' : 'start'}>
                    {m.label}
                  </text>
                </g>
              );
            })}
            {hoverRow >= 0 && (
              <line className="hover" x1={x(hovered!)} x2={x(hovered!)} y1={margin.top} y2={bottom} />
            )}
          </svg>
        )}
        {hoverRow >= 0 && (
          <div
            className="hover-box"
            style={
              x(hovered!) > margin.left + plotW / 2
                ? { right: width - x(hovered!) + 8, top: margin.top + 18 }
                : { left: x(hovered!) + 8, top: margin.top + 18 }
            }
          >
            <strong>{hovered} s</strong>
            {series.map((s) =>
              store.has(s.field) ? (
                <span key={s.field}>
                  {`${s.label}: `}
                  {formatValue(store.column(s.field)[hoverRow])}
                </span>
              ) : null,
            )}
          </div>
        )}
        {counts.points === 0 && props.emptyText && width > 0 && (
          <div
            className="chart-empty"
            style={{ left: margin.left, top: margin.top, width: plotW, height: plotH }}
          >
            <span>{props.emptyText}</span>
          </div>
        )}
      </div>
      {(counts.zeros > 0 || counts.above > 0) && (
        <figcaption className="chart-notes">
          {counts.zeros > 0 && (
            <span className="note zero">
              <span className="swatch" aria-hidden="true">▼</span>
              {counts.zeros} {counts.zeros === 1 ? 'second' : 'seconds'} with 0 {props.yLabel}, drawn at the axis floor
            </span>
          )}
          {counts.above > 0 && (
            <span className="note above">
              <span className="swatch" aria-hidden="true">▲</span>
              {counts.above} {counts.above === 1 ? 'second' : 'seconds'} above {formatY(yDomain[1])}, drawn at the
              top edge
            </span>
          )}
        </figcaption>
      )}
    </figure>
  );
});
