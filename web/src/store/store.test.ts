import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SimConfig } from '../engine/protocol';
import { cut, EXPERIMENTS, fakeStore, LAYOUT, READY, samples, settings, type FakeWorker } from './fakeEngine';
import { CHECK_DELAY_MS } from './editChecks';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** The worker accepts the start it was last sent and runs it. */
function accept(w: FakeWorker): SimConfig {
  const config = w.last('start')!.config as SimConfig;
  w.say(READY); // a run's worker says what the engine knows once it has loaded
  w.say({
    type: 'started',
    config,
    parameters: READY.presets[0].parameters,
    memory_bytes: 1,
    setup_ms: 5,
    inside_layout: LAYOUT,
    evidence: [],
  });
  w.say({ type: 'state', state: 'running' });
  return config;
}

describe('the page store, live runs', () => {
  it('drives a run through start, pause, step and resume, then compares it with a second run and cuts its power', async () => {
    const { store, runWorkers } = fakeStore();
    store.open();
    expect(store.getSnapshot().engineState).toBe('loading');
    runWorkers[0].say(READY);
    runWorkers[0].say({ type: 'state', state: 'idle' });
    store.setRuns([settings({ metric: 'mb_s' })]);
    let s = store.getSnapshot();
    expect(s.catalog?.presets.map((p) => p.id)).toEqual(['s3700-200', 'p3700-400']);
    expect(s.runs).toHaveLength(1);
    expect(s.focusId).toBe(s.runs[0].id);
    expect(s.chart.metric).toBe('mb_s'); // the page's view comes from the edited setup
    expect(runWorkers).toHaveLength(2); // the edited run's worker loads before Start

    await store.start();
    const first = runWorkers[1];
    expect(first.last('start')!.config).toMatchObject({ drive: 's3700-200', workload: 'consistency', seconds: 100 });
    expect(store.getSnapshot().runs[0].starting).toBe(true);
    accept(first);
    samples(first, 0, 5);
    s = store.getSnapshot();
    expect(s.runs[0]).toMatchObject({ state: 'running', starting: false });
    expect(s.runs[0].ran?.config.drive).toBe('s3700-200');
    expect(s.runs[0].store.length).toBe(5);

    store.pauseOrResume();
    expect(first.types.at(-1)).toBe('pause');
    first.say({ type: 'state', state: 'paused' });
    expect(store.getSnapshot().runs[0].state).toBe('paused');
    expect(store.step()).toBeNull();
    expect(first.types.at(-1)).toBe('step');
    samples(first, 5, 1);
    expect(store.getSnapshot().runs[0].store.length).toBe(6);
    store.pauseOrResume(); // nothing runs and a run is paused: Resume
    expect(first.types.at(-1)).toBe('resume');
    first.say({ type: 'state', state: 'running' });

    // Compare: a second run like the first, edited to another drive, started beside it.
    store.addRun();
    s = store.getSnapshot();
    expect(s.runs).toHaveLength(2);
    expect(s.focusId).toBe(s.runs[1].id);
    store.edit({ drive: 'p3700-400', view: 'steady-log' });
    s = store.getSnapshot();
    expect(s.runs[1].setup?.drive).toBe('p3700-400');
    expect(s.runs[0].setup?.drive).toBe('s3700-200');
    expect(s.chart.view).toBe('steady-log'); // the view is the page's, not the run's
    expect(s.runs[1].setup?.view).toBe(s.runs[0].setup?.view);
    await store.start();
    const second = runWorkers[2];
    expect(second.last('start')!.config).toMatchObject({ drive: 'p3700-400' });
    expect(first.types.filter((t) => t === 'start')).toHaveLength(1); // the running run goes on
    accept(second);
    samples(second, 0, 3);
    expect(store.getSnapshot().runs.map((r) => r.state)).toEqual(['running', 'running']);

    // Pause pauses both; a cut goes to the edited run.
    store.pauseOrResume();
    expect([first.types.at(-1), second.types.at(-1)]).toEqual(['pause', 'pause']);
    store.cutPower();
    expect(second.types.at(-1)).toBe('cut_power');
    second.say({ type: 'cut_asked', at_s: 3.5 });
    second.say({ type: 'power_cuts', cuts: [cut(3.5, 7)] });
    s = store.getSnapshot();
    expect(s.runs[1].cutsAsked).toEqual([3.5]);
    expect(s.runs[1].powerCuts[0].acknowledged_writes_lost).toBe(7);
    expect(s.runs[0].cutsAsked).toEqual([]);

    // Run again: each run with the request it ran.
    store.restart();
    expect(first.last('start')!.config).toMatchObject({ drive: 's3700-200' });
    expect(second.last('start')!.config).toMatchObject({ drive: 'p3700-400' });

    // Clear: the run beside the edited one goes; the edited one keeps its setup, not its results.
    store.clear();
    s = store.getSnapshot();
    expect(first.terminated).toBe(true);
    expect(s.runs).toHaveLength(1);
    expect(s.runs[0]).toMatchObject({ ran: null, cutsAsked: [] });
    expect(s.runs[0].setup?.drive).toBe('p3700-400');
    store.dispose();
  });

  it('asks the engine about the edited settings after a quiet moment, and shows its objection', async () => {
    const { store, runWorkers } = fakeStore();
    store.open();
    const engine = runWorkers[0];
    engine.say(READY);
    engine.say({ type: 'state', state: 'idle' });
    store.setRuns([settings()]);
    store.edit({ span: 0.5 });
    store.edit({ span: 0.25 });
    expect(engine.types.filter((t) => t === 'check')).toHaveLength(0);
    vi.advanceTimersByTime(CHECK_DELAY_MS);
    const checks = engine.sent.filter((m) => m.type === 'check');
    expect(checks).toHaveLength(1); // only the settings as they stand
    expect(checks[0].config).toMatchObject({ span: 0.25 });
    engine.say({ type: 'checked', id: checks[0].id, problem: { field: 'span', message: 'must be at least 0.3' } });
    await vi.runAllTimersAsync();
    expect(store.getSnapshot().problem).toEqual({ field: 'span', message: 'must be at least 0.3' });
    // The drive's parameters were asked for once.
    expect(engine.types.filter((t) => t === 'describe')).toHaveLength(1);
    store.dispose();
  });

  it('loads a fio latency log as a run of its own and plots latency; names what it cannot read', async () => {
    const { store, runWorkers } = fakeStore();
    store.open();
    runWorkers[0].say(READY);
    store.setRuns([settings()]);
    const text = '500, 800000, 1, 4096, 0\n1000, 1200000, 1, 4096, 0\n';
    await store.loadLog({ name: 'drive_clat.1.log', size: text.length, text: async () => text });
    let s = store.getSnapshot();
    expect(s.runs.map((r) => r.kind)).toEqual(['sim', 'log']);
    expect(s.chart.metric).toBe('mean_latency_us');
    expect(s.logError).toBeNull();
    await store.loadLog({ name: 'big_iops.1.log', size: 65 << 20, text: async () => '' });
    s = store.getSnapshot();
    expect(s.logError).toBe('big_iops.1.log: is 65 MiB; the page reads fio logs up to 64 MiB');
    expect(s.runs).toHaveLength(2);
    store.dispose();
  });
});

