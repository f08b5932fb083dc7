// A lab's checkpoints read from the runs on the page: each run's per-second samples, its
// experiment's table and its power cuts, as the engine produced them. A quantity is only read
// once it is final (its window of seconds has passed, the experiment or run has finished), so a
// checkpoint never turns true on part of the data it speaks about.

import { max, min } from 'd3';
import type { ExperimentTable } from '../engine/experimentProtocol';
import type { PowerCut } from '../engine/protocol';
import { formatFixed2, formatInt } from '../format';
import type { Check, Op, Quantity, Stat } from './schema';

/** The columns of per-second samples (a ColumnStore). */
export interface SecondsColumns {
  readonly length: number;
  has(field: string): boolean;
  column(field: string): Float64Array;
  readonly fields: readonly string[];
}

/** What a lab reads of one run on the page. */
export interface RunResult {
  /** Per-second samples: the engine's for a simulation, a real drive's for a dropped fio log. */
  seconds: SecondsColumns;
  /** Whether it has results at all (a simulation that was started, or a log). */
  started: boolean;
  /** The simulation ran all its seconds (a log always has). */
  finished: boolean;
  secondsDone: number;
  powerCuts: readonly PowerCut[];
  /** The run's experiment, when one was run on its drive. */
  experiment: { finished: boolean; table: ExperimentTable | null } | null;
}

/** The runs on the page in legend order: run 1 first. */
export type LabResults = readonly RunResult[];

export type CheckStatus = 'met' | 'not-met' | 'waiting';

export interface CheckResult {
  status: CheckStatus;
  /** What was measured, or what it waits for, in words ("2.14 > 2", "waiting for run 1 to finish"). */
  detail: string;
  /** A predict checkpoint's answer, once the run has given it. */
  answer?: number | string;
}

export type Read = { value: number; text?: string } | { waiting: string } | { missing: string };

// ---- quantities --------------------------------------------------------------------------------

function stat(values: readonly number[], s: Stat): number {
  const v = values.filter((x) => Number.isFinite(x));
  if (v.length === 0) return NaN;
  switch (s) {
    case 'mean':
      return v.reduce((a, b) => a + b, 0) / v.length;
    case 'sum':
      return v.reduce((a, b) => a + b, 0);
    case 'min':
      return min(v)!;
    case 'max':
      return max(v)!; // d3's loop: a spread of a long run's seconds would overflow the stack
    case 'first':
      return v[0];
    case 'last':
      return v[v.length - 1];
    case 'median': {
      const sorted = [...v].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
    case 'spread': {
      // As the engine's steady_spread: (highest - lowest) / highest.
      const highest = max(v)!;
      return highest === 0 ? 0 : (highest - min(v)!) / highest;
    }
  }
}

function runOf(results: LabResults, n: number): RunResult | Read {
  const run = results[n - 1];
  if (!run || !run.started) return { waiting: `waiting for run ${n} to start` };
  return run;
}

function isRead(v: RunResult | Read): v is Read {
  return !('seconds' in v);
}

/** The seconds (their `second` column, or their index) and a field's values, or why not. */
function columns(run: RunResult, n: number, field: string): { xs: ArrayLike<number>; ys: Float64Array } | { missing: string } {
  const s = run.seconds;
  if (!s.has(field)) return { missing: `run ${n} has no column "${field}" (it has: ${s.fields.join(', ')})` };
  const ys = s.column(field);
  const xs = s.has('second') ? s.column('second') : Array.from({ length: ys.length }, (_, i) => i);
  return { xs, ys };
}

function readSeconds(q: Extract<Quantity, { of: 'seconds' }>, results: LabResults): Read {
  const run = runOf(results, q.run);
  if (isRead(run)) return run;
  // The window is final once the run has passed its end (or finished, for the run's end).
  if (q.to_s === null ? !run.finished : run.secondsDone < q.to_s && !run.finished) {
    return { waiting: `waiting for run ${q.run} to ${q.to_s === null ? 'finish' : `reach ${formatInt(q.to_s)} s`}` };
  }
  const c = columns(run, q.run, q.field);
  if ('missing' in c) return c;
  const picked: number[] = [];
  for (let i = 0; i < c.ys.length; i++) {
    const x = c.xs[i];
    if (x >= q.from_s && (q.to_s === null || x < q.to_s)) picked.push(c.ys[i]);
  }
  const value = stat(picked, q.stat);
  if (!Number.isFinite(value))
    return { missing: `run ${q.run} has no ${q.field} values from ${q.from_s} s${q.to_s === null ? '' : ` to ${q.to_s} s`}` };
  return { value };
}

function readFall(q: Extract<Quantity, { of: 'fall' }>, results: LabResults): Read {
  const run = runOf(results, q.run);
  if (isRead(run)) return run;
  const c = columns(run, q.run, q.field);
  if ('missing' in c) return c;
  const n = c.ys.length;
  if (n <= q.baseline_s)
    return run.finished
      ? { missing: `run ${q.run} is shorter than its ${q.baseline_s} s baseline` }
      : { waiting: `waiting for run ${q.run}'s first ${q.baseline_s} s` };
  const baseline = stat(Array.from(c.ys.subarray(0, q.baseline_s)), 'mean');
  const floor = q.below * baseline;
  for (let i = q.baseline_s; i < n; i++) {
    if (c.ys[i] < floor) return { value: c.xs[i], text: `${formatInt(c.xs[i])} s` };
  }
  return run.finished
    ? {
        missing: `run ${q.run}'s ${q.field} never fell below ${formatFixed2(q.below)} × its first ${q.baseline_s} s (${formatNumber(floor)})`,
      }
    : { waiting: `watching run ${q.run}'s ${q.field} fall below ${formatNumber(floor)}` };
}

function readTable(q: Extract<Quantity, { of: 'table' }>, results: LabResults): Read {
  const run = runOf(results, q.run);
  if (isRead(run)) return run;
  const exp = run.experiment;
  if (!exp?.finished || !exp.table) return { waiting: `waiting for run ${q.run}'s experiment to finish` };
  const t = exp.table;
  for (const name of [q.field, ...Object.keys(q.where)]) {
    if (!t.columns.includes(name))
      return { missing: `run ${q.run}'s ${t.experiment} table has no column "${name}" (it has: ${t.columns.join(', ')})` };
  }
  const at = (name: string) => t.columns.indexOf(name);
  const rows = t.rows.filter((row) => Object.entries(q.where).every(([k, v]) => row[at(k)] === v || String(row[at(k)]) === String(v)));
  const value = stat(
    rows.map((row) => Number(row[at(q.field)])),
    q.stat,
  );
  if (!Number.isFinite(value)) return { missing: `run ${q.run}'s ${t.experiment} table has no row where ${describeWhere(q.where)}` };
  return { value };
}

function readCuts(q: Extract<Quantity, { of: 'cuts' }>, results: LabResults): Read {
  const run = runOf(results, q.run);
  if (isRead(run)) return run;
  if (!run.finished) return { waiting: `waiting for run ${q.run} to finish` };
  if (run.powerCuts.length === 0) return { missing: `run ${q.run} had no power cut` };
  return {
    value: stat(
      run.powerCuts.map((c) => c[q.field]),
      q.stat,
    ),
  };
}

export function readQuantity(q: Quantity, results: LabResults): Read {
  switch (q.of) {
    case 'seconds':
      return readSeconds(q, results);
    case 'fall':
      return readFall(q, results);
    case 'table':
      return readTable(q, results);
    case 'cuts':
      return readCuts(q, results);
  }
}

// ---- checks --------------------------------------------------------------------------------------

const OP_TEST: Record<Op, (a: number, b: number) => boolean> = {
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '==': (a, b) => a === b,
};

export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 100 || Number.isInteger(v)) return formatInt(v);
  return formatFixed2(v);
}

