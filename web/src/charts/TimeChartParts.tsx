// The time chart's parts React draws around its canvas (TimeChart.tsx): the axes under it, the
// reference levels, markers and the picked and hovered seconds over it, the values read under the
// pointer, and the notes and save buttons under the chart.

import type { Ref } from 'react';
import type { FigureMark, RefLine } from '../data/panels';
import type { YKind } from '../data/views';
import type { Scale, ScatterCounts } from './draw';
import { logMinorTicks, REF_LABEL_WIDTH, refLabelSlots, xTicks, yTicks } from './scales';

/** A moment marked across the plot, e.g. a power cut. */
export interface TimeMarker {
  at: number;
  label: string;
}

/** Where the plot sits in the chart, px. */
export interface PlotBox {
  margin: { top: number; right: number; bottom: number; left: number };
  plotW: number;
  plotH: number;
  width: number;
  height: number;
}

/** Gridlines, ticks, the frame and (unless compact) the axis titles. */
export function TimeAxes({
  svgRef,
  box,
  x,
  y,
  xDomain,
  yKind,
  yDomain,
  formatY,
  titles,
}: {
  svgRef: Ref<SVGSVGElement>;
  box: PlotBox;
  x: Scale;
  y: Scale;
  xDomain: [number, number];
  yKind: YKind;
  yDomain: [number, number];
  formatY(v: number): string;
  /** The axis titles; none on a compact chart. */
  titles: { x: string; y: string } | null;
}) {
  const { margin, plotW, plotH, width, height } = box;
  const yt = yTicks(yKind, yDomain, plotH);
  // A short log axis over many decades labels every other one.
  const labelEvery = plotH / yt.length < 20 ? 2 : 1;
  const yMinor = yKind === 'log' ? logMinorTicks(yDomain) : [];
  const xt = xTicks(xDomain, plotW);
  const bottom = margin.top + plotH;
  const right = margin.left + plotW;
  return (
    <svg ref={svgRef} className="chart-axes" width={width} height={height} aria-hidden="true">
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
      {titles && (
        <>
          <text className="axis-title" x={margin.left + plotW / 2} y={height - 6} textAnchor="middle">
            {titles.x}
          </text>
          <text className="axis-title" transform={`translate(16 ${margin.top + plotH / 2}) rotate(-90)`} textAnchor="middle">
            {titles.y}
          </text>
        </>
      )}
    </svg>
  );
}

/** Above the canvas, so levels and events stay readable over dense dots. */
export function TimeOverlay({
  svgRef,
  box,
  x,
  y,
  refs,
  markers,
  figures,
  formatY,
  pickedX,
  hoverX,
}: {
  svgRef: Ref<SVGSVGElement>;
  box: PlotBox;
  x: Scale;
  y: Scale;
  /** The levels, published figures (clipped to the plot) and markers in view. */
  refs: readonly RefLine[];
  markers: readonly TimeMarker[];
  figures: readonly FigureMark[];
  formatY(v: number): string;
  pickedX: number | null;
  hoverX: number | null;
}) {
  const { margin, plotW, plotH, width, height } = box;
  const bottom = margin.top + plotH;
  const right = margin.left + plotW;
  return (
    <svg ref={svgRef} className="chart-overlay" width={width} height={height} aria-hidden="true">
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
      {figures.map((f, i) => {
        if (f.note) {
          // A bracket over the window along the plot's top, the figure's words under its right
          // end (a level's label sits at its left end).
          const [x0, x1, py] = [x(f.from), x(f.to), margin.top + 5];
          return (
            <g key={`n${f.label}${f.from}`} className="figure note" data-testid="figure-note">
              <path d={`M${x0},${py + 4}V${py}H${x1}V${py + 4}`} fill="none" />
              <text x={x1 - 4} y={py + 14} textAnchor="end">
                {f.label}
              </text>
            </g>
          );
        }
        const [x0, x1, top, bottomY] = [x(f.from), x(f.to), y(f.hi), y(f.lo)];
        // Every other label at the right end, so two figures over one window do not overprint.
        const right = i % 2 === 1;
        return (
          <g key={`f${f.label}${f.from}`} className="figure" data-testid="figure-mark" data-lo={f.lo} data-hi={f.hi}>
            {f.hi > f.lo ? <rect x={x0} y={top} width={x1 - x0} height={bottomY - top} /> : <line x1={x0} x2={x1} y1={top} y2={top} />}
            <text x={right ? x1 - 4 : x0 + 4} y={right ? bottomY + 12 : top - 4} textAnchor={right ? 'end' : 'start'}>
              {f.label}
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
      {hoverX !== null && <line className="hover" x1={hoverX} x2={hoverX} y1={margin.top} y2={bottom} />}
    </svg>
  );
}

/** The values of the hovered second, beside its line (on the left in the plot's right half). */
export function HoverBox(props: {
  box: PlotBox;
  second: number;
  hoverX: number;
  values: readonly { key: string; label: string; value: string }[];
}) {
  const { margin, plotW, width } = props.box;
  const { hoverX } = props;
  return (
    <div
      className="hover-box"
      aria-hidden="true"
      style={
        hoverX > margin.left + plotW / 2 ? { right: width - hoverX + 8, top: margin.top + 18 } : { left: hoverX + 8, top: margin.top + 18 }
      }
    >
      <strong>{props.second} s</strong>
      {props.values.map((v) => (
        <span key={v.key}>
          {`${v.label}: `}
          {v.value}
        </span>
      ))}
    </div>
  );
}

/** What the plot leaves out (seconds at 0 or above the top), and saving it as a picture. */
export function TimeNotes(props: {
  counts: ScatterCounts;
  yLabel: string;
  /** The axis top, formatted. */
  top: string;
  label: string;
  testId?: string;
  onSave(kind: 'png' | 'svg'): void;
  saveError: string | null;
}) {
  const { counts } = props;
  return (
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
          {counts.above} {counts.above === 1 ? 'second' : 'seconds'} above {props.top}, drawn at the top edge
        </span>
      )}
      <span className="save">
        <button
          type="button"
          className="link"
          onClick={() => props.onSave('png')}
          aria-label={`Save ${props.label} as PNG`}
          data-testid={props.testId ? `${props.testId}-png` : undefined}
        >
          PNG
        </button>
        <button
          type="button"
          className="link"
          onClick={() => props.onSave('svg')}
          aria-label={`Save ${props.label} as SVG`}
          data-testid={props.testId ? `${props.testId}-svg` : undefined}
        >
          SVG
        </button>
      </span>
      {props.saveError && (
        <span className="field-error" role="alert">
          {props.saveError}
        </span>
      )}
    </figcaption>
  );
}
