// The workload, controller-design and power-loss options, drawn from the table in settings/options.ts,
// plus the advanced overrides. Each option explains the choice in effect in one sentence, and
// shows the engine's objection when it names what the option sets.

import { memo, useId, useState, type ReactNode } from 'react';
import type { ImportReport, ParameterInfo, SimConfig, WorkloadInfo } from '../engine/protocol';
import {
  DESIGN_OPTIONS,
  choiceValue,
  isActive,
  setByFile,
  shippedChoice,
  shippedNumber,
  type ChoiceOption,
  type DesignOption,
  type DesignValue,
  type DesignValues,
  type EngineOffer,
  type SectionId,
  type ListOption,
  type NumberOption,
  type TextOption,
} from '../settings/options';
import { workloadWords } from '../explain/words';
import type { Overrides } from '../settings/overrides';
import { groupParameters, parseParameter, rangeText, unitOf } from '../settings/parameters';
import type { ParamValue } from '../settings/options';
import { parseNumberList, type WorkloadFile as WorkloadFileValue } from '../settings/urlState';
import { WorkloadFile } from './WorkloadFile';
import { FieldError, NumberField, ParsedField } from './fields';

/** Where the engine's objection is shown: an option id, 'workload', 'advanced', or null. */
export type ProblemPlace = string | null;

export interface DesignControlsProps {
  offer: EngineOffer;
  workloads: readonly WorkloadInfo[];
  workload: string;
  onWorkload(id: string): void;
  values: DesignValues;
  onValues(values: DesignValues): void;
  overrides: Overrides;
  onOverrides(overrides: Overrides): void;
  /** A fio job file or trace giving the workload, and the request it would join. */
  source: WorkloadFileValue | null;
  onSource(source: WorkloadFileValue | null): void;
  request: SimConfig;
  inspect(config: SimConfig): Promise<ImportReport>;
  /** Every parameter of the drive with what it accepts (null until the engine has said). */
  parameters: readonly ParameterInfo[] | null;
  /** The engine's message about the current settings, which control it belongs to, and its field. */
  problem: { place: ProblemPlace; message: string; field: string } | null;
  /** Only these sections (an experiment sets its own workloads); all when absent. */
  sections?: readonly SectionId[];
}

const SECTIONS: readonly { id: SectionId; title: string }[] = [
  { id: 'workload', title: 'Workload' },
  { id: 'bed', title: 'Test bed' },
  { id: 'design', title: 'Controller design' },
  { id: 'power', title: 'Power loss' },
];

/** Choices shown as a row of buttons when they fit; otherwise a select. */
function asButtons(option: ChoiceOption): boolean {
  const longest = Math.max(...option.choices.map((c) => c.label.length));
  return option.choices.length * longest <= 44;
}

export const DesignControls = memo(function DesignControls(props: DesignControlsProps) {
  const { offer, values } = props;
  const place = props.problem?.place ?? null;

  const setValue = (option: DesignOption, v: DesignValue | undefined) => {
    const next: Record<string, DesignValue> = { ...values };
    // A value equal to the drive's own design is not a change: keep links short.
    const shipped =
      option.kind === 'choice' ? shippedChoice(option, offer).value : option.kind === 'number' ? shippedNumber(option, offer) : undefined;
    if (v === undefined || v === shipped || (Array.isArray(v) && v.length === 0)) delete next[option.id];
    else next[option.id] = v;
    props.onValues(next);
  };

  const fileKind = props.source?.kind;
  const shownIn = (section: SectionId) =>
    DESIGN_OPTIONS.filter((o) => o.section === section && isActive(o, values, offer) && !setByFile(o, fileKind));
  const hasProblem = (section: SectionId) => place === section || DESIGN_OPTIONS.some((o) => o.id === place && o.section === section);

  return (
    <>
      {SECTIONS.filter((section) => !props.sections || props.sections.includes(section.id)).map((section) => {
        const options = shownIn(section.id);
        if (options.length === 0 && section.id !== 'workload') return null;
        const changed = options.filter((o) => values[o.id] !== undefined).length;
        return (
          <Disclosure
            key={section.id}
            title={section.title}
            badge={changed > 0 ? `${changed} changed` : undefined}
            initiallyOpen={(section.id !== 'power' && section.id !== 'bed') || changed > 0}
            forceOpen={hasProblem(section.id)}
            testId={`section-${section.id}`}
            onReset={
              changed > 0 && section.id !== 'workload'
                ? () => {
                    const next = { ...values };
                    for (const o of DESIGN_OPTIONS) if (o.section === section.id) delete next[o.id];
                    props.onValues(next);
                  }
                : undefined
            }
          >
            {section.id === 'workload' && (
              <>
                {!props.source && (
                  <WorkloadSelect
                    workloads={props.workloads}
                    value={props.workload}
                    onChange={props.onWorkload}
                    problem={place === 'workload' ? props.problem!.message : null}
                  />
                )}
                <WorkloadFile source={props.source} onSource={props.onSource} base={props.request} inspect={props.inspect} />
              </>
            )}
            <OptionRows
              options={options}
              render={(o) => (
                <OptionControl
                  key={o.id}
                  option={o}
                  values={values}
                  offer={offer}
                  placeholder={workloadDefault(props.workloads, props.workload, o.id)}
                  onChange={(v) => setValue(o, v)}
                  problem={place === o.id ? props.problem!.message : null}
                />
              )}
            />
          </Disclosure>
        );
      })}
      <Disclosure
        title="Advanced: every parameter"
        badge={Object.keys(props.overrides).length > 0 ? `${Object.keys(props.overrides).length} set` : undefined}
        initiallyOpen={Object.keys(props.overrides).length > 0}
        forceOpen={place === 'advanced'}
        testId="section-advanced"
        lazy
      >
        <ParametersPanel
          parameters={props.parameters}
          preset={offer.parameters}
          overrides={props.overrides}
          onChange={props.onOverrides}
          problem={place === 'advanced' ? props.problem : null}
        />
      </Disclosure>
    </>
  );
});