function describeWhere(where: Record<string, string | number>): string {
  return Object.entries(where)
    .map(([k, v]) => `${k} = ${v}`)
    .join(' and ');
}

function shown(r: { value: number; text?: string }): string {
  return r.text ?? formatNumber(r.value);
}

export function evaluate(check: Check, results: LabResults): CheckResult {
  switch (check.kind) {
    case 'finished': {
      const run = results[check.run - 1];
      const done = !!run && run.started && (run.finished || run.experiment?.finished === true);
      return done
        ? { status: 'met', detail: `run ${check.run} finished` }
        : { status: 'waiting', detail: `waiting for run ${check.run} to ${run?.started ? 'finish' : 'start'}` };
    }
    case 'compare': {
      const left = readQuantity(check.left, results);
      const right: Read = typeof check.right === 'number' ? { value: check.right } : readQuantity(check.right, results);
      for (const side of [left, right]) {
        if ('missing' in side) return { status: 'not-met', detail: side.missing };
      }
      for (const side of [left, right]) {
        if ('waiting' in side) return { status: 'waiting', detail: side.waiting };
      }
      const l = left as { value: number; text?: string };
      const r = right as { value: number; text?: string };
      const target = r.value * check.times;
      const met = OP_TEST[check.op](l.value, target);
      const rightText = check.times === 1 ? shown(r) : `${formatNumber(check.times)} × ${shown(r)} = ${formatNumber(target)}`;
      return { status: met ? 'met' : 'not-met', detail: `${shown(l)} ${met ? check.op : `is not ${check.op}`} ${rightText}` };
    }
    case 'steady':
      return evaluateSteady(check, results);
  }
}

/**
 * fio's steady-state test on a deviation (`ss=iops:10%`): some `window_s` consecutive seconds
 * from `from_s` on in which every second is within `within` of the window's mean.
 */
function evaluateSteady(check: Extract<Check, { kind: 'steady' }>, results: LabResults): CheckResult {
  const run = runOf(results, check.run);
  if (isRead(run)) return { status: 'waiting', detail: `waiting for run ${check.run} to start` };
  const c = columns(run, check.run, check.field);
  if ('missing' in c) return { status: 'not-met', detail: c.missing };
  const w = check.window_s;
  let first = 0;
  while (first < c.ys.length && c.xs[first] < check.from_s) first++;
  for (let end = first + w; end <= c.ys.length; end++) {
    const endSecond = c.xs[end - 1] + 1;
    if (check.before_s !== null && endSecond > check.before_s) break;
    const win = c.ys.subarray(end - w, end);
    const mean = stat(Array.from(win), 'mean');
    if (mean > 0 && win.every((y) => Math.abs(y - mean) <= check.within * mean)) {
      return {
        status: 'met',
        detail: `steady from ${formatInt(c.xs[end - w])} s to ${formatInt(endSecond)} s, within ${formatInt(check.within * 100)} % of ${formatNumber(mean)}`,
      };
    }
  }
  const over = check.before_s !== null && c.ys.length > 0 && c.xs[c.ys.length - 1] + 1 >= check.before_s;
  if (run.finished || over) {
    const from = check.from_s > 0 ? ` from ${formatInt(check.from_s)} s` : '';
    const before = check.before_s !== null ? ` before ${formatInt(check.before_s)} s` : '';
    return {
      status: 'not-met',
      detail: `no ${w} s of ${check.field}${from} within ${formatInt(check.within * 100)} % of their mean${before}`,
    };
  }
  return { status: 'waiting', detail: `watching run ${check.run} for ${w} steady seconds` };
}
