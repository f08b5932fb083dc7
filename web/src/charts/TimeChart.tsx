// One or more per-second fields against time: dots and lines on a <canvas>, shaded states
// behind them, axes, gridlines, reference levels and event markers in SVG. React renders the
// frame; the canvas is redrawn on the next animation frame after new samples, straight from the
// stores' columns, without React re-rendering. Series may come from different runs' stores
// (a comparison overlays them). The chart takes keyboard focus: arrow keys move between
// seconds, the values are read out, and Enter (or a click) picks the second.

import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { drawInFrame } from './drawQueue';
import { scaleLinear } from 'd3';
import { colorOf, useTheme } from '../theme';
import { rowOf, rowsWithin, type ColumnStore } from '../data/columns';
import { resolveXDomain, type ViewSpec } from '../data/views';
import { chartSvg, download, fileSlug, svgToPng } from './export';
import { useWidth } from '../hooks/useVersion';
import { hoverSecond, useHoverSecond } from './hover';
import { drawBands, drawLine, drawScatter, type ScatterCounts, type ScatterStyle } from './draw';
import type { BandSpec, RefLine, SeriesSpec } from '../data/panels';
import {
  columnMax,
  columnQuantile,
  REF_LABEL_WIDTH,
  refLabelSlots,
  formatCount,
  logMinorTicks,
  makeYScale,
  resolveYDomain,
  xTicks,
  yTicks,
} from './scales';
import { SvgRecorder, asContext } from './svgContext';
import { numberFormat } from '../format';

/** A moment marked across the plot, e.g. a power cut. */
export interface TimeMarker {
  at: number;
  label: string;
}

/** A series, from the chart's store unless it names its own (another run's). */
export interface ChartSeries extends SeriesSpec {
  store?: ColumnStore;
  /** Unique among the chart's series when two runs draw the same field. */
  key?: string;
}

export interface TimeChartProps {
  /** The store of the run the chart is about (bands, hover and picking read it). */
  store: ColumnStore;
  /** The first series is the chart's main one: its counts and notes are reported. */
  series: readonly ChartSeries[];
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
  /** Accessible name of the chart, and the title of a saved picture. */
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
  /** Called with a second the user clicked or chose with Enter. */
  onPick?: (second: number) => void;
  /** The second being explained, marked on the plot. */
  picked?: number | null;
}

const X_FIELD = 'second';

const DEFAULT_STYLE: ScatterStyle = {
  dot: 'var(--series-1)',
  zero: 'var(--mark-zero)',
  above: 'var(--mark-above)',
  radius: 1.7,
};

const NO_COUNTS: ScatterCounts = { points: 0, zeros: 0, above: 0 };
const exact = numberFormat({ maximumFractionDigits: 2 });

