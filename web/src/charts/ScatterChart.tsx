// A scatter of one field against time: dots on a <canvas>, axes and gridlines in SVG.
// React renders the frame; the dots are redrawn on the next animation frame after new samples,
// straight from the store's columns, without React re-rendering.

import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ColumnStore } from './columns';
import { drawScatter, type ScatterCounts, type ScatterStyle } from './draw';
import {
  columnMax,
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

export interface ScatterChartProps {
  store: ColumnStore;
  xField: string;
  yField: string;
  view: ViewSpec;
  /** Length of the run in simulated seconds: the x axis ends there. */
  runSeconds: number;
  xLabel: string;
  yLabel: string;
  /** Accessible name of the chart. */
  label: string;
  height: number;
  testId?: string;
  /** Formats y tick labels (default 1, 10, 1K). */
  formatY?: (v: number) => string;
  style?: Partial<ScatterStyle>;
  /** Shown over the plot while no second falls in the view. */
  emptyText?: string;
}

const MARGIN = { top: 12, right: 18, bottom: 46, left: 64 };

const DEFAULT_STYLE: ScatterStyle = {
  dot: '#1f6fd1',
  zero: '#d1342f',
  above: '#b26b00',
  radius: 1.7,
};

export function ScatterChart(props: ScatterChartProps) {
  const { store, xField, yField, view, runSeconds, height } = props;
  const formatY = props.formatY ?? formatCount;
  const style = useMemo(() => ({ ...DEFAULT_STYLE, ...props.style }), [props.style]);

  const rootRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const [dataMax, setDataMax] = useState(NaN);
  const [counts, setCounts] = useState<ScatterCounts>({ points: 0, zeros: 0, above: 0 });

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

  const plotW = Math.max(10, width - MARGIN.left - MARGIN.right);
  const plotH = Math.max(10, height - MARGIN.top - MARGIN.bottom);
  const xDomain = useMemo(() => resolveXDomain(view, runSeconds), [view, runSeconds]);
  const yDomain = useMemo(() => resolveYDomain(view.y, dataMax, plotH), [view.y, dataMax, plotH]);
  const x = useMemo(
    () => scaleLinear().domain(xDomain).range([MARGIN.left, MARGIN.left + plotW]),
    [xDomain, plotW],
  );
  const y = useMemo(
    () => makeYScale(view.y.kind, yDomain, [MARGIN.top + plotH, MARGIN.top]),
    [view.y.kind, yDomain, plotH],
  );

  // Draw the dots now and after every store change (at most once per frame).
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
      let c: ScatterCounts = { points: 0, zeros: 0, above: 0 };
      if (n > 0 && store.has(xField) && store.has(yField)) {
        const xs = store.column(xField);
        const ys = store.column(yField);
        // Keep a little room past the plot edges so floor/top markers are not cut in half.
        ctx.save();
        ctx.beginPath();
        ctx.rect(MARGIN.left - 4, MARGIN.top - 8, plotW + 8, plotH + 12);
        ctx.clip();
        c = drawScatter(ctx, xs, ys, n, x, y, view.y.kind, xDomain, yDomain, style);
        ctx.restore();
        // Re-render the axes only when the data needs a different y domain.
        const m = columnMax(ys);
        if (resolveYDomain(view.y, m, plotH)[1] !== yDomain[1]) setDataMax(m);
      } else if (resolveYDomain(view.y, NaN, plotH)[1] !== yDomain[1]) {
        setDataMax(NaN);
      }
      root.dataset.points = String(c.points);
      root.dataset.zeros = String(c.zeros);
      root.dataset.total = String(n);
      setCounts((old) =>
        old.points === c.points && old.zeros === c.zeros && old.above === c.above ? old : c,
      );
    };
    const request = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };
    request();
    const unsubscribe = store.subscribe(request);
    return () => {
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [store, xField, yField, view.y, x, y, xDomain, yDomain, width, height, plotW, plotH, style]);

  const yt = yTicks(view.y.kind, yDomain, plotH);
  const yMinor = view.y.kind === 'log' ? logMinorTicks(yDomain) : [];
  const xt = xTicks(xDomain, plotW);
  const bottom = MARGIN.top + plotH;
  const right = MARGIN.left + plotW;

  return (
    <figure className="chart" aria-label={props.label}>
      <div
        ref={rootRef}
        className="chart-area"
        style={{ height }}
        data-testid={props.testId}
        data-view={view.id}
        role="img"
        aria-label={`${props.label}: ${counts.points} seconds plotted`}
      >
        {width > 0 && (
          <svg className="chart-axes" width={width} height={height} aria-hidden="true">
            <g className="grid minor">
              {yMinor.map((v) => (
                <line key={`m${v}`} x1={MARGIN.left} x2={right} y1={y(v)} y2={y(v)} />
              ))}
            </g>
            <g className="grid">
              {yt.map((v) => (
                <line key={`y${v}`} x1={MARGIN.left} x2={right} y1={y(v)} y2={y(v)} />
              ))}
              {xt.map((v) => (
                <line key={`x${v}`} x1={x(v)} x2={x(v)} y1={MARGIN.top} y2={bottom} />
              ))}
            </g>
            <rect className="frame" x={MARGIN.left} y={MARGIN.top} width={plotW} height={plotH} />
            <g className="ticks y">
              {yt.map((v) => (
                <text key={v} x={MARGIN.left - 8} y={y(v)} dy="0.32em" textAnchor="end">
                  {formatY(v)}
                </text>
              ))}
            </g>
            <g className="ticks x">
              {xt.map((v) => (
                <text key={v} x={x(v)} y={bottom + 18} textAnchor="middle">
                  {v}
                </text>
              ))}
            </g>
            <text className="axis-title" x={MARGIN.left + plotW / 2} y={height - 6} textAnchor="middle">
              {props.xLabel}
            </text>
            <text
              className="axis-title"
              transform={`translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)`}
              textAnchor="middle"
            >
              {props.yLabel}
            </text>
          </svg>
        )}
        <canvas ref={canvasRef} className="chart-dots" style={{ width, height }} />
        {counts.points === 0 && props.emptyText && width > 0 && (
          <div
            className="chart-empty"
            style={{ left: MARGIN.left, top: MARGIN.top, width: plotW, height: plotH }}
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
              {counts.zeros} {counts.zeros === 1 ? 'second' : 'seconds'} with 0 {props.yLabel}, drawn at the
              axis floor
            </span>
          )}
          {counts.above > 0 && (
            <span className="note above">
              <span className="swatch" aria-hidden="true">▲</span>
              {counts.above} {counts.above === 1 ? 'second' : 'seconds'} above {formatY(yDomain[1])}, drawn at
              the top edge
            </span>
          )}
        </figcaption>
      )}
    </figure>
  );
}
