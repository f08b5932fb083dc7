// The Start / Pause / Reset buttons and the basic run settings; the workload and design
// sections are passed in as children, after them.

import { memo, useId, type ReactNode } from 'react';
import type { DrivePreset, EngineState } from '../engine/protocol';
import { formatCount } from '../charts/scales';
import { formatMemory, spanOptions } from '../settings/capacity';
import { LIMITS, type RunSettings } from '../settings/urlState';

export interface ControlsProps {
  presets: readonly DrivePreset[];
  spans: readonly number[];
  settings: RunSettings;
  onChange(patch: Partial<RunSettings>): void;
  state: EngineState;
  /** Start was pressed; the drive is being erased and filled. */
  starting: boolean;
  /** A run exists (running, paused or finished) whose results are on screen. */
  hasRun: boolean;
  onStart(): void;
  onPause(): void;
  onResume(): void;
  onReset(): void;
  /** The engine's objection, when it names one of these settings (drive, span, seconds, seed). */
  problem: { place: string | null; message: string } | null;
  /** The engine's objection when no control owns it. */
  generalProblem: string | null;
  children?: ReactNode;
}

function FieldError({ message }: { message: string | null }) {
  return message ? (
    <p className="field-error" role="alert">
      {message}
    </p>
  ) : null;
}

export const Controls = memo(function Controls(props: ControlsProps) {
  const { presets, settings, state } = props;
  const ids = { drive: useId(), seconds: useId(), seed: useId(), spare: useId() };
  const drive = presets.find((d) => d.id === settings.drive);
  const options = drive ? spanOptions(drive, props.spans, settings.span) : [];
  const busy = state === 'loading' || props.starting;
  const running = state === 'running';
  const paused = state === 'paused';
  const problemAt = (place: string) => (props.problem?.place === place ? props.problem.message : null);

  return (
    <form
      className="controls"
      aria-label="Run settings"
      onSubmit={(e) => {
        e.preventDefault();
        if (!busy) props.onStart();
      }}
    >
      <div className="buttons">
        <button type="submit" className="primary" disabled={busy || !drive} data-testid="start">
          {props.hasRun ? 'Restart' : 'Start'}
        </button>
        <button
          type="button"
          disabled={!running && !paused}
          onClick={paused ? props.onResume : props.onPause}
          data-testid="pause"
          aria-pressed={paused}
        >
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button
          type="button"
          disabled={state === 'loading' || (!props.hasRun && state !== 'error')}
          onClick={props.onReset}
          data-testid="reset"
        >
          Reset
        </button>
        {props.generalProblem && (
          <p className="field-error general" role="alert" data-testid="settings-problem">
            {props.generalProblem}
          </p>
        )}
      </div>

      <div className="field">
        <label htmlFor={ids.drive}>Drive</label>
        <select
          id={ids.drive}
          data-testid="drive-select"
          value={drive ? settings.drive : ''}
          disabled={presets.length === 0}
          onChange={(e) => props.onChange({ drive: e.target.value })}
        >
          {!drive && <option value="">{presets.length ? 'Choose a drive' : 'Loading drives…'}</option>}
          {presets.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </select>
        {drive && (
          <p className="hint">
            {drive.interface} · {formatMemory(drive.raw_bytes)} raw NAND · rated{' '}
            {formatCount(drive.spec_random_write_iops)} random-write IOPS
          </p>
        )}
        <FieldError message={problemAt('drive')} />
      </div>

      <fieldset className="field spare" aria-describedby={ids.spare}>
        <legend>Spare area</legend>
        <p className="hint" id={ids.spare}>
          Fill and test only part of the drive; the rest becomes spare NAND. Each choice is labelled with the
          capacity a vendor would advertise for it.
        </p>
        <div className="segmented" role="radiogroup" aria-label="Spare area">
          {options.map((o) => (
            <label key={o.span} className={o.span === settings.span ? 'seg checked' : 'seg'}>
              <input
                type="radio"
                name="span"
                value={o.span}
                checked={o.span === settings.span}
                onChange={() => props.onChange({ span: o.span })}
                data-testid={`span-${o.span}`}
              />
              <span className="seg-main">{o.capacityLabel}</span>
              <span className="seg-sub">{o.spareLabel}</span>
            </label>
          ))}
        </div>
        <FieldError message={problemAt('span')} />
      </fieldset>

      <div className="field-row">
        <div className="field">
          <label htmlFor={ids.seconds}>Duration (s)</label>
          <input
            id={ids.seconds}
            data-testid="seconds-input"
            type="number"
            inputMode="numeric"
            min={LIMITS.seconds.min}
            max={LIMITS.seconds.max}
            step={1}
            value={settings.seconds}
            onChange={(e) => {
              const v = e.target.valueAsNumber;
              if (Number.isInteger(v) && v >= LIMITS.seconds.min && v <= LIMITS.seconds.max) {
                props.onChange({ seconds: v });
              }
            }}
          />
          <FieldError message={problemAt('seconds')} />
        </div>
        <div className="field">
          <label htmlFor={ids.seed}>Seed</label>
          <input
            id={ids.seed}
            data-testid="seed-input"
            type="number"
            inputMode="numeric"
            min={LIMITS.seed.min}
            max={LIMITS.seed.max}
            step={1}
            value={settings.seed}
            onChange={(e) => {
              const v = e.target.valueAsNumber;
              if (Number.isInteger(v) && v >= LIMITS.seed.min && v <= LIMITS.seed.max) {
                props.onChange({ seed: v });
              }
            }}
          />
          <FieldError message={problemAt('seed')} />
        </div>
      </div>

      {props.children}
    </form>
  );
});
