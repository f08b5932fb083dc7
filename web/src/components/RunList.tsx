// The runs on the chart, as its legend: each with its colour, name and progress; one is the
// run being edited (its settings are in the panel, its panels and numbers below the chart).
// Runs stay until removed or cleared. A fio log of a real drive can be added from a file.

import { memo, useId, useRef } from 'react';
import type { Run } from '../engine/run';
import { MAX_RUNS } from '../engine/runs';
import { formatInt } from '../format';

export interface RunListProps<S> {
  runs: readonly Run<S>[];
  focusId: number;
  name(run: Run<S>): string;
  onFocus(id: number): void;
  onRemove(id: number): void;
  onAdd(): void;
  onLoadLog(file: File): void;
  /** A problem with the last file loaded, naming the file and line. */
  logError: string | null;
}

function status<S>(r: Run<S>): string {
  if (r.kind === 'log') return 'fio log';
  if (r.starting) return 'filling';
  if (r.state === 'error') return 'failed';
  if (!r.ran) return 'not started';
  const total = r.ran.config.seconds;
  const done = `${formatInt(r.secondsDone)}/${formatInt(total)} s`;
  return r.state === 'finished' ? `${done}, done` : r.state === 'paused' ? `${done}, paused` : done;
}

function RunListInner<S>(props: RunListProps<S>) {
  const fileId = useId();
  const input = useRef<HTMLInputElement>(null);
  const full = props.runs.length >= MAX_RUNS;
  const sims = props.runs.filter((r) => r.kind === 'sim').length;
  return (
    <div className="runlist" data-testid="run-list">
      <ul className="runs" aria-label="Runs on the chart">
        {props.runs.map((r, i) => {
          const focused = r.id === props.focusId;
          const name = props.name(r);
          return (
            <li key={r.id} className={focused ? 'run focused' : 'run'} data-testid={`run-${i + 1}`}>
              <span className="run-key" style={{ background: r.color }} aria-hidden="true" />
              {r.kind === 'sim' ? (
                <button
                  type="button"
                  className="run-name"
                  aria-pressed={focused}
                  onClick={() => props.onFocus(r.id)}
                  title={focused ? 'The settings panel edits this run' : 'Edit this run’s settings and see its panels'}
                >
                  {name}
                </button>
              ) : (
                <span className="run-name">{name}</span>
              )}
              <span className="run-status">{status(r)}</span>
              {r.ran && r.ran.config.seconds > 0 && r.kind === 'sim' && (
                <span className="run-bar" aria-hidden="true">
                  <span style={{ width: `${Math.min(100, (100 * r.secondsDone) / r.ran.config.seconds)}%`, background: r.color }} />
                </span>
              )}
              {(r.kind === 'log' || sims > 1) && (
                <button
                  type="button"
                  className="run-remove"
                  onClick={() => props.onRemove(r.id)}
                  aria-label={`Remove ${name}`}
                  data-testid={`remove-run-${i + 1}`}
                >
                  ×
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <div className="runlist-actions">
        <button type="button" className="link" onClick={props.onAdd} disabled={full} data-testid="add-run">
          + Compare with another run
        </button>
        <input
          ref={input}
          id={fileId}
          type="file"
          className="sr-only"
          accept=".log,.txt,.csv,text/plain"
          disabled={full}
          data-testid="fio-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) props.onLoadLog(f);
            e.target.value = '';
          }}
        />
        <label htmlFor={fileId} className={full ? 'link file disabled' : 'link file'}>
          + Add a real drive’s fio log
        </label>
        {full && <span className="hint">Four runs at most: remove one to add another.</span>}
      </div>
      {props.logError && (
        <p className="field-error" role="alert" data-testid="log-error">
          {props.logError}
        </p>
      )}
    </div>
  );
}

export const RunList = memo(RunListInner) as typeof RunListInner;
