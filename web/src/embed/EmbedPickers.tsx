// The embed's own setup controls (`show=setup`): the first run's drive and its spare area.

import { consistency as scenario } from '../scenarios/consistency';
import { driveGroups, spanOption } from '../settings/capacity';
import type { RunSettings } from '../settings/urlState';
import { settingsOf } from '../store/selectors';
import type { PageState } from '../store/state';

export interface EmbedPickersProps {
  state: PageState;
  /** Locked controls: the page around the chart sets it up. */
  disabled: boolean;
  ready: boolean;
  onChange(patch: Partial<RunSettings>): void;
}

export function EmbedPickers({ state, disabled, ready, onChange }: EmbedPickersProps) {
  const presets = state.catalog?.presets ?? [];
  const settings = settingsOf(state);
  const drive = presets.find((p) => p.id === settings.drive);
  return (
    <div className="embed-setup" role="group" aria-label="Drive">
      <label>
        Drive{' '}
        <select
          value={settings.drive}
          disabled={disabled || !ready}
          onChange={(e) => onChange({ drive: e.target.value })}
          data-testid="embed-drive"
        >
          {driveGroups(presets).map((g) => (
            <optgroup key={g.label} label={g.label}>
              {g.drives.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      {drive && (
        <label>
          Spare area{' '}
          <select
            value={String(settings.span)}
            disabled={disabled}
            onChange={(e) => onChange({ span: Number(e.target.value) })}
            data-testid="embed-span"
          >
            {[...new Set([settings.span, ...scenario.spans])]
              .sort((a, b) => b - a)
              .map((s) => spanOption(drive, s))
              .map((o) => (
                <option key={o.span} value={String(o.span)}>
                  {o.capacityLabel}, {o.spareLabel}
                </option>
              ))}
          </select>
        </label>
      )}
    </div>
  );
}
