// The advanced panel: every drive parameter by drive part, as the engine describes them.

import { useId } from 'react';
import type { ParameterInfo } from '../engine/protocol';
import type { ParamValue } from '../settings/options';
import type { Overrides } from '../settings/overrides';
import { groupParameters, parseParameter, rangeText, unitOf } from '../settings/parameters';
import { FieldError, ParsedField } from './fields';

/** Every drive parameter by drive part: its value (the preset's unless overridden), unit, range
 * and a way back to the preset's value. A value outside the range is named at its field and not
 * applied; the engine's objection to a value (it also checks how parameters fit together) is
 * shown at the parameter it names. */
export function ParametersPanel(props: {
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
