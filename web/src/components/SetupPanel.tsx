// The settings of the run being edited: drive, spare area, duration and seed; the workload and
// design sections come in as children, after them.

import { memo, useEffect, useId, useState, type ReactNode } from 'react';
import type { DrivePreset, SourcesAnswer } from '../engine/protocol';
import { formatCount, formatMemory, formatPercent, formatVendorCapacity } from '../format';
import { SPARE_AREA_EXPLAINED } from '../explain/words';
import { driveGroups, driveSpare, spanOption, spanOptions, spareFraction, SPAN_SLIDER, zonesOf } from '../settings/capacity';
import { LIMITS, type RunSettings } from '../settings/urlState';
import { FieldError, NumberField } from './fields';

export interface SetupPanelProps {
  presets: readonly DrivePreset[];
  spans: readonly number[];
  settings: RunSettings;
  onChange(patch: Partial<RunSettings>): void;
  /** Where each of a preset's values comes from (asked when the drive's sources are first opened). */
  sourcesOf(drive: string): Promise<SourcesAnswer>;
  /** The engine's objection, when it names one of these settings (drive, span, seconds, seed). */
  problem: { place: string | null; message: string } | null;
  /** No Duration (an experiment sets seconds per point). */
  hideDuration?: boolean;
  /** No spare-area control (the experiment sweeps spare area itself). */
  hideSpan?: boolean;
  children?: ReactNode;
}

/** "Intel SSD DC S3700 200GB" -> what the drive is, in one line a student can read. */
function driveLine(d: DrivePreset): string {
  const z = zonesOf(d);
  if (z)
    return (
      `${d.interface} · ${z.zones} zones of ${formatMemory(z.capacity)} writable on ${formatMemory(d.raw_bytes)} of flash ` +
      `(${formatPercent(driveSpare(d, 1))} kept spare) · zoned: it takes only sequential writes within a zone`
    );
  return (
    `${d.interface} · ${formatVendorCapacity(d.advertised_bytes)} for the host on ${formatMemory(d.raw_bytes)} of flash ` +
    `(${formatPercent(spareFraction(d, 1))} kept spare) · rated ${formatCount(d.spec_random_write_iops)} random-write IOPS`
  );
}

export const SetupPanel = memo(function SetupPanel(props: SetupPanelProps) {
  const { presets, settings } = props;
  const ids = { drive: useId(), spare: useId(), driveHint: useId(), slider: useId() };
  const drive = presets.find((d) => d.id === settings.drive);
  const options = drive ? spanOptions(drive, props.spans) : [];
  const current = drive ? spanOption(drive, settings.span) : null;
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
          {driveGroups(presets).map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.drives.map((d) => (
                <option key={d.id} value={d.id}>
                  {`${d.name.replace(/^Intel SSD (DC )?/, 'Intel ')} · ${formatPercent(driveSpare(d, 1))} spare`}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
        {drive && (
          <p className="hint" id={ids.driveHint} data-testid="drive-line">
            {driveLine(drive)}
          </p>
        )}
        {drive && zonesOf(drive) && (
          <p className="hint" data-testid="zoned-note">
            A zoned drive takes only sequential writes within a zone, so the page’s workloads write through a host log-structured store: it
            appends each write to an open zone, and when few zones are empty a greedy cleaner copies the live data out of the emptiest zone
            and resets it. Those copies count as host write amplification (the drive itself does no garbage collection).
          </p>
        )}
        {drive && <Sources drive={drive} sourcesOf={props.sourcesOf} />}
        <FieldError message={problemAt('drive')} />
      </div>

      {/* A zoned drive's store sets how much of it holds data (Zone store's data): no span to test. */}
      {!props.hideSpan && !(drive && zonesOf(drive)) && (
        <fieldset className="field spare" aria-describedby={ids.spare}>
          <legend className="field-label">Spare area (how much of the drive is tested)</legend>
          <details className="explain" id={ids.spare}>
            <summary>What is spare area?</summary>
            <p>{SPARE_AREA_EXPLAINED}</p>
          </details>
          {drive && current && (
            <div className="span-slider">
              <label htmlFor={ids.slider}>
                Tested: <strong data-testid="span-now">{current.capacityLabel.replace(' (default)', '')}</strong> of{' '}
                {formatVendorCapacity(drive.advertised_bytes)}, <strong>{current.spareLabel}</strong>
              </label>
              <input
                id={ids.slider}
                type="range"
                min={SPAN_SLIDER.min}
                max={SPAN_SLIDER.max}
                step={SPAN_SLIDER.step}
                value={settings.span}
                aria-valuetext={`${current.capacityLabel}, ${current.spareLabel}`}
                onChange={(e) => props.onChange({ span: Number(e.target.value) })}
                data-testid="span-slider"
              />
            </div>
          )}
          <div className="segmented" role="radiogroup" aria-label="Spare area, as the capacity a vendor would advertise">
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
      )}

      <div className="field-row">
        {!props.hideDuration && (
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
        )}
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

/**
 * Where each of the preset's values comes from. The engine's full module holds the texts (the
 * first stays small for the first visit), so they are asked for when first opened, and drawn
 * once they arrive; nothing else waits for them.
 */
function Sources({ drive, sourcesOf }: { drive: DrivePreset; sourcesOf(drive: string): Promise<SourcesAnswer> }) {
  const [open, setOpen] = useState(false);
  const [heard, setHeard] = useState<{ drive: string; answer: SourcesAnswer } | null>(null);
  const asked = heard?.drive === drive.id ? heard.answer : null;
  useEffect(() => {
    if (!open || heard?.drive === drive.id) return;
    let current = true;
    void sourcesOf(drive.id).then((answer) => current && setHeard({ drive: drive.id, answer }));
    return () => {
      current = false;
    };
  }, [open, drive.id, heard, sourcesOf]);
  const toggle = (nowOpen: boolean) => {
    setOpen(nowOpen);
    if (nowOpen && asked && !asked.ok) setHeard(null); // asks again
  };
  return (
    <details className="param-list sources" onToggle={(e) => toggle(e.currentTarget.open)} data-testid="drive-sources">
      <summary>Where this drive’s values come from</summary>
      {open && asked === null && <p className="hint">Loading the sources…</p>}
      {open && asked?.ok === false && (
        <p className="field-error" role="alert">
          The sources did not load: {asked.message}. Close and open this again to retry.
        </p>
      )}
      {open && asked?.ok && (
        <dl>
          {Object.entries(asked.sources).map(([path, text]) => (
            <div key={path}>
              <dt>
                {path} = {JSON.stringify(drive.parameters[path])}
              </dt>
              <dd>{text}</dd>
            </div>
          ))}
        </dl>
      )}
    </details>
  );
}
