// The one typed-text field of the page (numbers and lists of numbers) and the one way a field
// shows what is wrong with it. A field never rewrites what is being typed: the text stays as
// typed, a valid value is applied, and an invalid one leaves the last valid value in effect with
// a message at the field naming the control and what it accepts. Invalid fields are reported
// to the page (InvalidFields) so Start can say why it is disabled.

import { createContext, useContext, useEffect, useId, useState, type ReactNode } from 'react';
import { toggleName } from '../settings/placementExperiment';
import { parseNumberText, type Parsed } from '../settings/urlState';

export function FieldError({ message, id, testId }: { message: string | null; id?: string; testId?: string }) {
  if (!message) return null;
  return (
    <p className="field-error" role="alert" id={id} data-testid={testId}>
      {message}
    </p>
  );
}

/** Fields whose text is not a valid value right now: key -> message. */
export interface InvalidFieldsApi {
  report(key: string, message: string | null): void;
}
export const InvalidFields = createContext<InvalidFieldsApi>({ report: () => {} });

export interface ParsedFieldProps<T> {
  label: string;
  unit?: string;
  /** The value in effect (undefined: empty, the engine's default). */
  value: T | undefined;
  /** Reads the text; errors name the control and the allowed values. */
  parse(text: string): Parsed<T>;
  format(value: T): string;
  /** Called with a valid value, or undefined when the field is emptied (and `optional`). */
  onChange(value: T | undefined): void;
  optional?: boolean;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  hint?: ReactNode;
  /** The engine's objection to this control's value, already worded for it. */
  problem?: string | null;
  testId?: string;
}

export function ParsedField<T>(props: ParsedFieldProps<T>) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const { report } = useContext(InvalidFields);
  const shown = props.value === undefined ? '' : props.format(props.value);
  const [text, setText] = useState(shown);
  const [syntax, setSyntax] = useState<string | null>(null);

  // Follow changes made elsewhere (a link, a reset), unless the text already means that value.
  // Adjusted while rendering (React's pattern for state that follows a prop), not in an effect.
  const [followed, setFollowed] = useState(shown);
  if (shown !== followed) {
    setFollowed(shown);
    const mine = text.trim() === '' ? undefined : props.parse(text);
    const same = mine === undefined ? shown === '' : mine.error === undefined && props.format(mine.value) === shown;
    if (!same) {
      setText(shown);
      setSyntax(null);
    }
  }

  useEffect(() => {
    report(id, syntax);
  }, [id, syntax, report]);
  useEffect(() => () => report(id, null), [id, report]);

  const onText = (t: string) => {
    setText(t);
    if (t.trim() === '') {
      if (props.optional) {
        setSyntax(null);
        props.onChange(undefined);
      } else {
        setSyntax(`${props.label}: needs a value`);
      }
      return;
    }
    const parsed = props.parse(t);
    if (parsed.error !== undefined) {
      setSyntax(parsed.error);
    } else {
      setSyntax(null);
      props.onChange(parsed.value);
    }
  };

  const message = syntax ?? props.problem ?? null;
  return (
    <div className="field" data-testid={props.testId ? `field-${props.testId}` : undefined}>
      <label htmlFor={id} className="field-label">
        {props.label}
        {props.unit && <span className="unit"> ({props.unit})</span>}
      </label>
      <input
        id={id}
        type="text"
        inputMode={props.inputMode ?? 'decimal'}
        autoComplete="off"
        value={text}
        placeholder={props.placeholder}
        onChange={(e) => onText(e.target.value)}
        aria-invalid={message !== null}
        aria-describedby={[props.hint ? hintId : '', message ? errorId : ''].filter(Boolean).join(' ') || undefined}
        data-testid={props.testId ? `${props.testId}-input` : undefined}
      />
      {props.hint && (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      )}
      <FieldError message={message} id={errorId} testId={props.testId ? `${props.testId}-error` : undefined} />
    </div>
  );
}

export interface NumberFieldProps extends Omit<ParsedFieldProps<number>, 'parse' | 'format' | 'inputMode'> {
  min: number;
  max: number;
  whole: boolean;
}

export function NumberField({ min, max, whole, ...rest }: NumberFieldProps) {
  return (
    <ParsedField<number>
      {...rest}
      inputMode={whole && min >= 0 ? 'numeric' : 'decimal'}
      parse={(t) => parseNumberText(rest.label, t, min, max, whole)}
      format={String}
    />
  );
}

/** A choice of names, one checkbox each; the last one chosen stays (a run needs one). */
export function NameChecks(props: {
  legend: string;
  names: readonly string[];
  words: Record<string, string>;
  chosen: readonly string[];
  onChange(next: string[]): void;
  problem: string | null;
  testId: string;
}) {
  return (
    <fieldset className="field name-checks" data-testid={props.testId}>
      <legend className="field-label">{props.legend}</legend>
      {props.names.map((n) => {
        const on = props.chosen.includes(n);
        return (
          <label key={n} className="check">
            <input
              type="checkbox"
              checked={on}
              disabled={on && props.chosen.length === 1}
              onChange={() => props.onChange(toggleName(props.chosen, n, props.names))}
              data-testid={`${props.testId}-${n}`}
            />{' '}
            {props.words[n] ?? n}
          </label>
        );
      })}
      <FieldError message={props.problem} />
    </fieldset>
  );
}
