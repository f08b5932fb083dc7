// The chart of every run on the page: overlaid on one chart in the runs' colours, or side by side
// with one chart per run; what it plots (IOPS, MB/s, latency); and the drop target for a real
// drive's fio log.

import { memo, useMemo, useState } from 'react';
import type { ColumnStore } from '../data/columns';
import { TimeChart, type ChartSeries, type TimeMarker } from '../charts/TimeChart';
import type { FigureMark } from '../data/panels';
import type { Run } from '../engine/run';
import { LAYOUTS, METRICS, type Metric, type ViewSpec } from '../data/views';

/**
 * The run charts redraw at most this often while samples stream in (unless the caller asks for
 * less often): one run's slices come about ten times a second, four runs' forty, and each redraw
 * of a large canvas costs the main thread its painting and compositing, so four runs would
 * otherwise redraw on nearly every frame.
 */
const STREAM_REDRAW_MS = 50;

export interface ComparisonChartProps<S> {
  /** The runs with results (or logs), in legend order. */
  runs: readonly Run<S>[];
  focusId: number;
  /** The edited run's store (hover, picking and markers read it). */
  store: ColumnStore;
  /** Every run's series for the overlay, the edited run's last. */
  series: readonly ChartSeries[];
  names: ReadonlyMap<number, string>;
  metric: Metric;
  layout: string;
  onMetric(id: string): void;
  onLayout(id: string): void;
  view: ViewSpec;
  runSeconds: number;
  markers: readonly TimeMarker[];
  /** The edited run's published figures (drawn on one chart, not side by side). */
  figures?: readonly FigureMark[];
  title: string;
  height: number;
  emptyText: string;
  onPick?(second: number): void;
  picked: number | null;
  /** A dropped fio log (no drop target without it). */
  onDropFile?(file: File): void;
  /** The row with what to plot and how to lay runs out (an embed may leave it out). */
  showOptions?: boolean;
  /** Redraw at most this often while samples stream in, ms (default: every frame). */
  redrawMs?: number;
}

function ComparisonChartInner<S>(props: ComparisonChartProps<S>) {
  const { metric } = props;
  const [dragging, setDragging] = useState(false);
  const side = props.layout === 'side' && props.runs.length > 1;
  const onDropFile = props.onDropFile;
  return (
    <>
      {props.showOptions !== false && (
        <div className="chart-options">
          <label>
            Plot{' '}
            <select value={metric.id} onChange={(e) => props.onMetric(e.target.value)} data-testid="metric-select">
              {METRICS.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                </option>
              ))}
            </select>
          </label>
          {props.runs.length > 1 && (
            <div className="tabs" role="group" aria-label="Runs">
              {LAYOUTS.map((l) => (
                <button
                  key={l.id}
                  type="button"
                  aria-pressed={props.layout === l.id}
                  className={props.layout === l.id ? 'tab active' : 'tab'}
                  onClick={() => props.onLayout(l.id)}
                  data-testid={`layout-${l.id}`}
                >
                  {l.label}
                </button>
              ))}
            </div>
          )}
        </div>
      )}

      <div
        className={dragging ? 'dropzone dragging' : 'dropzone'}
        onDragOver={(e) => {
          if (onDropFile && e.dataTransfer.types.includes('Files')) {
            e.preventDefault();
            setDragging(true);
          }
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          const file = e.dataTransfer.files?.[0];
          if (file) onDropFile?.(file);
        }}
        data-testid="dropzone"
      >
        {side ? (
          <div className="side-by-side">
            {props.runs.map((r) => (
              <SideChart
                key={r.id}
                run={r}
                name={props.names.get(r.id) ?? ''}
                metric={metric}
                view={props.view}
                runSeconds={props.runSeconds}
                onPick={r.id === props.focusId ? props.onPick : undefined}
                redrawMs={props.redrawMs}
              />
            ))}
          </div>
        ) : (
          <TimeChart
            store={props.store}
            series={props.series}
            markers={props.markers}
            figures={props.figures}
            view={props.view}
            runSeconds={props.runSeconds}
            xLabel="Time (s)"
            yLabel={metric.unit}
            label={props.title}
            height={props.height}
            formatY={metric.format}
            formatValue={metric.value}
            testId="iops-chart"
            emptyText={props.emptyText}
            onPick={props.onPick}
            picked={props.picked}
            redrawMs={props.redrawMs ?? STREAM_REDRAW_MS}
          />
        )}
        {dragging && <div className="drop-hint">Drop a fio log (time_ms, value, ddir, bs) to draw it beside the runs</div>}
      </div>
    </>
  );
}

export const ComparisonChart = memo(ComparisonChartInner) as typeof ComparisonChartInner;

function SideChart<S>(props: {
  run: Run<S>;
  name: string;
  metric: Metric;
  view: ViewSpec;
  runSeconds: number;
  onPick?: (s: number) => void;
  redrawMs?: number;
}) {
  const { run, metric } = props;
  const series = useMemo(
    () => [{ field: metric.id, kind: 'dots' as const, color: run.color, label: props.name, key: `run${run.id}` }],
    [metric.id, run.color, run.id, props.name],
  );
  return (
    <div className="side-chart">
      <h3>
        <span className="run-key" style={{ background: run.color }} aria-hidden="true" /> {props.name}
      </h3>
      <TimeChart
        store={run.store}
        series={series}
        view={props.view}
        runSeconds={props.runSeconds}
        xLabel="Time (s)"
        yLabel={metric.unit}
        label={`${props.name}: ${metric.label} per second`}
        height={240}
        formatY={metric.format}
        formatValue={metric.value}
        onPick={props.onPick}
        redrawMs={props.redrawMs ?? STREAM_REDRAW_MS}
        testId={`side-chart-${run.slot + 1}`}
      />
    </div>
  );
}
