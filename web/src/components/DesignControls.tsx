// The workload, controller-design and power-loss options, drawn from the table in design.ts,
// plus the advanced overrides. Each option explains the choice in effect in one sentence, and
// shows the engine's objection when it names what the option sets.

import { memo, useContext, useEffect, useId, useState, type ReactNode } from 'react';
import type { WorkloadInfo } from '../engine/protocol';
import {
  DESIGN_OPTIONS,
  choiceValue,
  isActive,
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
} from '../settings/design';
import { workloadWords } from '../explain/words';
import { formatOverrides, parseOverrides, type Overrides } from '../settings/overrides';
import { parseNumberList } from '../settings/urlState';
import { FieldError, InvalidFields, NumberField, ParsedField } from './fields';

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
  /** The engine's message about the current settings, and which control it belongs to. */
  problem: { place: ProblemPlace; message: string } | null;
}

const SECTIONS: readonly { id: SectionId; title: string }[] = [
  { id: 'workload', title: 'Workload' },
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

  const shownIn = (section: SectionId) => DESIGN_OPTIONS.filter((o) => o.section === section && isActive(o, values, offer));
  const hasProblem = (section: SectionId) =>
    place === section || DESIGN_OPTIONS.some((o) => o.id === place && o.section === section);

  return (
    <>
      {SECTIONS.map((section) => {
        const options = shownIn(section.id);
        if (options.length === 0 && section.id !== 'workload') return null;
        const changed = options.filter((o) => values[o.id] !== undefined).length;
        return (
          <Disclosure
            key={section.id}
            title={section.title}
            badge={changed > 0 ? `${changed} changed` : undefined}
            initiallyOpen={section.id !== 'power' || changed > 0}
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
              <WorkloadSelect
                workloads={props.workloads}
                value={props.workload}
                onChange={props.onWorkload}
                problem={place === 'workload' ? props.problem!.message : null}
              />
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
        title="Advanced"
        badge={Object.keys(props.overrides).length > 0 ? `${Object.keys(props.overrides).length} set` : undefined}
        initiallyOpen={Object.keys(props.overrides).length > 0}
        forceOpen={place === 'advanced'}
        testId="section-advanced"
      >
        <OverridesField
          overrides={props.overrides}
          onChange={props.onOverrides}
          parameters={offer.parameters}
          problem={place === 'advanced' ? props.problem!.message : null}
        />
      </Disclosure>
    </>
  );
});

/** Lays out numbers that belong to the same choice (work for / rest for) side by side. */
function OptionRows({ options, render }: { options: DesignOption[]; render(o: DesignOption): ReactNode }) {
  const parent = (o: DesignOption | undefined) => (o?.kind === 'number' ? o.shownWhen?.option : undefined);
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
  children: ReactNode;
}) {
  const [open, setOpen] = useState(props.initiallyOpen);
  // An objection inside must be seen.
  useEffect(() => {
    if (props.forceOpen) setOpen(true);
  }, [props.forceOpen]);
  return (
    <details className="section" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={props.testId}>
      <summary>
        <span className="section-title">{props.title}</span>
        {props.badge && <span className="badge">{props.badge}</span>}
      </summary>
      <div className="section-body">
        {props.children}
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

function WorkloadSelect(props: {
  workloads: readonly WorkloadInfo[];
  value: string;
  onChange(id: string): void;
  problem: string | null;
}) {
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
        {props.workloads.map((w) => (
          <option key={w.id} value={w.id}>
            {workloadWords(w.id, w.description).name}
          </option>
        ))}
      </select>
      {current && (
        <p className="hint" id={hintId}>
          {workloadWords(current.id, current.description).line}
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
        {current.value !== shipped.value && <em> The drive ships with {shipped.label}.</em>}
      </p>
      <FieldError message={props.problem} />
    </div>
  );
}

/** Number and list options, through the page's one typed-text field. */
function TextControl(props: {
  option: NumberOption | ListOption;
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

function OverridesField(props: {
  overrides: Overrides;
  onChange(o: Overrides): void;
  parameters: Readonly<Record<string, unknown>>;
  problem: string | null;
}) {
  const id = useId();
  const hintId = useId();
  const [text, setText] = useState(formatOverrides(props.overrides));
  const [syntax, setSyntax] = useState<string[]>([]);
  const [listOpen, setListOpen] = useState(false);
  const { report } = useContext(InvalidFields);
  useEffect(() => {
    report(id, syntax.length > 0 ? `Drive parameters, ${syntax[0]}` : null);
  }, [id, syntax, report]);
  useEffect(() => () => report(id, null), [id, report]);
  useEffect(() => {
    setText((t) => {
      const mine = parseOverrides(t);
      return mine.errors.length === 0 && formatOverrides(mine.overrides) === formatOverrides(props.overrides)
        ? t
        : formatOverrides(props.overrides);
    });
  }, [props.overrides]);

  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        Drive parameters
      </label>
      <p className="hint" id={hintId}>
        One <code>path=value</code> per line, as <code>ssdlab run --set</code> takes them, e.g.{' '}
        <code>gc.paced_percent=80</code>. They win over the choices above; the engine checks them.
      </p>
      <textarea
        id={id}
        rows={4}
        spellCheck={false}
        aria-describedby={hintId}
        value={text}
        placeholder={'timing.program_ns=1500000\ngc.start_free_blocks=32'}
        onChange={(e) => {
          const t = e.target.value;
          setText(t);
          const parsed = parseOverrides(t);
          setSyntax(parsed.errors);
          if (parsed.errors.length === 0) props.onChange(parsed.overrides);
        }}
        aria-invalid={syntax.length > 0 || props.problem !== null}
        data-testid="overrides-input"
      />
      {syntax.map((m) => (
        <FieldError key={m} message={m} />
      ))}
      {syntax.length === 0 && (
        <p className="field-error" role="alert" data-testid="overrides-error" hidden={!props.problem}>
          {props.problem}
        </p>
      )}
      <details className="param-list" onToggle={(e) => setListOpen(e.currentTarget.open)}>
        <summary>Every parameter of this drive</summary>
        {/* Drawn once opened: a long list the first paint need not lay out. */}
        {listOpen && (
          <dl>
            {Object.entries(props.parameters).map(([path, v]) => (
              <div key={path}>
                <dt>{path}</dt>
                <dd>{JSON.stringify(v)}</dd>
              </div>
            ))}
          </dl>
        )}
      </details>
    </div>
  );
}
