import { beforeEach, describe, expect, it } from 'vitest';
import { fakeEngine, FIELDS, INSIDE_ROW } from './fakeWasm';
import type { EngineModule } from './engineModule';
import type { WorkerToPage } from './protocol';
import { Runner } from './runner';

const CONFIG = { drive: 's3700-200', workload: 'consistency', seconds: 10, span: 1, seed: 1 };

function setup() {
  const clock = { t: 0 };
  const { engine, live } = fakeEngine(clock);
  const posted: { msg: WorkerToPage; transfer?: Transferable[] }[] = [];
  const queue: (() => void)[] = [];
  /** Each scheduled slice's delay, ms, in order. */
  const delays: number[] = [];
  const runner = new Runner(engine, {
    post: (msg, transfer) => posted.push({ msg, transfer }),
    schedule: (fn, ms) => {
      queue.push(fn);
      delays.push(ms);
    },
    now: () => clock.t,
  });
  const types = () => posted.map((p) => p.msg.type);
  const of = <T extends WorkerToPage['type']>(type: T) =>
    posted.map((p) => p.msg).filter((m): m is Extract<WorkerToPage, { type: T }> => m.type === type);
  /** Runs scheduled slices, as the event loop would, up to `max` of them. */
  const tick = (max = Infinity) => {
    let ran = 0;
    while (queue.length && ran < max) {
      queue.shift()!();
      ran++;
    }
    return ran;
  };
  return { runner, posted, queue, delays, types, of, tick, live };
}

