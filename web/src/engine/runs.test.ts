import { describe, expect, it, vi } from 'vitest';
import { meanFigure } from './fakeWasm';
import { MAX_RUNS, PROGRESS_MS, RunSet } from './runs';
import { CORES_LEFT_TO_PAGE } from './share';
import { fakeWorkers, type FakeWorker } from './fakeWorker';

const CONFIG = { drive: 's3700-200', workload: 'consistency', seconds: 100, span: 1, seed: 1 };
const FIELDS = ['second', 'iops'];
const ROW = 12;
const LAYOUT = { dies: 1, channels: 1, kinds: ['a', 'b', 'c', 'd', 'e', 'f'], valid_bins: 2, erase_bins: 2, row: ROW };

/** A run set on `cores` cores (enough, by default, that no run's engine is held back). */
function setup(cores = 16) {
  const { workers, make } = fakeWorkers();
  const clock = { t: 0 };
  const runs = new RunSet<string>(make, () => clock.t, false, cores);
  runs.open();
  workers[0].say({ type: 'ready', presets: [], workloads: [], request_fields: {}, fields: FIELDS });
  workers[0].say({ type: 'state', state: 'idle' });
  return { runs, workers, clock };
}

function samples(w: FakeWorker, from: number, n: number) {
  const data = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    data[i] = from + i;
    data[n + i] = 1000;
  }
  w.say({
    type: 'samples',
    fields: FIELDS,
    n,
    buffer: data.buffer,
    inside: new ArrayBuffer(n * 4 * ROW),
    latency: new Float64Array([1e3, 2e3, n]).buffer,
  });
}

