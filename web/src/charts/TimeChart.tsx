// One or more per-second fields against time: dots and lines on a <canvas>, shaded states
// behind them (timePaint.ts), axes, gridlines, reference levels and event markers in SVG
// (TimeChartParts.tsx). React renders the frame; the canvas is redrawn on the next animation
// frame after new samples, straight from the stores' columns, without React re-rendering. Series
// may come from different runs' stores (a comparison overlays them). The chart takes keyboard
// focus: arrow keys move between seconds, the values are read out, and Enter (or a click) picks
// the second.

import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { drawInFrame } from './drawQueue';
import { scaleLinear } from 'd3';
import { colorOf, useTheme } from '../theme';
import { rowOf, rowsWithin, type ColumnStore } from '../data/columns';
import { resolveXDomain, type ViewSpec } from '../data/views';
import { savePicture } from './export';
import { useWidth } from '../hooks/useVersion';
import { hoverSecond, secondForKey, useHoverSecond } from './hover';
import type { ScatterCounts, ScatterStyle } from './draw';
import type { BandSpec, FigureMark, RefLine } from '../data/panels';
import { formatCount, makeYScale, resolveYDomain } from './scales';
import { SvgRecorder, asContext } from './svgContext';
import { numberFormat } from '../format';
import { NO_COUNTS, paintTime, X_FIELD, type ChartSeries } from './timePaint';
import { HoverBox, TimeAxes, TimeNotes, TimeOverlay, type TimeMarker } from './TimeChartParts';

// The chart's props' parts, for its users.
export type { ChartSeries, TimeMarker };

export interface TimeChartProps {
  /** The store of the run the chart is about (bands, hover and picking read it). */
  store: ColumnStore;
  /** The first series is the chart's main one: its counts and notes are reported. */
  series: readonly ChartSeries[];
  bands?: readonly BandSpec[];
  refs?: readonly RefLine[];
  markers?: readonly TimeMarker[];
  /** Published figures drawn over the seconds they were measured on. */
  figures?: readonly FigureMark[];
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

const DEFAULT_STYLE: ScatterStyle = {
  dot: 'var(--series-1)',
  zero: 'var(--mark-zero)',
  above: 'var(--mark-above)',
  radius: 1.7,
};

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
  const figuresInView = useMemo(
    () => (props.figures ?? []).filter((f) => f.to > xDomain[0] && f.from < xDomain[1]),
    [props.figures, xDomain],
  );
  // The y axis reaches the published figures in view as well as the data.
  const figureTop = Math.max(0, ...figuresInView.map((f) => f.hi));
  const yDomain = useMemo(
    () => resolveYDomain(view.y, Number.isFinite(dataMax) ? Math.max(dataMax, figureTop) : dataMax, plotH),
    [view.y, dataMax, figureTop, plotH],
  );
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
    () => (ctx: CanvasRenderingContext2D) =>
      paintTime(ctx, {
        store,
        series,
        mainIndex,
        bands: props.bands,
        viewY: view.y,
        x,
        y,
        xDomain,
        yDomain,
        plot: { left: margin.left, top: margin.top, width: plotW, height: plotH },
        style,
      }),
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
      if (resolveYDomain(view.y, Math.max(max, figureTop), plotH)[1] !== yDomain[1]) setDataMax(max);
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
  }, [stores, store, paint, view.y, yDomain, figureTop, width, height, plotH, redrawMs, theme, rootRef]);

  const right = margin.left + plotW;
  const refs = (props.refs ?? []).filter((r) => r.value >= yDomain[0] && r.value <= yDomain[1]);
  const markers = (props.markers ?? []).filter((m) => m.at >= xDomain[0] && m.at <= xDomain[1]);
  const figures = figuresInView
    .filter((f) => f.note || (f.hi >= yDomain[0] && f.lo <= yDomain[1]))
    .map((f) => ({
      ...f,
      from: Math.max(f.from, xDomain[0]),
      to: Math.min(f.to, xDomain[1]),
      lo: Math.max(f.lo, yDomain[0]),
      hi: Math.min(f.hi, yDomain[1]),
    }));

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
    if (e.key === 'Enter' || e.key === ' ') {
      if (current !== null && props.onPick) {
        e.preventDefault();
        props.onPick(current);
      }
      return;
    }
    if (e.key === 'Escape') {
      hoverSecond.set(null);
      return;
    }
    const next = secondForKey(e.key, e.shiftKey, current, range);
    if (next === null) return;
    e.preventDefault();
    hoverSecond.set(next);
    speak(next);
  };

  const save = async (kind: 'png' | 'svg') => {
    const axes = axesRef.current;
    if (!axes) return;
    setSaveError(null);
    const error = await savePicture(kind, () => {
      const rec = new SvgRecorder();
      paint(asContext(rec));
      const legend = series.length > 1 ? series.map((s) => ({ label: s.label, color: colorOf(s.color) })) : [];
      return {
        width,
        height,
        title: props.label,
        background: colorOf('var(--panel)'),
        ink: colorOf('var(--ink)'),
        legend,
        axes,
        overlay: overlayRef.current,
        marks: rec.markup(),
      };
    });
    setSaveError(error);
  };

  const pickedX = inView(props.picked ?? null) ? x(props.picked!) : null;
  const values = hoverRow >= 0 ? hoverValues(hovered!) : [];
  const box = { margin, plotW, plotH, width, height };
  const hoverX = hoverRow >= 0 ? x(hovered!) : null;

  return (
    <figure className="chart">
      <div
        ref={rootRef}
        className="chart-area"
        style={{ height }}
        data-testid={props.testId}
        data-view={view.id}
        data-markers={markers.length}
        data-figures={figures.length}
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
          <TimeAxes
            svgRef={axesRef}
            box={box}
            x={x}
            y={y}
            xDomain={xDomain}
            yKind={view.y.kind}
            yDomain={yDomain}
            formatY={formatY}
            titles={compact ? null : { x: props.xLabel, y: props.yLabel }}
          />
        )}
        <canvas ref={canvasRef} className="chart-dots" style={{ width, height }} />
        {width > 0 && (
          <TimeOverlay
            svgRef={overlayRef}
            box={box}
            x={x}
            y={y}
            refs={refs}
            markers={markers}
            figures={figures}
            formatY={formatY}
            pickedX={pickedX}
            hoverX={hoverX}
          />
        )}
        {hoverX !== null && <HoverBox box={box} second={hovered!} hoverX={hoverX} values={values} />}
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
      <TimeNotes
        counts={counts}
        yLabel={props.yLabel}
        top={formatY(yDomain[1])}
        label={props.label}
        testId={props.testId}
        onSave={(kind) => void save(kind)}
        saveError={saveError}
      />
    </figure>
  );
});