/** Lays out numbers that belong to the same choice (work for / rest for) side by side. */
function OptionRows({ options, render }: { options: DesignOption[]; render(o: DesignOption): ReactNode }) {
  const parent = (o: DesignOption | undefined) => (o?.kind === 'number' || o?.kind === 'text' ? o.shownWhen?.option : undefined);
  const out: ReactNode[] = [];
  for (let i = 0; i < options.length; i++) {
    const a = options[i];
    const b = options[i + 1];
    if (parent(a) !== undefined && parent(a) === parent(b)) {
      out.push(
        <div className="field-row" key={`${a.id}+${b.id}`}>
          {render(a)}
          {render(b)}
        </div>,
      );
      i++;
    } else {
      out.push(render(a));
    }
  }
  return <>{out}</>;
}

function Disclosure(props: {
  title: string;
  badge?: string;
  initiallyOpen: boolean;
  forceOpen: boolean;
  testId: string;
  onReset?: () => void;
  /** Draw the body only while open (a long one the first paint need not lay out). */
  lazy?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(props.initiallyOpen);
  // An objection inside must be seen: opened when forceOpen turns on (adjusted while rendering).
  const [forced, setForced] = useState(false);
  if (props.forceOpen !== forced) {
    setForced(props.forceOpen);
    if (props.forceOpen) setOpen(true);
  }
  return (
    <details className="section" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={props.testId}>
      <summary>
        <span className="section-title">{props.title}</span>
        {props.badge && <span className="badge">{props.badge}</span>}
      </summary>
      <div className="section-body">
        {(open || !props.lazy) && props.children}
        {props.onReset && (
          <button type="button" className="link" onClick={props.onReset}>
            Back to the drive’s own design
          </button>
        )}
      </div>
    </details>
  );
}

/** What an empty field means: the workload's own request size or queue depth, and alignment to the size. */
function workloadDefault(workloads: readonly WorkloadInfo[], id: string, option: string): string | undefined {
  if (option === 'align') return 'the request size';
  const w = workloads.find((x) => x.id === id);
  const value = option === 'block' ? w?.block_bytes : option === 'qd' ? w?.queue_depth : undefined;
  return value === undefined ? undefined : `${value} (the workload’s)`;
}

function WorkloadSelect(props: { workloads: readonly WorkloadInfo[]; value: string; onChange(id: string): void; problem: string | null }) {
  const id = useId();
  const hintId = useId();
  const current = props.workloads.find((w) => w.id === props.value);
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        Workload
      </label>
      <select
        id={id}
        data-testid="workload-select"
        value={current ? props.value : ''}
        disabled={props.workloads.length === 0}
        aria-describedby={current ? hintId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {!current && <option value="">{props.workloads.length ? 'Choose a workload' : 'Loading…'}</option>}
        {props.workloads
          .filter((w) => !w.model)
          .map((w) => (
            <option key={w.id} value={w.id}>
              {workloadWords(w.id, w.description).name}
            </option>
          ))}
        {props.workloads.some((w) => w.model) && (
          <optgroup label="Models of the articles’ application traces">
            {props.workloads
              .filter((w) => w.model)
              .map((w) => (
                <option key={w.id} value={w.id}>
                  {workloadWords(w.id, w.description).name}
                </option>
              ))}
          </optgroup>
        )}
      </select>
      {current && (
        <p className="hint" id={hintId} data-testid="workload-line">
          {workloadWords(current.id, current.description).line}
          {current.model && (
            <em data-testid="model-note">
              {' '}
              A model sets its own request sizes, read/write mix and queue depths, so those controls are hidden while it is chosen (their
              values wait for another workload).
            </em>
          )}
        </p>
      )}
      <FieldError message={props.problem} />
    </div>
  );
}

function OptionControl(props: {
  option: DesignOption;
  values: DesignValues;
  offer: EngineOffer;
  placeholder?: string;
  onChange(v: DesignValue | undefined): void;
  problem: string | null;
}) {
  const { option } = props;
  if (option.kind === 'choice') return <ChoiceControl {...props} option={option} />;
  return <TextControl {...props} option={option} />;
}

function ChoiceControl(props: {
  option: ChoiceOption;
  values: DesignValues;
  offer: EngineOffer;
  onChange(v: string): void;
  problem: string | null;
}) {
  const { option, offer } = props;
  const id = useId();
  const value = choiceValue(option, props.values, offer);
  const shipped = shippedChoice(option, offer);
  const current = option.choices.find((c) => c.value === value)!;
  return (
    <div className="field" data-testid={`option-${option.id}`}>
      {asButtons(option) ? (
        <>
          <span className="field-label" id={id}>
            {option.label}
          </span>
          <div className={`segmented n${option.choices.length}`} role="radiogroup" aria-labelledby={id}>
            {option.choices.map((c) => (
              <label key={c.value} className={c.value === value ? 'seg compact checked' : 'seg compact'}>
                <input
                  type="radio"
                  name={`${id}-${option.id}`}
                  value={c.value}
                  checked={c.value === value}
                  onChange={() => props.onChange(c.value)}
                  data-testid={`${option.id}-${c.value}`}
                />
                <span className="seg-main">{c.label}</span>
              </label>
            ))}
          </div>
        </>
      ) : (
        <>
          <label htmlFor={id} className="field-label">
            {option.label}
          </label>
          <select id={id} value={value} onChange={(e) => props.onChange(e.target.value)} data-testid={`${option.id}-select`}>
            {option.choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </>
      )}
      <p className="hint">
        {current.explain}
        {current.value !== shipped.value && (
          <em>{option.section === 'bed' ? ` The default: ${shipped.label.toLowerCase()}.` : ` The drive ships with ${shipped.label}.`}</em>
        )}
      </p>
      <FieldError message={props.problem} />
    </div>
  );
}

/** Number, list and text options, through the page's one typed-text field. */
function TextControl(props: {
  option: NumberOption | ListOption | TextOption;
  values: DesignValues;
  offer: EngineOffer;
  placeholder?: string;
  onChange(v: DesignValue | undefined): void;
  problem: string | null;
}) {
  const { option, offer } = props;
  const stored = props.values[option.id];
  const label = option.label.charAt(0).toUpperCase() + option.label.slice(1);
  if (option.kind === 'number') {
    const value = typeof stored === 'number' ? stored : (shippedNumber(option, offer) ?? undefined);
    return (
      <div data-testid={`option-${option.id}`}>
        <NumberField
          label={label}
          unit={option.unit}
          value={value}
          min={option.min}
          max={option.max}
          whole={option.whole}
          optional={option.optional}
          placeholder={props.placeholder}
          hint={option.explain}
          onChange={(v) => props.onChange(v)}
          problem={props.problem}
          testId={option.id}
        />
      </div>
    );
  }
  if (option.kind === 'text') {
    return (
      <div data-testid={`option-${option.id}`}>
        <ParsedField<string>
          label={label}
          value={typeof stored === 'string' ? stored : option.initial}
          optional={option.initial === undefined}
          placeholder={option.placeholder}
          inputMode="text"
          hint={option.explain}
          parse={(t) => ({ value: t.trim() })}
          format={String}
          onChange={(v) => props.onChange(v)}
          problem={props.problem}
          testId={option.id}
        />
      </div>
    );
  }
  const list = Array.isArray(stored) ? (stored as number[]) : undefined;
  return (
    <div data-testid={`option-${option.id}`}>
      <ParsedField<number[]>
        label={label}
        unit={option.unit}
        value={list}
        optional
        placeholder={props.placeholder ?? 'e.g. 700, 1200.5'}
        hint={option.explain}
        parse={(t) => parseNumberList(label, t, option.min, option.unit)}
        format={(v) => v.join(', ')}
        onChange={(v) => props.onChange(v)}
        problem={props.problem}
        testId={option.id}
      />
    </div>
  );
}

/** Every drive parameter by drive part: its value (the preset's unless overridden), unit, range
 * and a way back to the preset's value. A value outside the range is named at its field and not
 * applied; the engine's objection to a value (it also checks how parameters fit together) is
 * shown at the parameter it names. */
function ParametersPanel(props: {
  parameters: readonly ParameterInfo[] | null;
  preset: Readonly<Record<string, unknown>>;
  overrides: Overrides;
  onChange(o: Overrides): void;
  problem: { message: string; field: string } | null;
}) {
  const { overrides } = props;
  if (!props.parameters) return <p className="hint">Asking the engine for this drive’s parameters…</p>;
  const set = (path: string, v: ParamValue | undefined) => {
    const next: Record<string, ParamValue> = { ...overrides };
    if (v === undefined || v === props.preset[path]) delete next[path];
    else next[path] = v;
    props.onChange(next);
  };
  const known = new Set(props.parameters.map((p) => p.path));
  const stray = props.problem && !known.has(props.problem.field) ? props.problem.message : null;
  return (
    <div className="parameters" data-testid="parameters">
      <p className="hint">
        Every parameter of the drive model, as <code>ssdlab params</code> lists them and <code>ssdlab run --set</code> takes them. They win
        over the choices above; the engine checks how they fit together.
      </p>
      <FieldError message={stray} testId="parameters-error" />
      {groupParameters(props.parameters).map((g) => (
        <fieldset key={g.id} className="param-group" data-testid={`params-${g.id}`}>
          <legend>{g.title}</legend>
          {g.parameters.map((info) => (
            <ParameterRow
              key={info.path}
              info={info}
              value={info.path in overrides ? overrides[info.path] : (props.preset[info.path] as ParamValue | undefined)}
              changed={info.path in overrides}
              onChange={(v) => set(info.path, v)}
              problem={props.problem?.field === info.path ? props.problem.message : null}
            />
          ))}
        </fieldset>
      ))}
    </div>
  );
}

function ParameterRow(props: {
  info: ParameterInfo;
  value: ParamValue | undefined;
  changed: boolean;
  onChange(v: ParamValue | undefined): void;
  problem: string | null;
}) {
  const { info } = props;
  const id = useId();
  const unit = unitOf(info.path);
  const range = rangeText(info);
  const reset = props.changed && (
    <button type="button" className="link reset" onClick={() => props.onChange(undefined)} data-testid={`param-${info.path}-reset`}>
      Reset to the drive’s {JSON.stringify(info.value)}
    </button>
  );
  if (info.kind === 'bool' || info.kind === 'name') {
    return (
      <div className={props.changed ? 'param changed' : 'param'} data-testid={`param-${info.path}`}>
        <label htmlFor={id} className="field-label">
          <code>{info.path}</code>
        </label>
        {info.kind === 'bool' ? (
          <input
            id={id}
            type="checkbox"
            checked={props.value === true}
            onChange={(e) => props.onChange(e.target.checked)}
            data-testid={`param-${info.path}-input`}
          />
        ) : (
          <select
            id={id}
            value={String(props.value)}
            onChange={(e) => props.onChange(e.target.value)}
            data-testid={`param-${info.path}-input`}
          >
            {(info.choices ?? []).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        )}
        {reset}
        <FieldError message={props.problem} testId={`param-${info.path}-error`} />
      </div>
    );
  }
  return (
    <div className={props.changed ? 'param changed' : 'param'}>
      <ParsedField<ParamValue>
        label={info.path}
        unit={[unit, range && `range ${range}`].filter(Boolean).join(', ')}
        value={props.value}
        parse={(t) => parseParameter(info, t)}
        format={String}
        onChange={(v) => props.onChange(v)}
        inputMode={info.kind === 'text' ? 'text' : undefined}
        problem={props.problem}
        testId={`param-${info.path}`}
      />
      {reset}
    </div>
  );
}