describe('RunSet', () => {
  it('gives each run its own worker and store, and keeps runs until removed', () => {
    const { runs, workers } = setup();
    expect(runs.snapshot().catalog?.sampleFields).toEqual(FIELDS);
    const a = runs.add('S3700')!;
    const b = runs.add('P3700')!;
    expect(workers).toHaveLength(1); // workers start with the first Start (or prepare)
    runs.prepare(a);
    expect(workers).toHaveLength(2);
    runs.start(a, CONFIG, 'S3700');
    runs.start(b, { ...CONFIG, drive: 'p3700-400' }, 'P3700');
    expect(workers).toHaveLength(3); // run a kept its prepared worker
    expect(workers[1].sent.at(-1)).toMatchObject({ type: 'start', config: { drive: 's3700-200' } });
    expect(workers[2].sent.at(-1)).toMatchObject({ type: 'start', config: { drive: 'p3700-400' } });

    workers[2].say({
      type: 'started',
      config: { ...CONFIG, drive: 'p3700-400' },
      parameters: {},
      memory_bytes: 1,
      setup_ms: 5,
      inside_layout: LAYOUT,
    });
    samples(workers[2], 0, 3);
    const [ra, rb] = runs.snapshot().runs;
    expect(ra.store.length).toBe(0);
    expect(rb.store.length).toBe(3);
    expect(rb.inside.lastSecond).toBe(2);
    expect(rb.inside.at(1)?.dies).toHaveLength(1);
    expect(rb.ran).toEqual({ config: { ...CONFIG, drive: 'p3700-400' }, setup: 'P3700' });
    expect(ra.color).not.toBe(rb.color);

    runs.remove(a);
    expect(workers[1].terminated).toBe(true);
    expect(runs.snapshot().runs.map((r) => r.id)).toEqual([b]);
    expect(runs.snapshot().focusId).toBe(b);
  });

  it('holds at most four runs, logs included', () => {
    const { runs } = setup();
    for (let i = 0; i < MAX_RUNS - 1; i++) expect(runs.add(`run ${i}`)).not.toBeNull();
    expect(runs.addLog('drive_iops.1.log', FIELDS, [new Float64Array([0, 1]), new Float64Array([5, 6])])).not.toBeNull();
    expect(runs.add('one too many')).toBeNull();
    const log = runs.snapshot().runs.at(-1)!;
    expect(log.kind).toBe('log');
    expect(Array.from(log.store.column('iops'))).toEqual([5, 6]);
  });

  it('counts speed in simulated seconds per wall-clock second, pauses excluded', () => {
    const { runs, workers, clock } = setup();
    const id = runs.add('x')!;
    runs.start(id, CONFIG, 'x');
    const w = workers[1];
    clock.t = 1000; // erase and fill took a second of wall time: not counted
    w.say({ type: 'started', config: CONFIG, parameters: {}, memory_bytes: 1, setup_ms: 1000, inside_layout: LAYOUT });
    w.say({ type: 'state', state: 'running' });
    for (let k = 1; k <= 4; k++) {
      clock.t = 1000 + k * 500;
      w.say({ type: 'progress', seconds_done: k * 10, memory_bytes: 1, slice_ios: 1, slice_ms: 50 });
    }
    // 40 simulated seconds in 2 wall seconds, though the engine worked only 200 ms of it.
    expect(runs.run(id)!.speed).toBeCloseTo(20);
    w.say({ type: 'state', state: 'paused' });
    clock.t = 10_000; // a long pause
    w.say({ type: 'state', state: 'running' });
    clock.t = 10_500;
    w.say({ type: 'progress', seconds_done: 50, memory_bytes: 1, slice_ios: 1, slice_ms: 50 });
    expect(runs.run(id)!.speed).toBeCloseTo(20);
    w.say({ type: 'finished', summary: { seconds_done: 50, elapsed_ms: 250, memory_bytes: 1 } });
    expect(runs.run(id)!.speed).toBeCloseTo(20);
  });

  it('asks the catalog worker for a run’s published figures at its start, and for its verdicts with its seconds at its end', async () => {
    const { runs, workers } = setup();
    const id = runs.add('x')!;
    runs.start(id, { ...CONFIG, seconds: 3 }, 'x');
    const w = workers[1];
    w.say({ type: 'ready', presets: [], workloads: [], request_fields: {}, fields: FIELDS });
    w.say({ type: 'started', config: { ...CONFIG, seconds: 3 }, parameters: {}, memory_bytes: 1, setup_ms: 1, inside_layout: LAYOUT });
    const asked = () => workers[0].sent.filter((m) => m.type === 'evidence') as unknown as { id: number; columns: number[][] }[];
    expect(asked()).toMatchObject([{ config: { seconds: 3 }, columns: [] }]);
    const figure = meanFigure(3);
    workers[0].say({ type: 'evidenced', id: asked()[0].id, figures: [figure] });
    await Promise.resolve();
    expect(runs.run(id)!.evidence).toEqual([figure]);

    samples(w, 0, 3);
    w.say({ type: 'finished', summary: { seconds_done: 3, elapsed_ms: 1, memory_bytes: 1 } });
    // The run's seconds of the columns the figures are measured on (this store has no MB/s or latency).
    expect(asked()[1].columns).toEqual([[1000, 1000, 1000], [], [], []]);
    workers[0].say({ type: 'evidenced', id: asked()[1].id, figures: [{ ...figure, simulated: 1000, holds: true }] });
    await Promise.resolve();
    expect(runs.run(id)!.evidence[0]).toMatchObject({ simulated: 1000, holds: true });

    // An answer for a run since restarted is dropped.
    runs.start(id, { ...CONFIG, seconds: 3 }, 'x');
    w.say({ type: 'started', config: { ...CONFIG, seconds: 3 }, parameters: {}, memory_bytes: 1, setup_ms: 1, inside_layout: LAYOUT });
    runs.start(id, { ...CONFIG, seconds: 4 }, 'x');
    w.say({ type: 'started', config: { ...CONFIG, seconds: 4 }, parameters: {}, memory_bytes: 1, setup_ms: 1, inside_layout: LAYOUT });
    workers[0].say({ type: 'evidenced', id: asked()[2].id, figures: [figure] });
    await Promise.resolve();
    expect(runs.run(id)!.evidence).toEqual([]);
  });

  it('asks the catalog worker where a preset’s values come from; a question the worker leaves unanswered ends with why', async () => {
    const { runs, workers } = setup();
    const answer = runs.presetSources('s3700-200');
    const asked = workers[0].sent.filter((m) => m.type === 'sources') as unknown as { id: number; drive: string }[];
    expect(asked).toMatchObject([{ drive: 's3700-200' }]);
    const sources = { 'geometry.dies': 'the datasheet' };
    workers[0].say({ type: 'sourced', id: asked[0].id, answer: { ok: true, sources } });
    await expect(answer).resolves.toEqual({ ok: true, sources });
    const pending = runs.presetSources('p3700-400');
    runs.dispose();
    await expect(pending).resolves.toEqual({ ok: false, message: 'the engine stopped' });
  });

  it('sends pause, resume and step to the run’s worker; reset drops its results', () => {
    const { runs, workers } = setup();
    const id = runs.add('x')!;
    runs.start(id, CONFIG, 'x');
    const w = workers[1];
    w.say({ type: 'started', config: CONFIG, parameters: {}, memory_bytes: 1, setup_ms: 1, inside_layout: LAYOUT });
    samples(w, 0, 2);
    w.say({ type: 'state', state: 'running' });
    runs.pause(id);
    runs.step(id);
    runs.resume(id);
    runs.cutPower(id);
    runs.setCapacitors(id, false);
    expect(w.sent.map((m) => m.type)).toEqual(['start', 'pause', 'step', 'resume', 'cut_power', 'capacitors']);
    expect(runs.run(id)!.capacitorsHealthy).toBe(false);
    w.say({ type: 'cut_asked', at_s: 1.5 });
    expect(runs.run(id)!.cutsAsked).toEqual([1.5]);
    runs.reset(id);
    samples(w, 2, 2); // a slice in flight when reset was pressed
    expect(runs.run(id)!.store.length).toBe(0);
    expect(runs.run(id)!.ran).toBeNull();
    expect(runs.run(id)!.setup).toBe('x');
  });

  it('can learn the catalog from the first run and check requests there (one worker per embed)', async () => {
    const { workers, make } = fakeWorkers();
    const runs = new RunSet<string>(make, () => 0, true);
    runs.open();
    expect(workers).toHaveLength(0);
    expect(runs.snapshot().catalog).toBeNull();
    const a = runs.add('S3700')!;
    runs.prepare(a);
    expect(workers).toHaveLength(1);
    workers[0].say({ type: 'ready', presets: [], workloads: [], request_fields: {}, fields: FIELDS });
    expect(runs.snapshot().catalog?.sampleFields).toEqual(FIELDS);
    expect(runs.snapshot().engineState).toBe('idle');

    const answer = runs.check(CONFIG);
    const asked = workers[0].sent.at(-1) as { type: string; id: number };
    expect(asked.type).toBe('check');
    workers[0].say({ type: 'checked', id: asked.id, problem: { field: 'span', message: 'must be between 0.01 and 1' } });
    expect(await answer).toEqual({ field: 'span', message: 'must be between 0.01 and 1' });
    runs.start(a, CONFIG, 'S3700');
    expect(workers).toHaveLength(1);
    runs.dispose();
  });

  it('fills one run at a time, gives the computing runs’ engines shares of the cores that leave the page some, and a lone run a whole core', () => {
    const cores = 2;
    const { runs, workers } = setup(cores);
    const ids = [0, 1, 2, 3].map((i) => runs.add(`run ${i}`)!);
    for (const id of ids) runs.start(id, CONFIG, 'x');
    const run = (i: number) => workers[i + 1];
    /** The share each run's worker was told last (1: never told, as a new worker starts). */
    const shares = () =>
      ids.map((_, i) => (run(i).sent.filter((m) => m.type === 'share') as unknown as { share: number }[]).at(-1)?.share ?? 1);
    const say = (i: number, state: string) => run(i).say({ type: 'state', state });
    const filled = (i: number) => {
      run(i).say({ type: 'started', config: CONFIG, parameters: {}, memory_bytes: 1, setup_ms: 1, inside_layout: LAYOUT });
      say(i, 'running');
    };
    const startsSent = () => ids.map((_, i) => run(i).sent.some((m) => m.type === 'start'));
    const budget = Math.max(1, cores - CORES_LEFT_TO_PAGE);

    // A fill is one engine call that no rest paces: the others wait their turn.
    expect(startsSent()).toEqual([true, false, false, false]);
    filled(0);
    expect(startsSent()).toEqual([true, true, false, false]);
    expect(shares()[0]).toBeCloseTo(budget - 1); // the fill under way takes its core first
    filled(1);
    filled(2);
    expect(startsSent()).toEqual([true, true, true, true]);
    filled(3);
    const four = shares();
    expect(new Set(four).size).toBe(1);
    expect(four[0] * 4).toBeCloseTo(budget); // all of the budget, no more
    say(3, 'finished');
    say(2, 'paused');
    expect(shares()[0] * 2).toBeCloseTo(budget);
    expect(shares()[0]).toBeGreaterThan(four[0]);
    runs.remove(ids[1]);
    expect(shares()[0]).toBe(1); // one run alone is not slowed
    say(2, 'running'); // resumed: two compute again
    expect(shares()[0] * 2).toBeCloseTo(budget);
    expect(shares()[2] * 2).toBeCloseTo(budget);
    // A run started again waits for no one when nothing else fills, and is not paced meanwhile.
    runs.start(ids[3], CONFIG, 'x');
    expect(run(3).sent.filter((m) => m.type === 'start')).toHaveLength(2);
  });

  it('pauses a run paused while it waited its turn to fill once it has started, and resumes it', () => {
    const { runs, workers } = setup(2);
    const [a, b, c] = [0, 1, 2].map((i) => runs.add(`run ${i}`)!);
    for (const id of [a, b, c]) runs.start(id, CONFIG, 'x');
    runs.pause(b);
    runs.pause(c);
    runs.resume(c);
    const sent = (i: number) => workers[i + 1].sent.map((m) => m.type).filter((t) => t !== 'share');
    expect(sent(1)).not.toContain('start');
    for (const i of [0, 1]) {
      workers[i + 1].say({ type: 'started', config: CONFIG, parameters: {}, memory_bytes: 1, setup_ms: 1, inside_layout: LAYOUT });
      workers[i + 1].say({ type: 'state', state: 'running' });
    }
    // As without the wait: the start, then the pause the worker answers after its fill.
    expect(sent(1).slice(-2)).toEqual(['start', 'pause']);
    expect(sent(0)).not.toContain('pause');
    expect(sent(2).at(-1)).toBe('start'); // paused and resumed meanwhile: runs
  });

  it('tells React of progress at most once per PROGRESS_MS, and of a state change at once', () => {
    vi.useFakeTimers();
    try {
      const { runs, workers } = setup();
      const id = runs.add('x')!;
      runs.start(id, CONFIG, 'x');
      const w = workers[1];
      w.say({ type: 'started', config: CONFIG, parameters: {}, memory_bytes: 1, setup_ms: 1, inside_layout: LAYOUT });
      w.say({ type: 'state', state: 'running' });
      let heard = 0;
      runs.subscribe(() => heard++);
      for (let k = 1; k <= 10; k++) w.say({ type: 'progress', seconds_done: k, memory_bytes: 1, slice_ios: 1, slice_ms: 10 });
      expect(heard).toBe(0);
      expect(runs.run(id)!.secondsDone).toBe(10); // the run itself is up to date
      vi.advanceTimersByTime(PROGRESS_MS);
      expect(heard).toBe(1);
      expect(runs.snapshot().runs.find((r) => r.id === id)!.secondsDone).toBe(10);
      w.say({ type: 'progress', seconds_done: 11, memory_bytes: 1, slice_ios: 1, slice_ms: 10 });
      w.say({ type: 'state', state: 'paused' }); // carries the progress with it
      expect(heard).toBe(2);
      expect(runs.snapshot().runs.find((r) => r.id === id)!.secondsDone).toBe(11);
      vi.advanceTimersByTime(PROGRESS_MS);
      expect(heard).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
