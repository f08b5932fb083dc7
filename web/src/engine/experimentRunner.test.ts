import { describe, expect, it } from 'vitest';
import { parseExperimentToPage, parsePageToExperiment, splitEngineError, type ExperimentToPage } from './experimentProtocol';
import { ExperimentLoop, SEND_EVERY_MS, type EngineExperiment, type ExperimentModule } from './experimentRunner';
import { RECOVERY_INFO } from './fakeExperiments';

const INFO = {
  id: 'four-corners',
  title: 'T',
  article: 'A',
  about: 'B',
  seconds: 60,
  ramp_seconds: 10,
  queue_depths: [1, 2],
  columns: ['corner', 'queue_depth', 'iops'],
  ...RECOVERY_INFO,
};

const FIGURE = {
  figure: '4 KB random read QD1',
  source: '[003] ~1,000 IOPS',
  cites: ['a review'],
  says: '~1,000 IOPS',
  measure: 'mean',
  expected: '1000 ± 15 %',
  target: 1000,
  window_from_s: 1,
  seconds: 5,
  not_comparable: null,
  block_bytes: 4096,
};

/** A stand-in for the wasm module: two points of two rows each, a row per 1000 host IOs. */
function fakeEngine() {
  const made: FakeExperiment[] = [];
  class FakeExperiment implements EngineExperiment {
    ios = 0;
    freed = false;
    constructor(json: string) {
      const r = JSON.parse(json);
      if (r.seconds === 0) throw new Error('seconds: must be between 1 and 86400 (got 0)');
      made.push(this);
    }
    rows(): number {
      return Math.min(4, Math.floor(this.ios / 1000));
    }
    advance(maxIos: number): number {
      if (this.freed) throw new Error('null pointer passed to rust');
      const before = this.rows();
      this.ios += Math.min(maxIos, 500);
      return this.rows() - before;
    }
    finished() {
      return this.rows() === 4;
    }
    progress_json() {
      return JSON.stringify({
        points_done: Math.floor(this.rows() / 2),
        points: 2,
        seconds_done: (this.ios / 100) % 10,
        seconds: 10,
        written_bytes: 0,
        bytes: 0,
      });
    }
    table(): (string | number)[][] {
      return Array.from({ length: this.rows() }, (_, i) => [i < 2 ? 'a' : 'b', i % 2 ? 2 : 1, 1000 + i]);
    }
    table_json() {
      return JSON.stringify({ experiment: 'four-corners', columns: INFO.columns, rows: this.table() });
    }
    rows_json(from: number) {
      return JSON.stringify(this.table().slice(from));
    }
    /** The figure at corner b, QD1 (the third row): its verdict once that row is in. */
    figures_json() {
      const iops = this.rows() >= 3 ? 1002 : null;
      return JSON.stringify([
        {
          ...FIGURE,
          row: { corner: 'b', queue_depth: 1 },
          column: 'iops',
          simulated: iops,
          holds: iops === null ? null : true,
        },
      ]);
    }
    csv(from: number) {
      const lines = this.table()
        .slice(from)
        .map((r) => `${r.join(',')}\n`);
      return (from === 0 ? `${INFO.columns.join(',')}\n` : '') + lines.join('');
    }
    free() {
      this.freed = true;
    }
  }
  const engine: ExperimentModule = { experiments: () => JSON.stringify([INFO]), Experiment: FakeExperiment };
  return { engine, made };
}

/** The loop with the fake engine; the clock moves `stepMs` at each look (twice a slice). */
function harness(stepMs = 5) {
  const { engine, made } = fakeEngine();
  const posted: ExperimentToPage[] = [];
  const queue: (() => void)[] = [];
  let t = 0;
  const loop = new ExperimentLoop(engine, {
    post: (m) => {
      // Everything crosses as the page would receive it.
      expect(parseExperimentToPage(JSON.parse(JSON.stringify(m)))).not.toBeNull();
      posted.push(m);
    },
    schedule: (fn) => queue.push(fn),
    now: () => (t += stepMs),
  });
  const tick = () => {
    const fn = queue.shift();
    fn?.();
    return fn !== undefined;
  };
  const of = <K extends ExperimentToPage['type']>(type: K) =>
    posted.filter((m) => m.type === type) as Extract<ExperimentToPage, { type: K }>[];
  return { loop, posted, tick, of, made };
}

