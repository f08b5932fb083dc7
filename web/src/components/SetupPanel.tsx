// The settings of the run being edited: drive, spare area, duration and seed; the workload and
// design sections come in as children, after them.

import { memo, useId, type ReactNode } from 'react';
import type { DrivePreset } from '../engine/protocol';
import { formatCount, formatMemory, formatPercent, formatVendorCapacity } from '../format';
import { SPARE_AREA_EXPLAINED } from '../explain/words';
import { spanOptions, spareFraction } from '../settings/capacity';
import { LIMITS, type RunSettings } from '../settings/urlState';
import { FieldError, NumberField } from './fields';

export interface SetupPanelProps {
  presets: readonly DrivePreset[];
  spans: readonly number[];
  settings: RunSettings;
  onChange(patch: Partial<RunSettings>): void;
  /** The engine's objection, when it names one of these settings (drive, span, seconds, seed). */
  problem: { place: string | null; message: string } | null;
  children?: ReactNode;
}

/** "Intel SSD DC S3700 200GB" -> what the drive is, in one line a student can read. */
function driveLine(d: DrivePreset): string {
  return (
    `${d.interface} · ${formatVendorCapacity(d.advertised_bytes)} for the host on ${formatMemory(d.raw_bytes)} of flash ` +
    `(${formatPercent(spareFraction(d, 1))} kept spare) · rated ${formatCount(d.spec_random_write_iops)} random-write IOPS`
  );
}

export const SetupPanel = memo(function SetupPanel(props: SetupPanelProps) {
  const { presets, settings } = props;
  const ids = { drive: useId(), spare: useId(), driveHint: useId() };
  const drive = presets.find((d) => d.id === settings.drive);
  const options = drive ? spanOptions(drive, props.spans, settings.span) : [];
  const problemAt = (place: string) => (props.problem?.place === place ? props.problem.message : null);

  return (
    <div className="controls">
      <div className="field">
        <label htmlFor={ids.drive} className="field-label">
          Drive
        </label>
        <select
          id={ids.drive}
          data-testid="drive-select"
          value={drive ? settings.drive : ''}
          disabled={presets.length === 0}
          aria-describedby={drive ? ids.driveHint : undefined}
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
          <p className="hint" id={ids.driveHint}>
            {driveLine(drive)}
          </p>
        )}
        <FieldError message={problemAt('drive')} />
      </div>

      <fieldset className="field spare" aria-describedby={ids.spare}>
        <legend className="field-label">Spare area (how much of the drive is tested)</legend>
        <details className="explain" id={ids.spare}>
          <summary>What is spare area?</summary>
          <p>{SPARE_AREA_EXPLAINED}</p>
        </details>
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
        <NumberField
          label="Duration"
          unit="s"
          value={settings.seconds}
          min={LIMITS.seconds.min}
          max={LIMITS.seconds.max}
          whole
          onChange={(v) => v !== undefined && props.onChange({ seconds: v })}
          problem={problemAt('seconds')}
          testId="seconds"
        />
        <NumberField
          label="Seed"
          value={settings.seed}
          min={LIMITS.seed.min}
          max={LIMITS.seed.max}
          whole
          onChange={(v) => v !== undefined && props.onChange({ seed: v })}
          problem={problemAt('seed')}
          testId="seed"
        />
      </div>

      {props.children}
    </div>
  );
});
