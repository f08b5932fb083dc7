// The experiment controls (Run, Pause / Resume, Stop, Clear), the progress of the edited run's
// experiment ("point k of n" with a bar), and the runs in the legend with each one's progress.

import { memo } from 'react';
import type { ExperimentEntry } from '../engine/experiments';
import type { ExperimentProgress } from '../engine/experimentProtocol';
import { formatInt, format1, formatVendorCapacity } from '../format';
import { MAX_RUNS } from '../engine/runs';

export interface ExperimentBarProps {
  startLabel: string;
  startBlocked: string | null;
  onStart(): void;
  canPause: boolean;
  paused: boolean;
  onPauseResume(): void;
  canStop: boolean;
  onStop(): void;
  canClear: boolean;
  onClear(): void;
  /** The edited run's experiment. */
  entry: ExperimentEntry | null;
}

/** "Point 2 of 4 · 30 of 60 s" (the point running, or the last when done); a point its writes end
 * (a whole-drive fill) counts its bytes: "412 GB of 1 TB written · 2,950 s simulated". */
export function progressText(p: ExperimentProgress, state: string): string {
  if (state === 'finished') return `${formatInt(p.points)} of ${formatInt(p.points)} points, done`;
  const k = Math.min(p.points, p.points_done + 1);
  const within =
    p.bytes > 0
      ? ` · ${formatVendorCapacity(p.written_bytes)} of ${formatVendorCapacity(p.bytes)} written · ${formatInt(p.seconds_done)} s simulated`
      : p.seconds > 0
        ? ` · ${formatInt(p.seconds_done)} of ${formatInt(p.seconds)} s simulated`
        : '';
  const stopped = state === 'stopped' ? ' · stopped' : state === 'paused' ? ' · paused' : '';
  return `Point ${formatInt(k)} of ${formatInt(p.points)}${within}${stopped}`;
}

/** How far along, 0 to points. */
export function progressValue(p: ExperimentProgress, state: string): number {
  if (state === 'finished') return p.points;
  const part = p.bytes > 0 ? Math.min(1, p.written_bytes / p.bytes) : p.seconds > 0 ? Math.min(1, p.seconds_done / p.seconds) : 0;
  return Math.min(p.points, p.points_done + part);
}

export const ExperimentBar = memo(function ExperimentBar(props: ExperimentBarProps) {
  const e = props.entry;
  const p = e?.progress ?? null;
  return (
    <div className="runbar" role="group" aria-label="Experiment controls">
      <div className="buttons">
        <button
          type="button"
          className="primary"
          disabled={props.startBlocked !== null}
          onClick={props.onStart}
          aria-describedby={props.startBlocked ? 'exp-start-blocked' : undefined}
          data-testid="exp-start"
        >
          {props.startLabel}
        </button>
        <button type="button" disabled={!props.canPause} onClick={props.onPauseResume} aria-pressed={props.paused} data-testid="exp-pause">
          {props.paused ? 'Resume' : 'Pause'}
        </button>
        <button
          type="button"
          disabled={!props.canStop}
          onClick={props.onStop}
          data-testid="exp-stop"
          title="End the experiment; the rows so far stay"
        >
          Stop
        </button>
        <button
          type="button"
          disabled={!props.canClear}
          onClick={props.onClear}
          data-testid="exp-clear"
          title="Stop, and remove every result"
        >
          Clear
        </button>
      </div>
      {props.startBlocked && (
        <p className="field-error start-blocked" id="exp-start-blocked" role="alert" data-testid="exp-start-blocked">
          {props.startBlocked}
        </p>
      )}
      {e && (e.starting || p) && (
        <div className="progress" data-testid="exp-progress" data-state={e.state}>
          <progress
            max={Math.max(1, p?.points ?? 1)}
            value={p ? progressValue(p, e.state) : 0}
            aria-label="Experiment progress"
            aria-valuetext={p ? progressText(p, e.state) : 'starting'}
          />
          <span className="progress-text" data-testid="exp-progress-text">
            {e.starting || !p ? 'Planning the points…' : progressText(p, e.state)}
            {e.state === 'finished' && e.elapsedMs > 0 && ` in ${format1(e.elapsedMs / 1000)} s`}
          </span>
        </div>
      )}
    </div>
  );
});

export interface ExperimentLegendProps {
  runs: readonly { key: number; name: string; color: string; entry: ExperimentEntry | null }[];
  focusKey: number;
  onFocus(key: number): void;
  onRemove(key: number): void;
  onAdd(): void;
}

function status(e: ExperimentEntry | null): string {
  if (!e || (!e.request && !e.starting)) return 'not run';
  if (e.starting) return 'starting';
  if (e.state === 'error') return 'failed';
  if (!e.progress) return e.state;
  const p = e.progress;
  if (e.state === 'finished') return `${p.points}/${p.points} points, done`;
  return `point ${Math.min(p.points, p.points_done + 1)}/${p.points}${e.state === 'stopped' ? ', stopped' : e.state === 'paused' ? ', paused' : ''}`;
}

export const ExperimentLegend = memo(function ExperimentLegend(props: ExperimentLegendProps) {
  const full = props.runs.length >= MAX_RUNS;
  return (
    <div className="runlist" data-testid="exp-run-list">
      <ul className="runs" aria-label="Experiments on the chart">
        {props.runs.map((r, i) => {
          const focused = r.key === props.focusKey;
          const p = r.entry?.progress;
          return (
            <li key={r.key} className={focused ? 'run focused' : 'run'} data-testid={`exp-run-${i + 1}`}>
              <span className="run-key" style={{ background: r.color }} aria-hidden="true" />
              <button
                type="button"
                className="run-name"
                aria-pressed={focused}
                onClick={() => props.onFocus(r.key)}
                title={focused ? 'The settings panel edits this run' : 'Edit this run’s drive and design'}
              >
                {r.name}
              </button>
              <span className="run-status">{status(r.entry)}</span>
              {p && r.entry && (
                <span className="run-bar" aria-hidden="true">
                  <span style={{ width: `${(100 * progressValue(p, r.entry.state)) / Math.max(1, p.points)}%`, background: r.color }} />
                </span>
              )}
              {props.runs.length > 1 && (
                <button
                  type="button"
                  className="run-remove"
                  onClick={() => props.onRemove(r.key)}
                  aria-label={`Remove ${r.name}`}
                  data-testid={`exp-remove-${i + 1}`}
                >
                  ×
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <div className="runlist-actions">
        <button type="button" className="link" onClick={props.onAdd} disabled={full} data-testid="exp-add-run">
          + Compare with another drive or design
        </button>
        {full && <span className="hint">Four at most: remove one to add another.</span>}
      </div>
    </div>
  );
});