const REQUEST = { experiment: 'four-corners', drive: 's3700-200', seconds: 2 };

describe('ExperimentLoop', () => {
  it('announces the experiments, then streams rows as points complete and finishes with the table', () => {
    // Slices longer than SEND_EVERY_MS: each one updates the page.
    const h = harness(SEND_EVERY_MS);
    h.loop.announce();
    expect(h.of('ready')[0].experiments[0].id).toBe('four-corners');
    h.loop.handle({ type: 'start', request: REQUEST });
    expect(h.of('started')[0].columns).toEqual(INFO.columns);
    expect(h.of('started')[0].figures[0]).toMatchObject({ row: { corner: 'b', queue_depth: 1 }, simulated: null });
    // A slice is one message to the page (one update of it): its rows, with the progress and time
    // so far, or its progress alone.
    const perSlice: string[][] = [];
    for (let before = h.posted.length; h.tick(); before = h.posted.length) {
      perSlice.push(
        h.posted
          .slice(before)
          .map((m) => m.type)
          .filter((t) => t !== 'state'),
      );
    }
    expect(perSlice.every((types) => types.length === 1)).toBe(true);
    const rows = h.of('rows');
    // Each batch brings only its new rows and their CSV lines (the first with the header).
    expect(rows.map((m) => m.rows)).toEqual([[['a', 1, 1000]], [['a', 2, 1001]], [['b', 1, 1002]]]);
    expect(rows.map((m) => m.csv)).toEqual(['corner,queue_depth,iops\na,1,1000\n', 'a,2,1001\n', 'b,1,1002\n']);
    // Each batch of rows brings the figures' verdicts so far.
    expect(rows.map((m) => m.figures[0].simulated)).toEqual([null, null, 1002]);
    expect(rows.map((m) => m.elapsed_ms)).toEqual(rows.map((m) => m.elapsed_ms).sort((x, y) => x - y));
    expect(rows[0].elapsed_ms).toBeGreaterThan(0);
    const fin = h.of('finished');
    expect(fin).toHaveLength(1);
    expect(fin[0].rows).toEqual([['b', 2, 1003]]);
    expect(fin[0].csv).toBe('b,2,1003\n');
    expect(fin[0].figures[0]).toMatchObject({ simulated: 1002, holds: true });
    expect(fin[0].progress.points_done).toBe(2);
    expect(h.loop.getState()).toBe('finished');
    expect(h.made[0].freed).toBe(true);
  });

  it('updates the page at most every SEND_EVERY_MS, losing no row, and shows the rows so far on pause and stop', () => {
    const fast = harness(5);
    fast.loop.handle({ type: 'start', request: REQUEST });
    while (fast.tick());
    // The first slice shows the start; the other seven take 70 ms in all, so the rest of the
    // rows come with the end.
    expect(fast.of('progress')).toHaveLength(1);
    expect(fast.of('rows')).toHaveLength(0);
    expect(fast.of('finished')[0].rows).toEqual([
      ['a', 1, 1000],
      ['a', 2, 1001],
      ['b', 1, 1002],
      ['b', 2, 1003],
    ]);
    expect(fast.of('finished')[0].csv).toBe('corner,queue_depth,iops\na,1,1000\na,2,1001\nb,1,1002\nb,2,1003\n');

    const h = harness(5);
    h.loop.handle({ type: 'start', request: REQUEST });
    for (let i = 0; i < 4; i++) h.tick(); // 2,000 IOs: two rows, not sent yet
    expect(h.of('rows')).toHaveLength(0);
    h.loop.handle({ type: 'pause' });
    expect(h.loop.getState()).toBe('paused');
    expect(h.of('rows').map((m) => m.rows)).toEqual([
      [
        ['a', 1, 1000],
        ['a', 2, 1001],
      ],
    ]);
    h.loop.handle({ type: 'resume' });
    h.tick();
    h.tick(); // the third row
    h.loop.handle({ type: 'stop' });
    expect(h.of('rows').map((m) => m.rows)).toEqual([
      [
        ['a', 1, 1000],
        ['a', 2, 1001],
      ],
      [['b', 1, 1002]],
    ]);
    expect(h.loop.getState()).toBe('stopped');
  });

  it('pauses between slices, resumes, and stops keeping the rows so far', () => {
    const h = harness();
    h.loop.announce();
    h.loop.handle({ type: 'start', request: REQUEST });
    h.tick();
    h.tick();
    h.loop.handle({ type: 'pause' });
    expect(h.tick()).toBe(true); // the slice already queued does nothing
    const ios = h.made[0].ios;
    expect(h.tick()).toBe(false);
    expect(h.made[0].ios).toBe(ios);
    h.loop.handle({ type: 'resume' });
    h.tick();
    expect(h.made[0].ios).toBeGreaterThan(ios);
    h.loop.handle({ type: 'stop' });
    expect(h.loop.getState()).toBe('stopped');
    expect(h.made[0].freed).toBe(true);
    while (h.tick());
    expect(h.of('finished')).toHaveLength(0);
  });

  it('names the refused field, keeps the last results, and checks without running', () => {
    const h = harness();
    h.loop.announce();
    h.loop.handle({ type: 'start', request: { ...REQUEST, seconds: 0 } });
    const err = h.of('error')[0];
    expect(err).toMatchObject({ field: 'seconds', recoverable: true });
    expect(err.message).toBe('seconds: must be between 1 and 86400 (got 0)');
    expect(h.loop.getState()).toBe('idle');
    h.loop.handle({ type: 'check', id: 7, request: { ...REQUEST, seconds: 0 } });
    h.loop.handle({ type: 'check', id: 8, request: REQUEST });
    expect(h.of('checked')).toEqual([
      { type: 'checked', id: 7, problem: { field: 'seconds', message: 'must be between 1 and 86400 (got 0)' } },
      { type: 'checked', id: 8, problem: null },
    ]);
    expect(h.made.every((m) => m.freed)).toBe(true);
    h.loop.handle({ type: 'start', request: { drive: 1 } });
    expect(h.of('error').at(-1)!.message).toMatch(/malformed/);
  });
});