describe('the page store, experiments', () => {
  it('starts, pauses, resumes and stops the experiment on every run with the same commands', async () => {
    const { store, runWorkers, expWorkers } = fakeStore();
    store.open();
    runWorkers[0].say(READY);
    runWorkers[0].say({ type: 'state', state: 'idle' });
    store.setRuns([settings(), settings({ drive: 'p3700-400' })], 0, { ...store.getSnapshot().experiment, id: 'four-corners' });
    expect(store.getSnapshot().experiment.id).toBe('four-corners');

    await store.start();
    const ids = store.getSnapshot().runs.map((r) => r.id);
    const [a, b] = expWorkers.filter((w) => w.types.includes('start'));
    expect(a.last('start')!.request).toMatchObject({ experiment: 'four-corners', drive: 's3700-200' });
    expect(b.last('start')!.request).toMatchObject({ experiment: 'four-corners', drive: 'p3700-400' });
    expect(runWorkers.every((w) => !w.types.includes('start'))).toBe(true); // no live run started
    expect(store.getSnapshot().experiments.get(ids[0])?.starting).toBe(true);

    const progress = { points_done: 0, points: 4, seconds_done: 0, seconds: 30, written_bytes: 0, bytes: 0 };
    for (const w of [a, b]) {
      w.say({ type: 'started', request: w.last('start')!.request, progress, columns: EXPERIMENTS[0].columns, figures: [] });
      w.say({ type: 'state', state: 'running' });
    }
    a.say({
      type: 'rows',
      rows: [['random write', 32, 120.5]],
      figures: [],
      csv: 'corner,qd,mb_s\nrandom write,32,120.5\n',
      progress: { ...progress, points_done: 1 },
      elapsed_ms: 40,
    });
    let s = store.getSnapshot();
    expect(s.experiments.get(ids[0])).toMatchObject({ state: 'running', starting: false, progress: { points_done: 1 } });
    expect(s.experiments.get(ids[0])?.table?.rows).toHaveLength(1);
    // The next batch's rows and CSV lines are appended to those before.
    a.say({ type: 'rows', rows: [['random write', 64, 130]], figures: [], csv: 'random write,64,130\n', progress, elapsed_ms: 90 });
    s = store.getSnapshot();
    expect(s.experiments.get(ids[0])?.table?.rows).toEqual([
      ['random write', 32, 120.5],
      ['random write', 64, 130],
    ]);
    expect(s.experiments.get(ids[0])?.csv).toBe('corner,qd,mb_s\nrandom write,32,120.5\nrandom write,64,130\n');
    // The rows bring the time so far (no progress message beside them).
    expect(s.experiments.get(ids[0])?.elapsedMs).toBe(90);

    store.pauseOrResume();
    expect([a.types.at(-1), b.types.at(-1)]).toEqual(['pause', 'pause']);
    a.say({ type: 'state', state: 'paused' });
    b.say({ type: 'state', state: 'paused' });
    expect(store.step()).toEqual({ field: 'type', message: 'step moves a live run by one second; this embed shows an experiment' });
    expect(store.seek(10)?.field).toBe('type');
    store.pauseOrResume();
    expect([a.types.at(-1), b.types.at(-1)]).toEqual(['resume', 'resume']);
    a.say({ type: 'state', state: 'running' });
    b.say({ type: 'state', state: 'running' });
    store.stop();
    expect([a.types.at(-1), b.types.at(-1)]).toEqual(['stop', 'stop']);

    // Clear: the other run goes, and the experiments are forgotten (their workers end).
    store.clear();
    s = store.getSnapshot();
    expect(s.runs.map((r) => r.id)).toEqual([ids[0]]);
    expect(s.experiments.size).toBe(0);
    expect(a.terminated && b.terminated).toBe(true);
    store.dispose();
  });
});

