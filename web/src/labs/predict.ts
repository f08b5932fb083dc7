// Predict, then run: a predict checkpoint (schema.ts) reads its answer from the runs only once
// the student has locked a prediction, then shows the answer beside the prediction with the
// error. The hand-in (report.ts) writes the same outcome.

import { evaluate, formatNumber, readQuantity, type CheckResult, type LabResults, type Read } from './checkpoints';
import type { Check, PredictCheck } from './schema';

/** A prediction against the run's answer: a number's error (absolute and in % of the answer), or whether the pick was right. */
export type Outcome =
  | { predicted: number; answer: number; unit: string; error: number; error_percent: number | null; close: boolean }
  | { predicted: string; answer: string; correct: boolean };

export function outcome(check: PredictCheck, predicted: number | string, answer: number | string): Outcome {
  if ('answer' in check) {
    const p = Number(predicted);
    const a = Number(answer);
    const error = p - a;
    const share = a === 0 ? null : error / Math.abs(a);
    return {
      predicted: p,
      answer: a,
      unit: check.unit,
      error,
      error_percent: share === null ? null : Math.round(share * 1000) / 10,
      close: share === null ? error === 0 : Math.abs(share) <= check.close,
    };
  }
  return { predicted: String(predicted), answer: String(answer), correct: predicted === answer };
}

const signed = (v: number, text: string) => (v > 0 ? `+${text}` : v < 0 ? `−${text.replace(/^-/, '')}` : text);

/** The outcome in words: "predicted 20,000 IOPS · the run: 24,512 IOPS · error −4,512 IOPS (−18.4 %): close (within ±20 %)". */
export function describeOutcome(o: Outcome, close?: number): string {
  if ('correct' in o) return `picked “${o.predicted}” · the run: “${o.answer}” · ${o.correct ? 'right' : 'wrong'}`;
  const pct = o.error_percent === null ? '' : ` (${signed(o.error_percent, `${o.error_percent.toFixed(1)} %`)})`;
  const within = close === undefined ? '' : ` (within ±${formatNumber(close * 100)} %)`;
  return (
    `predicted ${formatNumber(o.predicted)} ${o.unit} · the run: ${formatNumber(o.answer)} ${o.unit} · ` +
    `error ${signed(o.error, formatNumber(o.error))} ${o.unit}${pct}: ${o.close ? 'close' : 'not close'}${within}`
  );
}

function notFinal(reads: readonly Read[]): CheckResult | null {
  for (const r of reads) if ('missing' in r) return { status: 'not-met', detail: r.missing };
  for (const r of reads) if ('waiting' in r) return { status: 'waiting', detail: r.waiting };
  return null;
}

/**
 * A predict checkpoint: waiting for a prediction (nothing of the answer is read before one is
 * locked), then for the run, then met with the answer beside the prediction.
 */
export function evaluatePredict(check: PredictCheck, results: LabResults, predicted: number | string | undefined): CheckResult {
  if (predicted === undefined) {
    const started = results.some((r) => r.started);
    return {
      status: 'waiting',
      detail: started
        ? 'predict first: the run started before a prediction was locked; set the step up again, predict, then run it'
        : 'predict first: lock your prediction, then run the step',
    };
  }
  if ('answer' in check) {
    const read = readQuantity(check.answer, results);
    if (!('value' in read)) return notFinal([read])!;
    return { status: 'met', detail: describeOutcome(outcome(check, predicted, read.value), check.close), answer: read.value };
  }
  const reads = check.among.map((q) => readQuantity(q, results));
  const unfinished = notFinal(reads);
  if (unfinished) return unfinished;
  const values = reads.map((r) => (r as { value: number }).value);
  const best = check.pick === 'highest' ? Math.max(...values) : Math.min(...values);
  const answer = check.choices[values.indexOf(best)];
  const measured = check.choices.map((c, i) => `${c}: ${formatNumber(values[i])}`).join(', ');
  return { status: 'met', detail: `${describeOutcome(outcome(check, predicted, answer))} (${measured})`, answer };
}

/** Any checkpoint's state: a predict checkpoint with the student's prediction, the others from the results alone. */
export function evaluateCheckpoint(check: Check | PredictCheck, results: LabResults, predicted: number | string | undefined): CheckResult {
  return check.kind === 'predict' ? evaluatePredict(check, results, predicted) : evaluate(check, results);
}
