import { describe, expect, it } from 'vitest';
import { ColumnStore } from '../data/columns';
import type { PowerCut } from '../engine/protocol';
import { evaluate, type RunResult } from './checkpoints';
import type { Check, Quantity } from './schema';

/** A run with these per-second values (second 0, 1, ...). */
function run(columns: Record<string, number[]>, opts: Partial<Omit<RunResult, 'seconds'>> & { planned?: number } = {}): RunResult {
  const fields = ['second', ...Object.keys(columns)];
  const n = Object.values(columns)[0]?.length ?? 0;
  const store = new ColumnStore(fields);
  const data = new Float64Array(fields.length * n);
  for (let i = 0; i < n; i++) data[i] = i;
  Object.values(columns).forEach((c, k) => data.set(c, (k + 1) * n));
  store.appendColumnMajor(fields, n, data);
  return { seconds: store, started: true, finished: true, secondsDone: n, powerCuts: [], experiment: null, ...opts };
}

const seconds = (
  r: number,
  field: string,
  stat: Extract<Quantity, { of: 'seconds' }>['stat'],
  from_s = 0,
  to_s: number | null = null,
): Quantity => ({
  of: 'seconds',
  run: r,
  field,
  stat,
  from_s,
  to_s,
});
const compare = (left: Quantity, op: '>' | '<' | '>=' | '<=' | '==', right: Quantity | number, times = 1): Check => ({
  kind: 'compare',
  left,
  op,
  right,
  times,
});

// A fresh drive at 60K IOPS for 10 s, then 20K to 30K IOPS after its wall.
const FRESH = Array.from({ length: 10 }, () => 60_000);
const AFTER = Array.from({ length: 30 }, (_, i) => 20_000 + (i < 10 ? i * 800 : 10_000 + (i % 2) * 300));
const CLIFF = [...FRESH, ...AFTER];

describe('compare', () => {
  it('reads a statistic over a window of seconds against a number', () => {
    const results = [run({ iops: CLIFF })];
    expect(evaluate(compare(seconds(1, 'iops', 'mean', 0, 10), '>', 50_000), results)).toEqual({
      status: 'met',
      detail: '60,000 > 50,000',
    });
    expect(evaluate(compare(seconds(1, 'iops', 'min', 10), '>', 25_000), results)).toEqual({
      status: 'not-met',
      detail: '20,000 is not > 25,000',
    });
  });

  it('against another quantity times a factor', () => {
    const results = [run({ iops: CLIFF }), run({ iops: CLIFF.map((v) => v * 2) })];
    const check = compare(seconds(2, 'iops', 'mean', 20), '>=', seconds(1, 'iops', 'mean', 20), 1.5);
    const r = evaluate(check, results);
    expect(r.status).toBe('met');
    expect(r.detail).toMatch(/^60,\d{3} >= 1.50 × 30,\d{3} = 45,\d{3}$/);
  });

  it('waits until the window has passed: part of a window never decides', () => {
    const partial = run({ iops: CLIFF.slice(0, 15) }, { finished: false });
    expect(evaluate(compare(seconds(1, 'iops', 'min', 0, 20), '>', 50_000), [partial])).toEqual({
      status: 'waiting',
      detail: 'waiting for run 1 to reach 20 s',
    });
    expect(evaluate(compare(seconds(1, 'iops', 'max', 10), '<', 1), [partial])).toEqual({
      status: 'waiting',
      detail: 'waiting for run 1 to finish',
    });
    // A window already passed is read while the run goes on.
    expect(evaluate(compare(seconds(1, 'iops', 'mean', 0, 10), '==', 60_000), [partial]).status).toBe('met');
  });

  it('waits for a run that has not started, and names a column the run does not have', () => {
    const idle: RunResult = { ...run({ iops: [] }), started: false, finished: false };
    expect(evaluate(compare(seconds(1, 'iops', 'mean'), '>', 1), [idle])).toEqual({
      status: 'waiting',
      detail: 'waiting for run 1 to start',
    });
    expect(evaluate(compare(seconds(2, 'iops', 'mean'), '>', 1), [run({ iops: CLIFF })]).detail).toBe('waiting for run 2 to start');
    const r = evaluate(compare(seconds(1, 'wa', 'last'), '>', 1), [run({ iops: CLIFF })]);
    expect(r).toEqual({ status: 'not-met', detail: 'run 1 has no column "wa" (it has: second, iops)' });
  });

  it('statistics: median, spread (as the engine’s steady_spread), sum, first and last', () => {
    const results = [run({ iops: [10, 40, 20, 30] })];
    const value = (stat: Extract<Quantity, { of: 'seconds' }>['stat']) =>
      evaluate(compare(seconds(1, 'iops', stat), '>', -1), results).detail.split(' ')[0];
    expect(['median', 'spread', 'sum', 'first', 'last', 'min', 'max', 'mean'].map((s) => value(s as 'mean'))).toEqual([
      '25',
      '0.75',
      '100',
      '10',
      '30',
      '10',
      '40',
      '25',
    ]);
  });
});

