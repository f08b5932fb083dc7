// The synthetic workloads and the models of the articles' application traces, as one select.

import { useId } from 'react';
import type { WorkloadInfo } from '../engine/protocol';
import { workloadWords } from '../explain/words';
import { FieldError } from './fields';

export function WorkloadSelect(props: {
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
