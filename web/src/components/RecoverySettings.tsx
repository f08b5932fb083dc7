// The recovery experiments' settings in the picker: the rests (a run each), idle-recovery's
// writes around them, dirty-recovery's random writes and the states it measures. Empty fields
// are the engine's defaults.

import type { ExperimentInfo } from '../engine/experimentProtocol';
import type { ExperimentPlace } from '../settings/experimentState';
import { formatPlain } from '../format';
import { parseRestsText, RECOVERY_LABELS, type RecoveryChoice } from '../settings/recoveryExperiment';
import { NameChecks, NumberField, ParsedField } from './fields';

const STATE_WORDS: Record<string, string> = {
  'secure-erased': 'secure-erased: the same write on an empty drive',
  dirty: 'dirty: right after the random writes',
  rested: 'rested: after each rest, idle',
  trimmed: 'trimmed: the whole drive TRIMmed, then each rest',
};

export interface RecoverySettingsProps {
  kind: 'idle' | 'dirty';
  /** The experiment as the engine lists it: its defaults, ranges and states. */
  info: ExperimentInfo;
  value: RecoveryChoice;
  onChange(next: RecoveryChoice): void;
  at(place: ExperimentPlace): string | null;
}

export function RecoverySettings({ kind, info, value, onChange, at }: RecoverySettingsProps) {
  const { limits } = info;
  const states = value.states ?? info.states;
  return (
    <div className="recovery-settings" data-testid="recovery-settings">
      <ParsedField<number[]>
        label={RECOVERY_LABELS.rests}
        unit="s"
        value={value.rests ? [...value.rests] : undefined}
        placeholder={`${info.rest_seconds.join(',')} (default)`}
        optional
        inputMode="text"
        parse={(t) => parseRestsText(t, info)}
        format={(v) => v.join(',')}
        onChange={(v) => onChange({ ...value, rests: v ?? null })}
        hint={`Idle seconds before the next write, a run each: ${limits.rests.min} to ${limits.rests.max} of them, each ${formatPlain(limits.rest_seconds.min)} to ${formatPlain(limits.rest_seconds.max)} s${
          kind === 'dirty' ? ' (CDRLabs rested its 870 QVO for 1800 s)' : ''
        }.`}
        problem={at('rests')}
        testId="exp-rests"
      />
      {kind === 'idle' ? (
        <>
          <NumberField
            label={RECOVERY_LABELS.writeGb}
            unit="GB"
            value={value.writeGb ?? undefined}
            placeholder="a third of the drive (default)"
            optional
            min={limits.gb.min}
            max={limits.gb.max}
            whole={false}
            onChange={(v) => onChange({ ...value, writeGb: v ?? null })}
            problem={at('writeGb')}
            testId="exp-write-gb"
          />
          <NumberField
            label={RECOVERY_LABELS.thenGb}
            unit="GB"
            value={value.thenGb ?? undefined}
            placeholder="a hundredth of the drive (default)"
            optional
            min={limits.gb.min}
            max={limits.gb.max}
            whole={false}
            onChange={(v) => onChange({ ...value, thenGb: v ?? null })}
            hint="1 MiB sequential writes before each rest and after it, from where the first stopped."
            problem={at('thenGb')}
            testId="exp-then-gb"
          />
        </>
      ) : (
        <>
          <NumberField
            label={RECOVERY_LABELS.dirtySeconds}
            unit="s"
            value={value.dirtySeconds ?? undefined}
            placeholder={`${info.dirty_seconds} (default)`}
            optional
            min={limits.dirty_seconds.min}
            max={limits.dirty_seconds.max}
            whole
            onChange={(v) => onChange({ ...value, dirtySeconds: v ?? null })}
            hint={`Seconds of 4 KiB random writes after the fill that make the drive dirty (${formatPlain(limits.dirty_seconds.min)} to ${formatPlain(limits.dirty_seconds.max)}).`}
            problem={at('dirtySeconds')}
            testId="exp-dirty-s"
          />
          <NameChecks
            legend={RECOVERY_LABELS.states}
            names={info.states}
            words={STATE_WORDS}
            chosen={states}
            // Every state is the engine's default: kept out of the request and the link.
            onChange={(next) => onChange({ ...value, states: next.length === info.states.length ? null : next })}
            problem={at('states')}
            testId="exp-states"
          />
        </>
      )}
    </div>
  );
}