describe('the page store in an embed', () => {
  it('loads one engine (the first run’s), refuses a start the engine objects to, and keeps its runs on Clear', async () => {
    const { store, runWorkers } = fakeStore(true);
    store.open();
    store.setRuns([settings(), settings({ drive: 'p3700-400' })]);
    expect(runWorkers).toHaveLength(1); // the first run's worker is the engine
    runWorkers[0].say(READY);
    expect(store.getSnapshot().engineState).toBe('idle');

    const refused = store.start();
    await vi.advanceTimersByTimeAsync(0);
    const checks = runWorkers[0].sent.filter((m) => m.type === 'check');
    expect(checks).toHaveLength(2);
    runWorkers[0].say({ type: 'checked', id: checks[0].id, problem: null });
    runWorkers[0].say({ type: 'checked', id: checks[1].id, problem: { field: 'drive', message: 'unknown drive' } });
    expect(await refused).toEqual({ field: 'drive', message: 'unknown drive' });
    expect(store.getSnapshot().notice).toBe('drive: unknown drive');
    expect(runWorkers.some((w) => w.types.includes('start'))).toBe(false);

    const started = store.start();
    await vi.advanceTimersByTimeAsync(0);
    for (const m of runWorkers[0].sent.filter((x) => x.type === 'check').slice(2))
      runWorkers[0].say({ type: 'checked', id: m.id, problem: null });
    expect(await started).toBeNull();
    expect(store.getSnapshot().notice).toBeNull();
    // One fill at a time on this machine's core (share.ts fillsAtOnce): the second run's start
    // waits until the first has filled its drive.
    expect(runWorkers.map((w) => w.last('start')?.config)).toMatchObject([{ drive: 's3700-200' }, undefined]);
    accept(runWorkers[0]);
    expect(runWorkers.map((w) => w.last('start')?.config)).toMatchObject([{ drive: 's3700-200' }, { drive: 'p3700-400' }]);

    expect(store.seek(500)).toEqual({
      field: 'second',
      message: "must be a whole number from 0 to 100 (the run's length), or null for the whole run (got 500)",
    });
    expect(store.seek(40)).toBeNull();
    expect(store.getSnapshot().until).toBe(40);
    store.clear();
    const s = store.getSnapshot();
    expect(s.runs).toHaveLength(2);
    expect(s.until).toBeNull();
    expect(runWorkers.map((w) => w.types.filter((t) => t !== 'share').at(-1))).toEqual(['reset', 'reset']);
    store.dispose();
  });
});