export const TimeChart = memo(function TimeChart(props: TimeChartProps) {
  const { store, series, view, runSeconds, height } = props;
  const formatY = props.formatY ?? formatCount;
  const formatValue = props.formatValue ?? exact.format;
  const style = useMemo(() => ({ ...DEFAULT_STYLE, ...props.style }), [props.style]);
  const compact = props.compact ?? false;
  const redrawMs = props.redrawMs ?? 0;
  const margin = useMemo(() => ({ top: 12, right: 18, bottom: compact ? 24 : 46, left: 64 }), [compact]);
  const theme = useTheme();
  const hintId = useId();

  const [rootRef, width] = useWidth<HTMLDivElement>();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const axesRef = useRef<SVGSVGElement>(null);
  const overlayRef = useRef<SVGSVGElement>(null);
  const [dataMax, setDataMax] = useState(NaN);
  const [counts, setCounts] = useState<ScatterCounts>(NO_COUNTS);
  const [spoken, setSpoken] = useState('');
  const [saveError, setSaveError] = useState<string | null>(null);

  const plotW = Math.max(10, width - margin.left - margin.right);
  const plotH = Math.max(10, height - margin.top - margin.bottom);
  const xDomain = useMemo(() => resolveXDomain(view, runSeconds), [view, runSeconds]);
  const yDomain = useMemo(() => resolveYDomain(view.y, dataMax, plotH), [view.y, dataMax, plotH]);
  const x = useMemo(
    () =>
      scaleLinear()
        .domain(xDomain)
        .range([margin.left, margin.left + plotW]),
    [xDomain, plotW, margin],
  );
  const y = useMemo(() => makeYScale(view.y.kind, yDomain, [margin.top + plotH, margin.top]), [view.y.kind, yDomain, plotH, margin]);
  const stores = useMemo(() => [...new Set([store, ...series.map((s) => s.store ?? store)])], [store, series]);
  /** The series whose counts the chart reports: the first of its own run. */
  const mainIndex = Math.max(
    0,
    series.findIndex((s) => (s.store ?? store) === store),
  );

  /** Paints bands, dots and lines onto a context; returns the main series' counts and the data top. */
  const paint = useMemo(
    () => (ctx: CanvasRenderingContext2D) => {
      let main: ScatterCounts = NO_COUNTS;
      let max = NaN;
      let drawn = 0;
      const bottom = margin.top + plotH;
      if (store.length > 0 && store.has(X_FIELD)) {
        const xs = store.column(X_FIELD);
        for (const b of props.bands ?? []) {
          if (store.has(b.field)) {
            drawBands(ctx, xs, store.column(b.field), store.length, x, xDomain, b.value, margin.top, bottom, colorOf(b.color));
          }
        }
      }
      // Keep a little room past the plot edges so floor/top markers are not cut in half.
      ctx.save();
      ctx.beginPath();
      ctx.rect(margin.left - 4, margin.top - 8, plotW + 8, plotH + 12);
      ctx.clip();
      series.forEach((s, k) => {
        const st = s.store ?? store;
        if (st.length === 0 || !st.has(X_FIELD) || !st.has(s.field)) return;
        const xs = st.column(X_FIELD);
        const ys = st.column(s.field);
        const color = colorOf(s.color);
        const c =
          s.kind === 'line'
            ? drawLine(ctx, xs, ys, st.length, x, y, xDomain, yDomain, color)
            : drawScatter(ctx, xs, ys, st.length, x, y, view.y.kind, xDomain, yDomain, {
                ...style,
                dot: color,
                zero: colorOf(style.zero),
                above: colorOf(style.above),
              });
        if (k === mainIndex) main = c;
        if (c.points > 0) drawn++;
        // The axis fits the seconds in view (a fresh drive's peak must not squash the steady state).
        const [lo, hi] = rowsWithin(xs, xDomain[0], xDomain[1]);
        const inView = ys.subarray(lo, hi);
        const m = view.y.robust ? columnQuantile(inView, 0.98) : columnMax(inView);
        if (!(m <= max)) max = m;
      });
      ctx.restore();
      return { main, max, drawn };
    },
    [store, series, mainIndex, props.bands, view.y, x, y, xDomain, yDomain, plotW, plotH, style, margin],
  );

  // Draw now and after every store change (at most once per frame).
  useEffect(() => {
    const canvas = canvasRef.current;
    const root = rootRef.current;
    if (!canvas || !root || width === 0) return;
    let cancelFrame: (() => void) | null = null;
    let drawnVersion = '';
    const draw = () => {
      cancelFrame = null;
      const version = stores.map((s) => s.version).join(',');
      if (drawnVersion === version) return;
      drawnVersion = version;
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
      const { main, max, drawn } = paint(ctx);
      // Re-render the axes only when the data needs a different y domain.
      if (resolveYDomain(view.y, max, plotH)[1] !== yDomain[1]) setDataMax(max);
      root.dataset.points = String(main.points);
      root.dataset.zeros = String(main.zeros);
      root.dataset.total = String(store.length);
      root.dataset.series = String(drawn);
      setCounts((old) => (old.points === main.points && old.zeros === main.zeros && old.above === main.above ? old : main));
    };
    let timer = 0;
    let lastDraw = -Infinity;
    const drawSoon = () => {
      timer = 0;
      cancelFrame = drawInFrame(() => {
        lastDraw = performance.now();
        draw();
      });
    };
    const request = () => {
      if (cancelFrame || timer) return;
      const wait = lastDraw + redrawMs - performance.now();
      if (wait > 0) timer = window.setTimeout(drawSoon, wait);
      else drawSoon();
    };
    request();
    const unsubscribes = stores.map((s) => s.subscribe(request));
    return () => {
      for (const u of unsubscribes) u();
      cancelFrame?.();
      if (timer) clearTimeout(timer);
    };
  }, [stores, store, paint, view.y, yDomain, width, height, plotH, redrawMs, theme, rootRef]);

  const yt = yTicks(view.y.kind, yDomain, plotH);
  // A short log axis over many decades labels every other one.
  const labelEvery = plotH / yt.length < 20 ? 2 : 1;
  const yMinor = view.y.kind === 'log' ? logMinorTicks(yDomain) : [];
  const xt = xTicks(xDomain, plotW);
  const bottom = margin.top + plotH;
  const right = margin.left + plotW;
  const refs = (props.refs ?? []).filter((r) => r.value >= yDomain[0] && r.value <= yDomain[1]);
  const markers = (props.markers ?? []).filter((m) => m.at >= xDomain[0] && m.at <= xDomain[1]);

  // Every chart follows the second under the pointer (or the keyboard) in any of them.
  const hovered = useHoverSecond();
  const inView = (s: number | null): s is number => s !== null && s >= xDomain[0] && s <= xDomain[1];
  const hoverRow = inView(hovered) ? rowOf(store, hovered) : -1;
  const hoverValues = (second: number) =>
    series.flatMap((s) => {
      const st = s.store ?? store;
      const row = rowOf(st, second);
      return row >= 0 && st.has(s.field) ? [{ key: s.key ?? s.field, label: s.label, value: formatValue(st.column(s.field)[row]) }] : [];
    });
  const secondAt = (clientX: number, el: HTMLElement) => {
    const px = clientX - el.getBoundingClientRect().left;
    return px >= margin.left && px <= right && store.length > 0 ? Math.round(x.invert(px)) : null;
  };
  const onPointer = (e: React.PointerEvent<HTMLDivElement>) => hoverSecond.set(secondAt(e.clientX, e.currentTarget));

  /** The seconds this chart has data for, within its view. */
  const secondsInView = (): [number, number] | null => {
    if (store.length === 0 || !store.has(X_FIELD)) return null;
    const xs = store.column(X_FIELD);
    const [lo, hi] = rowsWithin(xs, xDomain[0], xDomain[1]);
    return hi > lo ? [xs[lo], xs[hi - 1]] : null;
  };
  const speak = (second: number) => {
    const values = hoverValues(second).map((v) => `${v.label} ${v.value}`);
    setSpoken(values.length ? `Second ${second}: ${values.join(', ')}` : `Second ${second}: no data`);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const range = secondsInView();
    if (!range) return;
    const current = inView(hovered) ? hovered : null;
    let next: number;
    const stepBy = e.shiftKey ? 10 : 1;
    switch (e.key) {
      case 'ArrowRight':
        next = current === null ? range[1] : current + stepBy;
        break;
      case 'ArrowLeft':
        next = current === null ? range[1] : current - stepBy;
        break;
      case 'Home':
        next = range[0];
        break;
      case 'End':
        next = range[1];
        break;
      case 'Enter':
      case ' ':
        if (current !== null && props.onPick) {
          e.preventDefault();
          props.onPick(current);
        }
        return;
      case 'Escape':
        hoverSecond.set(null);
        return;
      default:
        return;
    }
    e.preventDefault();
    const clamped = Math.min(range[1], Math.max(range[0], next));
    hoverSecond.set(clamped);
    speak(clamped);
  };

  const save = async (kind: 'png' | 'svg') => {
    if (!axesRef.current) return;
    setSaveError(null);
    try {
      const rec = new SvgRecorder();
      paint(asContext(rec));
      const legend = series.length > 1 ? series.map((s) => ({ label: s.label, color: colorOf(s.color) })) : [];
      const svg = chartSvg({
        width,
        height,
        title: props.label,
        background: colorOf('var(--panel)'),
        ink: colorOf('var(--ink)'),
        legend,
        axes: axesRef.current,
        overlay: overlayRef.current,
        marks: rec.markup(),
      });
      const name = fileSlug(props.label);
      if (kind === 'svg') download(svg, `${name}.svg`, 'image/svg+xml');
      else download(await svgToPng(svg), `${name}.png`);
    } catch (e) {
      setSaveError(`The picture could not be saved: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  const pickedX = inView(props.picked ?? null) ? x(props.picked!) : null;
  const values = hoverRow >= 0 ? hoverValues(hovered!) : [];

  return (
    <figure className="chart">
      <div
        ref={rootRef}
        className="chart-area"
        style={{ height }}
        data-testid={props.testId}
        data-view={view.id}
        data-markers={markers.length}
        role="group"
        aria-roledescription="chart"
        aria-label={`${props.label}: ${counts.points} seconds plotted`}
        aria-describedby={hintId}
        tabIndex={0}
        onPointerMove={onPointer}
        onPointerLeave={() => hoverSecond.set(null)}
        onClick={(e) => {
          const s = secondAt(e.clientX, e.currentTarget);
          if (s !== null && props.onPick && rowOf(store, s) >= 0) props.onPick(s);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => setSpoken('')}
      >
        {width > 0 && (
          <svg ref={axesRef} className="chart-axes" width={width} height={height} aria-hidden="true">
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
                <text className="axis-title" transform={`translate(16 ${margin.top + plotH / 2}) rotate(-90)`} textAnchor="middle">
                  {props.yLabel}
                </text>
              </>
            )}
          </svg>
        )}
        <canvas ref={canvasRef} className="chart-dots" style={{ width, height }} />
        {width > 0 && (
          // Above the canvas, so levels and events stay readable over dense dots.
          <svg ref={overlayRef} className="chart-overlay" width={width} height={height} aria-hidden="true">
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
            {pickedX !== null && <line className="picked" x1={pickedX} x2={pickedX} y1={margin.top} y2={bottom} />}
            {hoverRow >= 0 && <line className="hover" x1={x(hovered!)} x2={x(hovered!)} y1={margin.top} y2={bottom} />}
          </svg>
        )}
        {hoverRow >= 0 && (
          <div
            className="hover-box"
            aria-hidden="true"
            style={
              x(hovered!) > margin.left + plotW / 2
                ? { right: width - x(hovered!) + 8, top: margin.top + 18 }
                : { left: x(hovered!) + 8, top: margin.top + 18 }
            }
          >
            <strong>{hovered} s</strong>
            {values.map((v) => (
              <span key={v.key}>
                {`${v.label}: `}
                {v.value}
              </span>
            ))}
          </div>
        )}
        {counts.points === 0 && props.emptyText && width > 0 && (
          <div className="chart-empty" style={{ left: margin.left, top: margin.top, width: plotW, height: plotH }}>
            <span>{props.emptyText}</span>
          </div>
        )}
      </div>
      <p id={hintId} className="sr-only">
        Arrow keys move between seconds (Shift for ten), Home and End jump to the first and last
        {props.onPick ? '; Enter explains the second' : ''}.
      </p>
      <div className="sr-only" aria-live="polite" data-testid={props.testId ? `${props.testId}-spoken` : undefined}>
        {spoken}
      </div>
      <figcaption className="chart-notes">
        {counts.zeros > 0 && (
          <span className="note zero">
            <span className="swatch" aria-hidden="true">
              ▼
            </span>
            {counts.zeros} {counts.zeros === 1 ? 'second' : 'seconds'} with 0 {props.yLabel}, drawn at the axis floor
          </span>
        )}
        {counts.above > 0 && (
          <span className="note above">
            <span className="swatch" aria-hidden="true">
              ▲
            </span>
            {counts.above} {counts.above === 1 ? 'second' : 'seconds'} above {formatY(yDomain[1])}, drawn at the top edge
          </span>
        )}
        <span className="save">
          <button
            type="button"
            className="link"
            onClick={() => void save('png')}
            aria-label={`Save ${props.label} as PNG`}
            data-testid={props.testId ? `${props.testId}-png` : undefined}
          >
            PNG
          </button>
          <button
            type="button"
            className="link"
            onClick={() => void save('svg')}
            aria-label={`Save ${props.label} as SVG`}
            data-testid={props.testId ? `${props.testId}-svg` : undefined}
          >
            SVG
          </button>
        </span>
        {saveError && (
          <span className="field-error" role="alert">
            {saveError}
          </span>
        )}
      </figcaption>
    </figure>
  );
});
