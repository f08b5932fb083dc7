// Charts of an experiment's table, drawn whole in SVG (a table has tens of rows, not thousands):
// lines against queue depth or spare area, and grouped bars (their marks: xyMarks.tsx). Each
// saves as SVG or PNG with the same code as the time charts (export.ts), and names itself for
// screen readers; the table under it holds every value.

import { useMemo, useRef, useState } from 'react';
import { colorOf } from '../theme';
import { savePicture } from './export';
import { useWidth } from '../hooks/useVersion';
import { formatCount } from './scales';
import { barMarks, lineMarks, type BarData, type LineData, type Marks } from './xyMarks';

export interface LegendItem {
  key: string;
  label: string;
  color: string;
  dash?: string;
  /** A bar's swatch (a square), not a line's. */
  bar?: boolean;
  /** A published figure's swatch (a hollow diamond). */
  figure?: boolean;
  /** A solid line's swatch shows a dot when its points are drawn as dots (default); a dense line has none. */
  dots?: boolean;
}

interface Common {
  /** The chart's title, its accessible name and the saved file's name. */
  label: string;
  /** The title shown over the chart (default: `label`). */
  caption?: string;
  /** The legend (default: one entry per series, or per bar of the first group). */
  legend?: readonly LegendItem[];
  height: number;
  testId: string;
  formatY?: (v: number) => string;
  /** Shown over the plot while there is nothing to draw. */
  emptyText: string;
}

export interface LineChartProps extends Common, LineData {
  kind: 'lines';
}

export interface BarChartProps extends Common, BarData {
  kind: 'bars';
}

const MARGIN = { top: 18, right: 18, bottom: 46, left: 68 };
/** Bars' labels may take two lines, above the axis title. */
const BAR_BOTTOM = 62;

function Legend({ items }: { items: readonly LegendItem[] }) {
  if (items.length < 2) return null;
  return (
    <ul className="xy-legend" aria-label="Legend">
      {items.map((s) => (
        <li key={s.key}>
          <svg width="28" height="12" aria-hidden="true">
            {s.bar ? (
              <rect x="8" y="0" width="12" height="12" fill={s.color} />
            ) : s.figure ? (
              <path d="M14,1L19,6L14,11L9,6Z" fill="none" stroke={s.color} strokeWidth="2" />
            ) : (
              <>
                <line x1="1" x2="27" y1="6" y2="6" stroke={s.color} strokeWidth="2.5" strokeDasharray={s.dash} />
                {!s.dash && (s.dots ?? true) && <circle cx="14" cy="6" r="3" fill={s.color} />}
              </>
            )}
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

export function XYChart(props: LineChartProps | BarChartProps) {
  const [rootRef, width] = useWidth<HTMLDivElement>();
  const svgRef = useRef<SVGSVGElement>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const { height } = props;
  const plotW = Math.max(10, width - MARGIN.left - MARGIN.right);
  const bottom = props.kind === 'bars' ? BAR_BOTTOM : MARGIN.bottom;
  const plotH = Math.max(10, height - MARGIN.top - bottom);
  const formatY = props.formatY ?? formatCount;

  const lineItems: readonly LegendItem[] =
    props.legend ??
    (props.kind === 'lines'
      ? props.series.map((s) => ({ key: s.key, label: s.label, color: s.color, dash: s.dash, dots: s.dots }))
      : (props.groups[0]?.bars ?? []).map((b) => ({ key: b.key, label: b.label, color: b.color, bar: true })));
  const withFigures = props.kind === 'lines' && (props.figures?.length ?? 0) > 0;
  const legendItems: readonly LegendItem[] = withFigures
    ? [...lineItems, { key: 'published', label: 'Published figure (in its corner’s colour)', color: 'var(--ink-2)', figure: true }]
    : lineItems;

  const body = useMemo((): Marks => {
    if (width === 0) return { marks: null, empty: true };
    // The marks' colours are CSS variables, so a change of theme repaints them without a new body.
    return props.kind === 'lines' ? lineMarks(props, plotW, plotH, formatY) : barMarks(props, plotW, plotH, formatY);
  }, [props, plotW, plotH, width, formatY]);

  const save = async (kind: 'png' | 'svg') => {
    const axes = svgRef.current;
    if (!axes) return;
    setSaveError(null);
    const error = await savePicture(kind, () => ({
      width,
      height,
      title: props.label,
      background: colorOf('var(--panel)'),
      ink: colorOf('var(--ink)'),
      legend: legendItems.length > 1 ? legendItems.map((l) => ({ label: l.label, color: colorOf(l.color) })) : [],
      axes,
      overlay: null,
      marks: '',
    }));
    setSaveError(error);
  };

  return (
    <figure className="chart xy-chart">
      <figcaption className="xy-title">{props.caption ?? props.label}</figcaption>
      <Legend items={legendItems} />
      <div ref={rootRef} className="chart-area xy-area" style={{ height }} data-testid={props.testId} data-empty={body.empty}>
        {width > 0 && (
          <svg
            ref={svgRef}
            className="chart-axes"
            width={width}
            height={height}
            role="img"
            aria-label={`${props.label} (the values are in the table below)`}
          >
            <g transform={`translate(${MARGIN.left} ${MARGIN.top})`}>
              <rect className="frame" x={0} y={0} width={plotW} height={plotH} />
              {body.marks}
            </g>
            {props.xLabel && (
              <text className="axis-title" x={MARGIN.left + plotW / 2} y={height - 6} textAnchor="middle">
                {props.xLabel}
              </text>
            )}
            <text className="axis-title" transform={`translate(14 ${MARGIN.top + plotH / 2}) rotate(-90)`} textAnchor="middle">
              {props.yLabel}
            </text>
          </svg>
        )}
        {body.empty && (
          <div className="chart-empty" style={{ left: MARGIN.left, top: MARGIN.top, width: plotW, height: plotH }}>
            <span>{props.emptyText}</span>
          </div>
        )}
      </div>
      <div className="chart-notes">
        <span className="save">
          <button
            type="button"
            className="link"
            onClick={() => void save('png')}
            aria-label={`Save PNG: ${props.label}`}
            data-testid={`${props.testId}-png`}
          >
            Save PNG
          </button>
          <button
            type="button"
            className="link"
            onClick={() => void save('svg')}
            aria-label={`Save SVG: ${props.label}`}
            data-testid={`${props.testId}-svg`}
          >
            Save SVG
          </button>
        </span>
        {saveError && (
          <span className="field-error" role="alert">
            {saveError}
          </span>
        )}
      </div>
    </figure>
  );
}
