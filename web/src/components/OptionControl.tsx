// One design option's control: choices as buttons or a select, numbers, lists and text through the
// page's typed fields. Each explains the choice in effect and shows the engine's objection to it.

import { useId } from 'react';
import {
  choiceValue,
  shippedChoice,
  shippedNumber,
  type ChoiceOption,
  type DesignOption,
  type DesignValue,
  type DesignValues,
  type EngineOffer,
  type ListOption,
  type NumberOption,
  type TextOption,
} from '../settings/options';
import { parseNumberList } from '../settings/urlState';
import { FieldError, NumberField, ParsedField } from './fields';

/** Choices shown as a row of buttons when they fit; otherwise a select. */
function asButtons(option: ChoiceOption): boolean {
  const longest = Math.max(...option.choices.map((c) => c.label.length));
  return option.choices.length * longest <= 44;
}

export function OptionControl(props: {
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