describe('the second of a fall (the wall)', () => {
  const fall = (below: number): Quantity => ({ of: 'fall', run: 1, field: 'iops', below, baseline_s: 5 });

  it('is the first second below a share of the first seconds’ mean', () => {
    expect(evaluate(compare(fall(0.5), '<', 60), [run({ iops: CLIFF })])).toEqual({ status: 'met', detail: '10 s < 60' });
  });

  it('is watched while the run goes on, and missing once it finished without falling', () => {
    expect(evaluate(compare(fall(0.5), '<', 60), [run({ iops: FRESH }, { finished: false })]).status).toBe('waiting');
    const r = evaluate(compare(fall(0.5), '<', 60), [run({ iops: FRESH })]);
    expect(r.status).toBe('not-met');
    expect(r.detail).toContain('never fell below 0.50 × its first 5 s (30,000)');
  });

  it('compares between runs: the later wall', () => {
    const later = [...FRESH, ...FRESH, ...AFTER];
    const check = compare({ of: 'fall', run: 2, field: 'iops', below: 0.7, baseline_s: 5 }, '>', fall(0.7));
    expect(evaluate(check, [run({ iops: CLIFF }), run({ iops: later })])).toEqual({ status: 'met', detail: '20 s > 10 s' });
  });
});

describe('steady', () => {
  const steady = (within: number, from_s = 10, before_s: number | null = null): Check => ({
    kind: 'steady',
    run: 1,
    field: 'iops',
    window_s: 10,
    within,
    from_s,
    before_s,
  });

  it('finds a window of seconds all within a share of their mean (fio’s steady state)', () => {
    // The fresh seconds are steady too; from 10 s on, the first steady window is after the climb.
    expect(evaluate(steady(0.05, 0), [run({ iops: CLIFF })]).detail).toBe('steady from 0 s to 10 s, within 5 % of 60,000');
    expect(evaluate(steady(0.05), [run({ iops: CLIFF })])).toEqual({
      status: 'met',
      detail: 'steady from 20 s to 30 s, within 5 % of 30,150',
    });
  });

  it('is not met when the seconds never settle, or only settle too late', () => {
    expect(evaluate(steady(0.001), [run({ iops: CLIFF })])).toEqual({
      status: 'not-met',
      detail: 'no 10 s of iops from 10 s within 0 % of their mean',
    });
    expect(evaluate(steady(0.05, 10, 25), [run({ iops: CLIFF })]).status).toBe('not-met');
    expect(evaluate(steady(0.001), [run({ iops: CLIFF }, { finished: false })]).status).toBe('waiting');
  });
});

describe('experiment tables and power cuts', () => {
  const table = {
    experiment: 'four-corners',
    columns: ['corner', 'queue_depth', 'iops'],
    rows: [
      ['random-read', 1, 7_500],
      ['random-read', 32, 77_000],
      ['random-write', 1, 66_000],
    ],
  };
  const cell = (where: Record<string, string | number>, stat: 'mean' | 'max' = 'mean'): Quantity => ({
    of: 'table',
    run: 1,
    field: 'iops',
    where,
    stat,
  });

  it('reads a cell picked by its row’s values, once the experiment has finished', () => {
    const done = run({}, { experiment: { finished: true, table } });
    const check = compare(cell({ corner: 'random-read', queue_depth: 32 }), '>', cell({ corner: 'random-read', queue_depth: 1 }), 4);
    expect(evaluate(check, [done])).toEqual({ status: 'met', detail: '77,000 > 4 × 7,500 = 30,000' });
    expect(evaluate(compare(cell({ queue_depth: 1 }, 'max'), '==', 66_000), [done]).status).toBe('met');
    const running = run({}, { experiment: { finished: false, table } });
    expect(evaluate(check, [running])).toEqual({ status: 'waiting', detail: 'waiting for run 1’s experiment to finish'.replace('’', "'") });
  });

  it('names a row or column the table does not have', () => {
    const done = [run({}, { experiment: { finished: true, table } })];
    expect(evaluate(compare(cell({ corner: 'trim' }), '>', 1), done).detail).toBe(
      "run 1's four-corners table has no row where corner = trim",
    );
    expect(evaluate(compare(cell({ drives: 4 }), '>', 1), done).detail).toBe(
      'run 1\'s four-corners table has no column "drives" (it has: corner, queue_depth, iops)',
    );
  });

  it('reads the power cuts once the run has finished', () => {
    const cut = (lost: number): PowerCut => ({
      at_s: 20,
      acknowledged_writes_lost: lost,
      writes_at_risk: 256,
      flushed_units: 0,
      energy_needed_uj: 1,
      energy_stored_uj: 0,
      rebuild_ms: 9,
    });
    const lost = (stat: 'first' | 'last' | 'sum'): Quantity => ({ of: 'cuts', run: 1, field: 'acknowledged_writes_lost', stat });
    const results = [run({ iops: CLIFF }, { powerCuts: [cut(256), cut(0)] })];
    expect(evaluate(compare(lost('first'), '>', 0), results).status).toBe('met');
    expect(evaluate(compare(lost('last'), '==', 0), results).status).toBe('met');
    expect(evaluate(compare(lost('sum'), '==', 0), results)).toEqual({ status: 'not-met', detail: '256 is not == 0' });
    expect(evaluate(compare(lost('sum'), '==', 0), [run({ iops: CLIFF }, { powerCuts: [cut(0)], finished: false })]).status).toBe(
      'waiting',
    );
    expect(evaluate(compare(lost('sum'), '==', 0), [run({ iops: CLIFF })]).detail).toBe('run 1 had no power cut');
  });
});

describe('finished', () => {
  it('is met when the run or its experiment has finished', () => {
    const check: Check = { kind: 'finished', run: 1 };
    expect(evaluate(check, [run({ iops: CLIFF })]).status).toBe('met');
    expect(evaluate(check, [run({ iops: CLIFF }, { finished: false })]).status).toBe('waiting');
    const exp = run({}, { finished: false, experiment: { finished: true, table: null } });
    expect(evaluate(check, [exp]).status).toBe('met');
  });
});
