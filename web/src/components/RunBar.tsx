// The run controls, kept in reach (sticky above the chart): Start, Pause / Resume, Step one
// simulated second, Restart, Clear, and the progress of the run being edited: simulated time,
// speed in simulated seconds per wall-clock second, and the time left at that speed.

import { memo } from 'react';
import { formatDuration, formatInt, formatSpeed } from '../format';

export interface RunProgress {
  secondsDone: number;
  totalSeconds: number;
  speed: number;
  state: string;
  starting: boolean;
}

export interface RunBarProps {
  startLabel: string;
  /** Why Start is disabled (null: it is enabled). */
  startBlocked: string | null;
  onStart(): void;
  /** Pause or resume every run; `paused` says which the button does. */
  canPause: boolean;
  paused: boolean;
  onPauseResume(): void;
  canStep: boolean;
  onStep(): void;
  canRestart: boolean;
  onRestart(): void;
  canClear: boolean;
  onClear(): void;
  progress: RunProgress | null;
  /** How many runs the buttons act on (Pause, Step and Restart act on all of them). */
  runCount: number;
}

export const RunBar = memo(function RunBar(props: RunBarProps) {
  const p = props.progress;
  const all = props.runCount > 1 ? ' all' : '';
  const left = p && p.speed > 0 ? (p.totalSeconds - p.secondsDone) / p.speed : NaN;
  return (
    <div className="runbar" role="group" aria-label="Run controls">
      <div className="buttons">
        <button
          type="button"
          className="primary"
          disabled={props.startBlocked !== null}
          onClick={props.onStart}
          aria-describedby={props.startBlocked ? 'start-blocked' : undefined}
          data-testid="start"
        >
          {props.startLabel}
        </button>
        <button type="button" disabled={!props.canPause} onClick={props.onPauseResume} data-testid="pause" aria-pressed={props.paused}>
          {props.paused ? `Resume${all}` : `Pause${all}`}
        </button>
        <button
          type="button"
          disabled={!props.canStep}
          onClick={props.onStep}
          data-testid="step"
          title="Run one more simulated second, then pause"
        >
          Step 1 s
        </button>
        <button
          type="button"
          disabled={!props.canRestart}
          onClick={props.onRestart}
          data-testid="restart"
          title="Run again from the start with the same settings"
        >
          Restart{all}
        </button>
        <button
          type="button"
          disabled={!props.canClear}
          onClick={props.onClear}
          data-testid="reset"
          title="Stop, and remove every result and compared run"
        >
          Clear
        </button>
      </div>
      {props.startBlocked && (
        <p className="field-error start-blocked" id="start-blocked" role="alert" data-testid="start-blocked">
          {props.startBlocked}
        </p>
      )}
      {p && (
        <div className="progress" data-testid="progress">
          <progress
            max={Math.max(1, p.totalSeconds)}
            value={p.secondsDone}
            aria-label="Simulated time"
            aria-valuetext={`${formatInt(p.secondsDone)} of ${formatInt(p.totalSeconds)} simulated seconds`}
          />
          <span className="progress-text" aria-live="off">
            {p.starting ? (
              'Erasing and filling the drive…'
            ) : (
              <>
                <span data-testid="progress-time">
                  {formatInt(p.secondsDone)} of {formatInt(p.totalSeconds)} s
                </span>
                {' · '}
                <span data-testid="progress-speed" title="Simulated seconds per second of your time">
                  {formatSpeed(p.speed)} real time
                </span>
                {p.state === 'running' && Number.isFinite(left) && <> · about {formatDuration(left)} left</>}
                {p.state === 'paused' && <> · paused</>}
              </>
            )}
          </span>
        </div>
      )}
    </div>
  );
});
