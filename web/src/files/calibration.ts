// The last calibration (public/calibration.json, written by `ssdlab calibrate --save`): every
// published figure of calibration.toml with what the model gave for it. The "how close is the
// model" view reads it; docs/CALIBRATION.md's table is printed from the same file.

import type { Evidence } from '../engine/evidence';
import { format1, formatInt } from '../format';

/** A published figure (as the engine describes one beside a run) with what the model gave for it. */
export type CalibrationOutcome = Pick<Evidence, 'figure' | 'source' | 'cites' | 'says' | 'measure' | 'expected' | 'miss'> & {
  drive: string;
  simulated: number;
  holds: boolean;
};

export interface Calibration {
  outcomes: CalibrationOutcome[];
  held: number;
}

/** A measure's value in its unit. */
export function formatMeasure(measure: string, v: number): string {
  if (measure === 'spread') return `${format1(v * 100)} %`;
  if (measure === 'dip_period_s') return v > 0 ? `${formatInt(v)} s` : 'no repeating dips';
  if (measure === 'trend' || measure === 'best_over_worst' || measure === 'latency_ratio') return `${v.toFixed(2)}×`;
  if (measure.startsWith('percent_below:')) return `${format1(v)} % of seconds`;
  if (measure === 'mb_s' || measure === 'fill_mean_mb_s' || measure === 'min_mb_s') return `${formatInt(v)} MB/s`;
  if (measure === 'first_throttle_s' || measure === 'first_throttle_len_s' || measure === 'throttled_s') return `${formatInt(v)} s`;
  if (measure === 'phase_end_gb') return `${format1(v)} GB`;
  if (measure === 'latency_mean_us') return `${format1(v)} µs`;
  return `${formatInt(v)} IOPS`;
}

export const CALIBRATION_FILE = 'calibration.json';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string';

/** The file's outcomes, or why it cannot be read (naming the outcome and its field). */
export function parseCalibration(json: unknown): { calibration: Calibration } | { error: string } {
  if (!isObj(json) || !Array.isArray(json.outcomes)) return { error: `${CALIBRATION_FILE}: no "outcomes" list` };
  const outcomes: CalibrationOutcome[] = [];
  for (const [i, o] of json.outcomes.entries()) {
    const where = `${CALIBRATION_FILE}, outcome ${i + 1}`;
    if (!isObj(o)) return { error: `${where}: not an object` };
    for (const key of ['drive', 'figure', 'source', 'says', 'measure', 'expected'] as const) {
      if (!isText(o[key])) return { error: `${where}: "${key}" must be text` };
    }
    if (typeof o.simulated !== 'number' || !Number.isFinite(o.simulated)) return { error: `${where}: "simulated" must be a number` };
    if (typeof o.holds !== 'boolean') return { error: `${where}: "holds" must be true or false` };
    if (!Array.isArray(o.cites) || !o.cites.every(isText)) return { error: `${where}: "cites" must be a list of titles` };
    if (o.miss != null && !isText(o.miss)) return { error: `${where}: "miss" must be text` };
    outcomes.push(o as unknown as CalibrationOutcome);
  }
  return { calibration: { outcomes, held: outcomes.filter((o) => o.holds).length } };
}

/** The outcomes by drive, in the file's order (calibration.toml's). */
export function byDrive(outcomes: readonly CalibrationOutcome[]): [string, CalibrationOutcome[]][] {
  const groups = new Map<string, CalibrationOutcome[]>();
  for (const o of outcomes) groups.set(o.drive, [...(groups.get(o.drive) ?? []), o]);
  return [...groups];
}