describe('Runner', () => {
  let t: ReturnType<typeof setup>;
  beforeEach(() => {
    t = setup();
    t.runner.announce();
  });

  it('announces presets, workloads, request fields and sample fields, then is idle', () => {
    expect(t.of('ready')[0]).toMatchObject({
      fields: FIELDS,
      presets: [{ id: 's3700-200' }],
      workloads: [{ id: 'consistency' }],
      request_fields: { seconds: 2000 },
    });
    expect(t.runner.getState()).toBe('idle');
  });

  it('answers checks with the engine’s objection, without running anything', () => {
    t.runner.handle({ type: 'check', id: 7, config: { ...CONFIG, span: 2 } });
    t.runner.handle({ type: 'check', id: 8, config: CONFIG });
    expect(t.of('checked')).toEqual([
      { type: 'checked', id: 7, problem: { field: 'span', message: 'must be between 0.01 and 1.0 (got 2)' } },
      { type: 'checked', id: 8, problem: null },
    ]);
    expect(t.live.size).toBe(0);
    expect(t.runner.getState()).toBe('idle');
  });

  it('steps one simulated second at a time from a pause, stopping at its end', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 1000 } });
    t.tick(1);
    t.runner.handle({ type: 'pause' });
    t.tick();
    const before = t.of('progress').at(-1)!.seconds_done;
    t.runner.handle({ type: 'step' });
    expect(t.runner.getState()).toBe('running');
    t.tick();
    expect(t.runner.getState()).toBe('paused');
    expect(t.of('progress').at(-1)!.seconds_done).toBe(before + 1);
    t.runner.handle({ type: 'step' });
    t.tick();
    expect(t.of('progress').at(-1)!.seconds_done).toBe(before + 2);
    // Resume runs on in full slices.
    t.runner.handle({ type: 'resume' });
    t.tick(1);
    expect(t.of('progress').at(-1)!.slice_ios).toBeGreaterThan(1000);
  });

  it('cuts power now and fails the capacitors during a run', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 10_000 } });
    t.tick(1);
    t.runner.handle({ type: 'capacitors', healthy: false });
    t.runner.handle({ type: 'cut_power' });
    const at = t.of('cut_asked')[0].at_s;
    expect(at).toBeGreaterThan(0);
    t.tick(1);
    expect(
      t
        .of('power_cuts')
        .at(-1)!
        .cuts.map((c) => c.at_s),
    ).toEqual([at]);
    // The inside rows of the next slice come from the drive with failed capacitors.
    const last = t.of('samples').at(-1)!;
    expect(new Float32Array(last.inside)[0]).toBe(0);
  });

  it('steps on until a cut asked for while paused has landed and been reported', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 1000 } });
    t.tick(1);
    t.runner.handle({ type: 'pause' });
    t.tick();
    const before = t.of('progress').at(-1)!.seconds_done;
    // The drive has programs booked for the next two and a half seconds: the cut lands after them.
    [...t.live][0].cutDelay = 2.5;
    t.runner.handle({ type: 'cut_power' });
    const at = t.of('cut_asked')[0].at_s;
    expect(at).toBe(before + 2.5);
    t.runner.handle({ type: 'step' });
    t.tick();
    expect(t.runner.getState()).toBe('paused');
    expect(t.of('progress').at(-1)!.seconds_done).toBe(before + 3);
    expect(
      t
        .of('power_cuts')
        .at(-1)!
        .cuts.map((c) => c.at_s),
    ).toEqual([at]);
    // Once reported, a step is one second again.
    t.runner.handle({ type: 'step' });
    t.tick();
    expect(t.of('progress').at(-1)!.seconds_done).toBe(before + 4);
  });

  it('inspects a fio job file or a trace on request', () => {
    t.runner.handle({ type: 'import', id: 1, config: { ...CONFIG, fio: '[w]\nrw=randwrite\nbs=4x' } });
    t.runner.handle({ type: 'import', id: 2, config: { ...CONFIG, trace: { text: 'a\nb', name: 't' } } });
    expect(t.of('imported')).toEqual([
      { type: 'imported', id: 1, report: { ok: false, field: 'fio', message: 'line 3: bs=4x' } },
      { type: 'imported', id: 2, report: { ok: true, records: 2 } },
    ]);
  });

  it('describes a drive’s parameters on request', () => {
    t.runner.handle({ type: 'describe', id: 4, drive: 's3700-200' });
    expect(t.of('described')[0]).toMatchObject({ id: 4, parameters: [{ path: 'gc.paced_percent', min: 10 }] });
  });

  it('sends the run’s resolved drive and each power cut once it has happened', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, power_cuts_s: [2.5, 7] } });
    expect(t.of('started')[0].parameters).toEqual({ 'geometry.dies': 33 });
    t.tick();
    const cuts = t.of('power_cuts');
    expect(cuts.length).toBeGreaterThanOrEqual(1);
    expect(cuts.at(-1)!.cuts.map((c) => c.at_s)).toEqual([2.5, 7]);
    // Reported when the count grows, not every slice.
    expect(new Set(cuts.map((c) => c.cuts.length)).size).toBe(cuts.length);
  });

  it('runs a config to the end in slices, transferring each batch', () => {
    t.runner.handle({ type: 'start', config: CONFIG });
    expect(t.of('started')).toHaveLength(1);
    expect(t.runner.getState()).toBe('running');
    t.tick();
    expect(t.runner.getState()).toBe('finished');
    const samples = t.posted.filter((p) => p.msg.type === 'samples');
    const rows = samples.reduce((n, p) => n + (p.msg as { n: number }).n, 0);
    expect(rows).toBe(10);
    for (const p of samples) {
      const m = p.msg as Extract<WorkerToPage, { type: 'samples' }>;
      expect(p.transfer).toEqual([m.buffer, m.inside, m.latency]);
      expect(m.buffer.byteLength).toBe(FIELDS.length * m.n * 8);
      expect(m.inside.byteLength).toBe(INSIDE_ROW * m.n * 4);
    }
    expect(t.of('finished')[0].summary.seconds_done).toBe(10);
    expect(t.live.size).toBe(0); // freed when done
  });

  it('gives the published figures of a request, with verdicts from the seconds sent with it', () => {
    t.runner.handle({ type: 'evidence', id: 3, config: CONFIG, columns: [] });
    // Ten seconds at 1000 IOPS but the fifth at 0: the mean of all ten.
    const iops = [1000, 1000, 1000, 1000, 0, 1000, 1000, 1000, 1000, 1000];
    t.runner.handle({ type: 'evidence', id: 4, config: CONFIG, columns: [iops, [], []] });
    t.runner.handle({ type: 'evidence', id: 5, config: { ...CONFIG, span: 0.5 }, columns: [] });
    expect(t.of('evidenced')).toMatchObject([
      { id: 3, figures: [{ figure: 'mean', not_comparable: null, simulated: null }] },
      { id: 4, figures: [{ simulated: 900, holds: true }] },
      { id: 5, figures: [{ not_comparable: expect.stringContaining('spare area'), simulated: null }] },
    ]);
    expect(t.live.size).toBe(0); // no run needed
  });

  it('answers pause between slices, and resumes where it was', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 10_000 } });
    t.tick(1);
    t.runner.handle({ type: 'pause' });
    expect(t.runner.getState()).toBe('paused');
    const done = t.of('progress').at(-1)!.seconds_done;
    expect(t.tick()).toBe(1); // the slice already queued does nothing
    expect(t.of('progress').at(-1)!.seconds_done).toBe(done);
    t.runner.handle({ type: 'resume' });
    t.tick(1);
    expect(t.of('progress').at(-1)!.seconds_done).toBeGreaterThan(done);
  });

  it('reset frees the simulation and drops queued slices', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 10_000 } });
    t.tick(1);
    t.runner.handle({ type: 'reset' });
    expect(t.live.size).toBe(0);
    expect(t.runner.getState()).toBe('idle');
    const before = t.posted.length;
    t.tick();
    expect(t.posted.length).toBe(before);
  });

  it('a new start replaces the running simulation', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 10_000 } });
    t.tick(1);
    t.runner.handle({ type: 'start', config: CONFIG });
    expect(t.live.size).toBe(1);
    t.tick();
    expect(t.of('finished')).toHaveLength(1);
    expect(t.of('finished')[0].summary.seconds_done).toBe(10);
  });

  it('reports a bad config as a readable, recoverable error and stays usable', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, span: 2 } });
    expect(t.of('error')).toEqual([
      { type: 'error', message: 'span: must be between 0.01 and 1.0 (got 2)', field: 'span', recoverable: true },
    ]);
    expect(t.runner.getState()).toBe('idle');
    t.runner.handle({ type: 'start', config: CONFIG });
    t.tick();
    expect(t.runner.getState()).toBe('finished');
  });

  it('keeps the running simulation when a new start is refused', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 10_000 } });
    t.tick(1);
    t.runner.handle({ type: 'start', config: { ...CONFIG, span: 2 } });
    expect(t.of('error').at(-1)).toMatchObject({ field: 'span', recoverable: true });
    expect(t.live.size).toBe(1);
    expect(t.runner.getState()).toBe('running');
    const done = t.of('progress').at(-1)!.seconds_done;
    t.tick(1);
    expect(t.of('progress').at(-1)!.seconds_done).toBeGreaterThan(done);
  });

  it('treats a wasm trap as fatal until reset', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, drive: 'trap' } });
    expect(t.runner.getState()).toBe('error');
    expect(t.of('error').at(-1)).toMatchObject({ recoverable: false, message: 'The engine crashed: unreachable' });
    t.runner.handle({ type: 'start', config: CONFIG });
    expect(t.of('error').at(-1)!.message).toMatch(/press Reset/);
    expect(t.of('started')).toHaveLength(0);
    // A question the page waits on is still answered, with why there is nothing.
    t.runner.handle({ type: 'sources', id: 7, drive: 's3700-200' });
    expect(t.of('sourced')).toEqual([{ type: 'sourced', id: 7, answer: { ok: false, message: expect.stringMatching(/stopped/) } }]);
  });

  it('reports malformed messages instead of throwing', () => {
    expect(() => t.runner.handle({ type: 'start', config: { drive: 1 } })).not.toThrow();
    expect(t.of('error')[0].message).toMatch(/malformed message/);
    expect(t.runner.getState()).toBe('idle');
  });

  it('rests after each slice for its share of a core, from the share it was last given', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 100_000 } });
    t.tick(3);
    expect(t.delays).toEqual([0, 0, 0, 0]); // a whole core: the next slice at once
    const share = 0.25;
    t.runner.handle({ type: 'share', share });
    t.tick(5);
    // The delay scheduled after slice k follows progress k; the fake engine's time is all busy time.
    const busy = t
      .of('progress')
      .slice(3)
      .map((p) => p.slice_ms);
    const rests = t.delays.slice(4);
    expect(busy).toHaveLength(5);
    busy.forEach((ms, k) => expect(ms / (ms + rests[k])).toBeCloseTo(share));
    t.runner.handle({ type: 'share', share: 1 });
    t.tick(1);
    expect(t.delays.at(-1)).toBe(0);
  });

  it('starts no second loop when resumed during a rest', () => {
    t.runner.handle({ type: 'share', share: 0.5 });
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 100_000 } });
    t.tick(1);
    expect(t.delays.at(-1)).toBeGreaterThan(0); // resting
    t.runner.handle({ type: 'pause' });
    t.runner.handle({ type: 'resume' });
    expect(t.queue).toHaveLength(1);
    t.tick(3);
    expect(t.queue).toHaveLength(1);
  });

  it('takes a share in any state, and refuses one outside (0, 1] naming it', () => {
    for (const share of [0, 1.5, -1, '0.5', null]) t.runner.handle({ type: 'share', share });
    expect(t.of('error')).toHaveLength(5);
    for (const e of t.of('error')) expect(e).toMatchObject({ recoverable: true, message: expect.stringMatching(/malformed.*"share"/) });
    t.runner.handle({ type: 'start', config: { ...CONFIG, drive: 'trap' } });
    const errors = t.of('error').length;
    t.runner.handle({ type: 'share', share: 0.5 }); // a crashed engine has nothing to say to it
    expect(t.of('error')).toHaveLength(errors);
  });

  it('sizes slices toward the target time', () => {
    t.runner.handle({ type: 'start', config: { ...CONFIG, seconds: 100_000 } });
    t.tick(30);
    const last = t.of('progress').at(-1)!;
    // The fake engine takes 1 ms per 1000 IOs, so ~100 ms slices are ~100k IOs.
    expect(last.slice_ios).toBeGreaterThan(90_000);
    expect(last.slice_ios).toBeLessThan(110_000);
  });
});

