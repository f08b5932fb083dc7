// The placement experiment's settings in the picker: which apps and layouts, over-provisionings
// and drive writes; the page's small first run or the engine's full set one press away.

import type { ExperimentPlace } from '../settings/experimentState';
import {
  isChoice,
  parseOpPercentsText,
  PLACEMENT_FULL,
  PLACEMENT_HOSTS,
  PLACEMENT_LABELS,
  PLACEMENT_LAYOUTS,
  PLACEMENT_LIMITS,
  PLACEMENT_PAGE,
  type PlacementChoice,
} from '../settings/placementExperiment';
import { NameChecks, NumberField, ParsedField } from './fields';

const HOST_WORDS: Record<string, string> = {
  uniform: 'uniform (random 4 KiB, no tags)',
  'hot-cold': 'hot-cold (90 % of writes to 10 %)',
  streams: 'streams (3 regions, 3 rates)',
  cache: 'cache (CacheLib: small and large objects)',
  lsm: 'lsm (RocksDB-style tree, by level)',
};

export const LAYOUT_WORDS: Record<string, string> = {
  block: 'block: a conventional drive, writes untagged',
  fdp: 'fdp: the same drive, writes tagged with a placement handle',
  zoned: 'zoned: a zoned drive; the host’s store cleans zones',
};

export interface PlacementSettingsProps {
  value: PlacementChoice;
  onChange(next: PlacementChoice): void;
  at(place: ExperimentPlace): string | null;
}

export function PlacementSettings({ value, onChange, at }: PlacementSettingsProps) {
  return (
    <div className="placement-settings" data-testid="placement-settings">
      <div className="segmented n2" role="group" aria-label="Placement set">
        {(
          [
            ['page', 'Quick: 2 hosts', PLACEMENT_PAGE],
            ['full', 'Full: every host', PLACEMENT_FULL],
          ] as const
        ).map(([id, label, choice]) => {
          const on = isChoice(value, choice);
          return (
            <button
              key={id}
              type="button"
              className={on ? 'seg compact checked' : 'seg compact'}
              aria-pressed={on}
              onClick={() => onChange(choice)}
              data-testid={`exp-placement-${id}`}
            >
              <span className="seg-main">{label}</span>
            </button>
          );
        })}
      </div>
      <NameChecks
        legend={PLACEMENT_LABELS.hosts}
        names={PLACEMENT_HOSTS}
        words={HOST_WORDS}
        chosen={value.hosts}
        onChange={(hosts) => onChange({ ...value, hosts })}
        problem={at('hosts')}
        testId="exp-hosts"
      />
      <NameChecks
        legend={PLACEMENT_LABELS.layouts}
        names={PLACEMENT_LAYOUTS}
        words={LAYOUT_WORDS}
        chosen={value.layouts}
        onChange={(layouts) => onChange({ ...value, layouts })}
        problem={at('layouts')}
        testId="exp-layouts"
      />
      <div className="field-row">
        <ParsedField<number[]>
          label={PLACEMENT_LABELS.opPercents}
          unit="%"
          value={[...value.opPercents]}
          inputMode="text"
          parse={parseOpPercentsText}
          format={(v) => v.join(',')}
          onChange={(v) => v && onChange({ ...value, opPercents: v })}
          problem={at('op')}
          testId="exp-op"
        />
        <NumberField
          label={PLACEMENT_LABELS.driveWrites}
          unit="×"
          value={value.driveWrites}
          min={PLACEMENT_LIMITS.driveWrites.min}
          max={PLACEMENT_LIMITS.driveWrites.max}
          whole={false}
          onChange={(v) => v !== undefined && onChange({ ...value, driveWrites: v })}
          problem={at('dw')}
          testId="exp-dw"
        />
      </div>
      <p className="hint">
        Over-provisioning: flash beyond the app’s data, as a share of the data, 1 to 100 %, up to 8 of them (the ZNS paper’s 7 and 28).
        Drive writes: how many times each point writes the app’s data over (1 to 100); the second half is measured. Quick: streams and cache
        at 28 and 7 %, 2 drive writes, about 10 s. Full: the engine’s own set, every host at 7 and 28 %, 4 drive writes, about a minute and
        a half.
      </p>
    </div>
  );
}
