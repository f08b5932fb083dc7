// What the page runs: the live run (one run, second by second) or one of the articles' methods
// as an experiment, with the article it reproduces, what it does, and the settings it takes.
// Every setting keeps what is typed and names its range when the text is not a valid value.

import { memo, useId } from 'react';
import { CodeText } from './CodeText';
import type { ExperimentInfo } from '../engine/experimentProtocol';
import {
  DEFAULT_SPANS,
  EXPERIMENT_LIMITS,
  LABELS,
  mostSeconds,
  formatList,
  parseQdsText,
  parseRampText,
  parseSpansText,
  settingsOf,
  type ExperimentPlace,
  type ExperimentSettings,
} from '../settings/experimentState';
import { PlacementSettings } from './PlacementSettings';
import { RecoverySettings } from './RecoverySettings';
import { FieldError, NumberField, ParsedField } from './fields';

export interface ExperimentPickerProps {
  experiments: readonly ExperimentInfo[];
  settings: ExperimentSettings;
  onChange(patch: Partial<ExperimentSettings>): void;
  /** The engine's objection, placed at one of these settings (or null: shown under the picker). */
  problem: { place: ExperimentPlace | null; message: string } | null;
}

export const ExperimentPicker = memo(function ExperimentPicker({ experiments, settings, onChange, problem }: ExperimentPickerProps) {
  const ids = { select: useId(), about: useId(), pre: useId() };
  const info = experiments.find((e) => e.id === settings.id) ?? null;
  const at = (place: ExperimentPlace) => (problem && problem.place === place ? problem.message : null);
  const takes = info ? settingsOf(info) : null;
  const seconds = settings.seconds ?? (info ? mostSeconds(info) : 1);
  // Points that end when their writes do: the seconds only cap them.
  const capped = takes !== null && (takes.placement || takes.recovery === 'idle');

  return (
    <div className="field experiment-picker" data-testid="experiment-picker">
      <label htmlFor={ids.select} className="field-label">
        Test
      </label>
      <select
        id={ids.select}
        value={settings.id ?? ''}
        onChange={(e) => onChange({ id: e.target.value === '' ? null : e.target.value })}
        aria-describedby={ids.about}
        data-testid="experiment-select"
        disabled={experiments.length === 0}
      >
        <option value="">Live run: one run, second by second</option>
        <optgroup label="The articles’ methods (experiments)">
          {experiments.map((e) => (
            <option key={e.id} value={e.id}>
              {e.title}
            </option>
          ))}
        </optgroup>
      </select>
      <div id={ids.about} className="experiment-about" data-testid="experiment-about">
        {info ? (
          <>
            <p className="hint">
              <strong>
                <CodeText text={info.article} />
              </strong>
            </p>
            <p className="hint">
              <CodeText text={info.about} />
            </p>
          </>
        ) : (
          <p className="hint">
            Or pick one of the articles’ methods: it runs point after point (each queue depth, each spare area) and draws the article’s
            charts.
          </p>
        )}
      </div>

      {info && takes && (
        <div className="experiment-settings" data-testid="experiment-settings">
          <div className="field-row">
            <NumberField
              label={capped ? 'Seconds per point, at most' : LABELS.seconds}
              unit="s"
              value={settings.seconds ?? undefined}
              placeholder={info.seconds > 0 ? `${info.seconds} (${capped ? 'default' : 'the article’s'})` : 'until written'}
              optional
              min={EXPERIMENT_LIMITS.seconds.min}
              max={EXPERIMENT_LIMITS.seconds.max}
              whole
              onChange={(v) => onChange({ seconds: v ?? null })}
              problem={at('seconds')}
              testId="exp-seconds"
            />
            {takes.ramp && (
              <ParsedField<number>
                label={LABELS.ramp}
                unit="s"
                value={settings.ramp ?? undefined}
                placeholder={`${Math.min(info.ramp_seconds, Math.floor(seconds / 2))} (default)`}
                optional
                inputMode="numeric"
                parse={(t) => parseRampText(t, seconds)}
                format={String}
                onChange={(v) => onChange({ ramp: v ?? null })}
                problem={at('ramp')}
                testId="exp-ramp"
              />
            )}
          </div>
          <p className="hint">
            {takes.placement
              ? 'At most this many simulated seconds per point; empty: until the app has written its data the drive writes below times over (a point cut short is measured over the second half of what it wrote).'
              : takes.recovery === 'idle'
                ? 'At most this many simulated seconds per run: each run ends when its writes are done.'
                : `Simulated seconds each point is measured for${takes.ramp ? '; the ramp at its start is not counted (fio’s ramp_time)' : ''}${
                    info.seconds > 0 ? '' : '; empty: until the whole drive is written'
                  }.`}
          </p>
          {takes.qds && (
            <ParsedField<number[]>
              label={LABELS.qds}
              value={settings.qds ? [...settings.qds] : undefined}
              placeholder={info.queue_depths.join(',')}
              optional
              inputMode="text"
              parse={parseQdsText}
              format={formatList}
              onChange={(v) => onChange({ qds: v ?? null })}
              hint={`Comma-separated, ${EXPERIMENT_LIMITS.queueDepths.min} to ${EXPERIMENT_LIMITS.queueDepths.max} of them, each 1 to 65,536; empty: the article’s.`}
              problem={at('qds')}
              testId="exp-qd"
            />
          )}
          {takes.spans && (
            <ParsedField<number[]>
              label={LABELS.spans}
              value={settings.spans ? [...settings.spans] : undefined}
              placeholder={DEFAULT_SPANS.join(',')}
              optional
              inputMode="text"
              parse={parseSpansText}
              format={formatList}
              onChange={(v) => onChange({ spans: v ?? null })}
              hint="Shares of the drive tested, one point each (0.01 to 1; 1 to 16 of them): the rest is spare area, as in the S3500 review."
              problem={at('spans')}
              testId="exp-spans"
            />
          )}
          {takes.placement && <PlacementSettings value={settings.placement} onChange={(placement) => onChange({ placement })} at={at} />}
          {takes.recovery && (
            <RecoverySettings
              kind={takes.recovery}
              info={info}
              value={settings.recovery}
              onChange={(recovery) => onChange({ recovery })}
              at={at}
            />
          )}
          {takes.precondition && (
            <fieldset className="field" aria-describedby={ids.pre}>
              <legend className="field-label">Preconditioning</legend>
              <div className="segmented n2" role="radiogroup" aria-label="Preconditioning">
                {(
                  [
                    ['article', 'As the article'],
                    ['fill', 'Fill only (faster)'],
                  ] as const
                ).map(([value, label]) => (
                  <label key={value} className={settings.precondition === value ? 'seg compact checked' : 'seg compact'}>
                    <input
                      type="radio"
                      name={`${ids.pre}-pre`}
                      value={value}
                      checked={settings.precondition === value}
                      onChange={() => onChange({ precondition: value })}
                      data-testid={`exp-pre-${value}`}
                    />
                    <span className="seg-main">{label}</span>
                  </label>
                ))}
              </div>
              <p className="hint" id={ids.pre}>
                {settings.precondition === 'article'
                  ? 'The article’s preconditioning writes are simulated: a sequential fill, and for the random corners one full-span 4 KB random write at QD128.'
                  : 'The sequential fill alone: faster, and fresher than the article’s drive for the random-write corners.'}
              </p>
              <FieldError message={at('precondition')} />
            </fieldset>
          )}
        </div>
      )}
    </div>
  );
});
