// A step's predictions, asked before its runs: the student types a number (in the checkpoint's
// unit) or picks an option, and locks it. A prediction can be locked only while none of the
// step's runs has started, and is never changed after (Start over clears it); the checkpoint then
// reads the answer from the run and shows it beside the prediction (labs/predict.ts).

import { useId, useState } from 'react';
import { formatPlain, parseDecimal } from '../format';
import type { Prediction } from '../labs/progress';
import type { Checkpoint, PredictCheck } from '../labs/schema';

export interface LabPredictProps {
  checkpoint: Checkpoint & { check: PredictCheck };
  prediction: Prediction | undefined;
  /** False once the step's runs have started: a prediction made then would not be one. */
  canLock: boolean;
  onLock(value: number | string): void;
}

export function LabPredict({ checkpoint: c, prediction, canLock, onLock }: LabPredictProps) {
  const ids = useId();
  const [typed, setTyped] = useState('');
  const check = c.check;
  const unit = 'answer' in check ? ` ${check.unit}` : '';
  if (prediction) {
    return (
      <p className="lab-predict locked" data-testid={`lab-predict-${c.id}-locked`}>
        <span className="lab-predict-q">{c.text}</span> Your prediction:{' '}
        <strong>
          {typeof prediction.value === 'number' ? formatPlain(prediction.value) : prediction.value}
          {unit}
        </strong>{' '}
        (locked)
      </p>
    );
  }
  const value = 'answer' in check ? parseDecimal(typed) : typed;
  const ready = canLock && ('answer' in check ? Number.isFinite(value) : typed !== '');
  const hint = canLock ? null : 'The step’s runs have started: set the step up again to predict before they run.';
  return (
    <form
      className="lab-predict"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) onLock(value);
      }}
      data-testid={`lab-predict-${c.id}`}
    >
      {'answer' in check ? (
        <label className="field">
          <span className="field-label">
            {c.text} <span className="unit">({check.unit})</span>
          </span>
          <input
            type="number"
            inputMode="decimal"
            step="any"
            value={typed}
            disabled={!canLock}
            aria-describedby={hint ? `${ids}-hint` : undefined}
            onChange={(e) => setTyped(e.target.value)}
            data-testid={`lab-predict-${c.id}-value`}
          />
        </label>
      ) : (
        <fieldset className="lab-predict-choices" disabled={!canLock} aria-describedby={hint ? `${ids}-hint` : undefined}>
          <legend>{c.text}</legend>
          {check.choices.map((choice, i) => (
            <label key={choice}>
              <input
                type="radio"
                name={`${ids}-choice`}
                value={choice}
                checked={typed === choice}
                onChange={() => setTyped(choice)}
                data-testid={`lab-predict-${c.id}-choice-${i + 1}`}
              />{' '}
              {choice}
            </label>
          ))}
        </fieldset>
      )}
      <button type="submit" disabled={!ready} data-testid={`lab-predict-${c.id}-lock`}>
        Lock prediction
      </button>
      {hint && (
        <p className="hint" id={`${ids}-hint`}>
          {hint}
        </p>
      )}
    </form>
  );
}
