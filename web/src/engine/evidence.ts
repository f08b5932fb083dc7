// A published figure (engine/core/calibration.toml, as `ssdlab calibrate` runs it) beside a
// run or an experiment's table, as the engine gives it, and its shape check.

import { isNum, isObj, isStr, isStrList } from './shapes';

/** A figure beside a run: the wasm `evidence()` answer (beside a table: experimentProtocol's TableFigure). */
export interface Evidence {
  figure: string;
  source: string;
  /** The works the source cites ("AnandTech's review of ..."), and its words without them. */
  cites: string[];
  says: string;
  /** What is measured over the window: mean, min, max (IOPS), mb_s, dip_period_s, ... */
  measure: string;
  /** The target as text ("29,000 to 35,000"). */
  expected: string;
  /** The figure's own number, where its bounds are wider. */
  published?: number;
  target?: number | null;
  min?: number | null;
  max?: number | null;
  /** Why the model is known to miss it. */
  miss?: string | null;
  /** The window: from this second to the end of a run of `seconds`. */
  window_from_s: number;
  seconds: number;
  /** The conditions in which this run differs from the figure's, in words; null: comparable. */
  not_comparable: string | null;
  /** This run's value of the measure once it has all its seconds. */
  simulated: number | null;
  holds: boolean | null;
}

export function isEvidence(v: unknown): v is Evidence {
  const numOrNull = (x: unknown) => x === null || isNum(x);
  return (
    isObj(v) &&
    isStr(v.figure) &&
    isStr(v.source) &&
    isStrList(v.cites) &&
    isStr(v.says) &&
    isStr(v.measure) &&
    isStr(v.expected) &&
    isNum(v.window_from_s) &&
    isNum(v.seconds) &&
    (v.not_comparable === null || isStr(v.not_comparable)) &&
    numOrNull(v.simulated) &&
    (v.holds === null || typeof v.holds === 'boolean') &&
    (v.published === undefined || isNum(v.published))
  );
}