describe('Runner with a first module and a full one loaded when needed', () => {
  /** The first module has no fio or trace import; the full module is `full`, fetched on `release()`. */
  function twoModules() {
    const clock = { t: 0 };
    const first = fakeEngine(clock);
    const full = fakeEngine(clock);
    const lite: EngineModule = { ...first.engine, fio_import: undefined, trace_summary: undefined, preset_sources: undefined };
    const posted: WorkerToPage[] = [];
    const queue: (() => void)[] = [];
    let loads = 0;
    let release: (ok: boolean) => void = () => {};
    const runner = new Runner(lite, {
      post: (msg) => posted.push(msg),
      schedule: (fn) => queue.push(fn),
      now: () => clock.t,
      loadFull: () => {
        loads++;
        return new Promise((resolve, reject) => {
          release = (ok) => (ok ? resolve(full.engine) : reject(new Error('offline')));
        });
      },
    });
    runner.announce();
    const of = <T extends WorkerToPage['type']>(type: T) => posted.filter((m): m is Extract<WorkerToPage, { type: T }> => m.type === type);
    const tick = () => {
      while (queue.length) queue.shift()!();
    };
    return { runner, first, full, of, tick, loads: () => loads, release: (ok: boolean) => release(ok) };
  }
  const FIO = { ...CONFIG, fio: '[w]\nrw=randwrite' };

  it('runs the first module until a message needs the full one, then keeps the order of what waited', async () => {
    const t = twoModules();
    t.runner.handle({ type: 'check', id: 1, config: CONFIG });
    t.runner.handle({ type: 'start', config: CONFIG });
    expect(t.first.live.size).toBe(1);
    expect(t.loads()).toBe(0);
    // A fio job file: fetched once, and what comes meanwhile waits behind it.
    t.runner.handle({ type: 'import', id: 2, config: FIO });
    t.runner.handle({ type: 'check', id: 3, config: { ...CONFIG, span: 2 } });
    t.runner.handle({ type: 'import', id: 4, config: FIO });
    expect(t.loads()).toBe(1);
    expect(t.of('imported')).toEqual([]);
    expect(t.of('checked').map((m) => m.id)).toEqual([1]);
    t.release(true);
    await Promise.resolve();
    expect(t.of('imported').map((m) => m.id)).toEqual([2, 4]);
    expect(t.of('checked').map((m) => m.id)).toEqual([1, 3]);
    // A preset's sources are the full module's.
    t.runner.handle({ type: 'sources', id: 5, drive: 's3700-200' });
    expect(t.of('sourced')).toEqual([
      { type: 'sourced', id: 5, answer: { ok: true, sources: { 'geometry.dies': 'the datasheet: 33 dies' } } },
    ]);
    // From then on new runs are the full module's; the first module's run was freed.
    t.runner.handle({ type: 'start', config: FIO });
    expect(t.first.live.size).toBe(0);
    expect(t.full.live.size).toBe(1);
    t.tick();
    expect(t.of('finished')).toHaveLength(1);
    expect(t.loads()).toBe(1);
  });

  it('answers what needed the full module with why it did not load, and tries again next time', async () => {
    const t = twoModules();
    t.runner.handle({ type: 'check', id: 1, config: FIO });
    t.runner.handle({ type: 'import', id: 2, config: FIO });
    t.runner.handle({ type: 'start', config: FIO });
    t.runner.handle({ type: 'describe', id: 3, drive: 's3700-200' });
    t.runner.handle({ type: 'sources', id: 5, drive: 's3700-200' });
    t.release(false);
    await Promise.resolve();
    expect(t.of('sourced')[0].answer).toEqual({ ok: false, message: expect.stringMatching(/did not load \(offline\)/) });
    expect(t.of('checked')[0].problem).toMatchObject({ field: 'engine', message: expect.stringMatching(/did not load \(offline\)/) });
    expect(t.of('imported')[0].report).toMatchObject({ ok: false, field: 'engine' });
    expect(t.of('error')[0]).toMatchObject({ recoverable: true, message: expect.stringMatching(/did not load/) });
    expect(t.of('described')).toHaveLength(1);
    expect(t.runner.getState()).toBe('idle');
    t.runner.handle({ type: 'import', id: 4, config: FIO });
    expect(t.loads()).toBe(2);
  });
});