describe('experiment messages', () => {
  it('refuse what is malformed', () => {
    expect(parsePageToExperiment({ type: 'start', request: { experiment: 'x', drive: 'y', precondition: 'soon' } })).toBeNull();
    expect(parsePageToExperiment({ type: 'stop' })).toEqual({ type: 'stop' });
    expect(
      parseExperimentToPage({
        type: 'rows',
        rows: [[1, {}]],
        figures: [],
        csv: '',
        progress: { points_done: 0, points: 1, seconds_done: 0, seconds: 1, written_bytes: 0, bytes: 0 },
      }),
    ).toBeNull();
    const rows = (figures: unknown) => ({
      type: 'rows',
      rows: [[1]],
      figures,
      csv: '',
      progress: { points_done: 0, points: 1, seconds_done: 0, seconds: 1, written_bytes: 0, bytes: 0 },
      elapsed_ms: 12,
    });
    const figure = { ...FIGURE, row: { corner: 'b' }, column: 'iops', simulated: null, holds: null };
    expect(parseExperimentToPage(rows([figure]))).not.toBeNull();
    expect(parseExperimentToPage({ ...rows([figure]), elapsed_ms: undefined })).toBeNull();
    expect(parseExperimentToPage(rows([{ ...figure, row: { corner: {} } }]))).toBeNull();
    expect(parseExperimentToPage(rows([{ ...figure, column: 3 }]))).toBeNull();
    expect(parseExperimentToPage(rows(undefined))).toBeNull();
  });
  it('split the engine’s errors into field and message', () => {
    expect(splitEngineError('queue_depths (how many): must be between 1 and 32 (got 40)')).toEqual({
      field: 'queue_depths (how many)',
      message: 'must be between 1 and 32 (got 40)',
    });
    expect(splitEngineError('gc.start_free_blocks: must be ...')).toEqual({ field: 'gc.start_free_blocks', message: 'must be ...' });
    expect(splitEngineError('something odd')).toEqual({ field: '', message: 'something odd' });
  });
});
