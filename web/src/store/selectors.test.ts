import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SimConfig } from '../engine/protocol';
import { cut, fakeStore, LAYOUT, READY, SAMPLE_FIELDS, settings, type FakeWorker } from './fakeEngine';
import {
  activity,
  badgeState,
  chartTitle,
  emptyText,
  latestAskedCut,
  markers,
  panelContext,
  progress,
  runNames,
  runSeries,
  runSeconds,
  viewExplain,
  xDomain,
} from './selectors';
import { consistency } from '../scenarios/consistency';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

// Recorded with the CLI (engine at d5d9bdd):
//   ssdlab run --drive s3700-200 --seconds 12 --span 0.05 --power-cut-at 6 --csv rec.csv --json
// second, iops, mb_s, mean_latency_us; the cut at 6 s lost no acknowledged write.
const RECORDED = [
  [0, 89052, 364.756992, 359.29200988186676],
  [1, 88892, 364.101632, 359.97856491022816],
  [2, 88892, 364.101632, 359.99194420195295],
  [3, 88896, 364.118016, 359.97621310295176],
  [4, 88896, 364.118016, 359.86324046076317],
  [5, 88924, 364.232704, 359.96437407224147],
  [6, 84828, 347.455488, 359.384394963927],
  [7, 88896, 364.118016, 359.9758603311735],
  [8, 88892, 364.101632, 359.97834531791386],
  [9, 88900, 364.1344, 359.87588895388075],
  [10, 88924, 364.232704, 359.9515573748369],
  [11, 88888, 364.085248, 359.99269408694084],
];
const RECORDED_CUT = { ...cut(6, 0), writes_at_risk: 256, flushed_units: 256, energy_needed_uj: 17783, energy_stored_uj: 50807 };

/** Posts recorded rows [from, to) as the worker does: column-major, one batch. */
function replay(w: FakeWorker, from: number, to: number): void {
  const rows = RECORDED.slice(from, to);
  const data = new Float64Array(SAMPLE_FIELDS.length * rows.length);
  SAMPLE_FIELDS.forEach((_, k) => rows.forEach((row, i) => (data[k * rows.length + i] = row[k])));
  w.say({
    type: 'samples',
    fields: SAMPLE_FIELDS,
    n: rows.length,
    buffer: data.buffer,
    inside: new ArrayBuffer(rows.length * 4 * LAYOUT.row),
    latency: new Float64Array([1e3, 2e3, rows.length]).buffer,
  });
}

/** The worker accepts its last start (the recorded run's request) and runs it. */
function accept(w: FakeWorker, parameters: Record<string, unknown> = READY.presets[0].parameters): SimConfig {
  const config = w.last('start')!.config as SimConfig;
  w.say(READY); // a run's worker says what the engine knows once it has loaded
  w.say({ type: 'started', config, parameters, memory_bytes: 1, setup_ms: 5, inside_layout: LAYOUT });
  w.say({ type: 'state', state: 'running' });
  return config;
}

/** An app with its engine loaded and the recorded run's settings, not started. */
function app(patch = {}) {
  const f = fakeStore();
  f.store.open();
  f.runWorkers[0].say(READY);
  f.runWorkers[0].say({ type: 'state', state: 'idle' });
  f.store.setRuns([settings({ seconds: 12, span: 0.05, ...patch })]);
  return f;
}

describe('chart selectors on a recorded run', () => {
  it('draws each run’s recorded column in its colour, the edited run last, with the same series between seconds', async () => {
    const { store, runWorkers } = app();
    await store.start();
    const a = runWorkers[1];
    accept(a);
    replay(a, 0, 12);
    store.addRun();
    store.edit({ drive: 'p3700-400' });
    await store.start();
    const b = runWorkers[2];
    accept(b);
    replay(b, 0, 4);

    const s = store.getSnapshot();
    const names = runNames(s);
    expect([...names.values()]).toEqual(['S3700 200GB, 96% spare', 'P3700 400GB, 96% spare']);
    const series = runSeries(s);
    expect(series.map((x) => [x.key, x.label, x.color, x.field])).toEqual([
      [`run${s.runs[0].id}`, 'S3700 200GB, 96% spare', 'var(--run-1)', 'iops'],
      [`run${s.runs[1].id}`, 'P3700 400GB, 96% spare', 'var(--run-2)', 'iops'],
    ]);
    expect(Array.from(series[0].store.column('iops'))).toEqual(RECORDED.map((r) => r[1]));
    expect(series[1].store.length).toBe(4);
    replay(b, 4, 8);
    vi.advanceTimersByTime(1000);
    expect(runSeries(store.getSnapshot())).toBe(series); // same runs, names, metric

    expect(runSeconds(s)).toBe(12);
    expect(xDomain(s)).toEqual([0, 12]);
    expect(chartTitle(s)).toBe('IOPS per second: 2 runs, Whole run (log)');
    store.removeRun(s.runs[1].id);
    expect(chartTitle(store.getSnapshot())).toBe('4 KB IO consistency (the articles’ test) IOPS per second, Whole run (log)');
    store.edit({ view: 'steady-log' });
    // The article's words for its test (4 KB random writes, IOPS plotted)...
    expect(viewExplain(store.getSnapshot())).toBe(consistency.views[1].explain);
    // The steady-state views start at 1400 s, clamped into a 12 s run.
    const [from, to] = xDomain(store.getSnapshot());
    expect(to).toBe(12);
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThan(12);
    // Another metric: the same runs' recorded MB/s column.
    store.edit({ metric: 'mb_s' });
    const mb = runSeries(store.getSnapshot());
    expect(mb.map((x) => x.field)).toEqual(['mb_s']);
    expect(Array.from(mb[0].store.column('mb_s'))).toEqual(RECORDED.map((r) => r[2]));
    expect(chartTitle(store.getSnapshot())).toMatch(/ MB\/s per second, From \d+ s \(log\)$/);
    // ...and for MB/s, which the article did not plot, what the view shows of any run.
    expect(viewExplain(store.getSnapshot())).toBe(consistency.views[1].general);
    store.dispose();
  });

  it('marks the scheduled cut and a cut asked during the run, each with its outcome once known', async () => {
    const { store, runWorkers } = app({ design: {} });
    await store.start();
    const w = runWorkers[1];
    // The recorded run's request scheduled its cut at 6 s.
    const config = w.last('start')!.config as SimConfig;
    w.say(READY);
    w.say({
      type: 'started',
      config: { ...config, power_cuts_s: [6] },
      parameters: {},
      memory_bytes: 1,
      setup_ms: 5,
      inside_layout: LAYOUT,
    });
    w.say({ type: 'state', state: 'running' });
    replay(w, 0, 5);
    expect(markers(store.getSnapshot())).toEqual([{ at: 6, label: 'power cut' }]);
    replay(w, 5, 9);
    w.say({ type: 'power_cuts', cuts: [RECORDED_CUT] });
    store.cutPower();
    w.say({ type: 'cut_asked', at_s: 9.25 });
    expect(markers(store.getSnapshot())).toEqual([
      { at: 6, label: 'power cut · 0 lost' },
      { at: 9.25, label: 'power cut' },
    ]);
    expect(latestAskedCut(store.getSnapshot())).toEqual({ at: 9.25, report: null });
    w.say({ type: 'power_cuts', cuts: [RECORDED_CUT, cut(9.25, 3)] });
    expect(markers(store.getSnapshot()).map((m) => m.label)).toEqual(['power cut · 0 lost', 'power cut · 3 lost']);
    expect(latestAskedCut(store.getSnapshot())).toEqual({ at: 9.25, report: cut(9.25, 3) });
    store.dispose();
  });

  it('says why the chart is empty, and shows the edited run’s progress', async () => {
    const { store, runWorkers } = fakeStore();
    store.open();
    store.setRuns([settings({ seconds: 12 })]);
    const idle = 'Choose a drive, a workload and a design, then press Start.';
    expect(emptyText(store.getSnapshot(), idle)).toBe('Loading the engine…');
    runWorkers[0].say(READY);
    runWorkers[0].say({ type: 'state', state: 'idle' });
    expect(emptyText(store.getSnapshot(), idle)).toBe(idle);
    expect(progress(store.getSnapshot())).toBeNull();
    await store.start();
    expect(emptyText(store.getSnapshot(), idle)).toBe('Erasing and filling the drive…');
    expect(progress(store.getSnapshot())).toMatchObject({ starting: true, totalSeconds: 12, secondsDone: 0 });
    const w = runWorkers[1];
    accept(w);
    replay(w, 0, 7);
    w.say({ type: 'progress', seconds_done: 7, memory_bytes: 1, slice_ios: 1, slice_ms: 1 });
    w.say({ type: 'state', state: 'paused' });
    const s = store.getSnapshot();
    expect(progress(s)).toMatchObject({ starting: false, totalSeconds: 12, secondsDone: 7, state: 'paused' });
    expect(badgeState(s)).toBe('paused');
    expect(activity(s)).toBe('paused');
    expect(emptyText(s, idle, true)).toBe('Paused while out of view.');
    store.dispose();
  });
});

describe('the app and the embed see the same chart (the two drifts)', () => {
  it('an embed’s panels know a trace model: its own request shape stays, as in the app', () => {
    // A trace model with a request size the model ignores (6 KB would mean partial writes).
    const patch = { workload: 'swingbench', design: { block: 6144 } };
    const { store: appStore } = app(patch);
    const embed = fakeStore(true);
    embed.store.open();
    embed.store.setRuns([settings({ seconds: 12, span: 0.05, ...patch })]);
    embed.runWorkers[0].say(READY);
    const inApp = panelContext(appStore.getSnapshot());
    const inEmbed = panelContext(embed.store.getSnapshot());
    expect(inEmbed.workload).toBe('swingbench');
    expect(inEmbed.partialWrites).toBe(false);
    expect(inEmbed).toEqual(inApp);
    // With a synthetic workload the same request size does make partial writes.
    embed.store.edit({ workload: 'consistency' });
    expect(panelContext(embed.store.getSnapshot()).partialWrites).toBe(true);
    appStore.dispose();
    embed.store.dispose();
  });

  it('an embed’s chart marks the power cuts asked for during its run', async () => {
    const { store, runWorkers } = fakeStore(true);
    store.open();
    store.setRuns([settings({ seconds: 12 })]);
    const w = runWorkers[0];
    w.say(READY);
    const started = store.start();
    await vi.advanceTimersByTimeAsync(0);
    w.say({ type: 'checked', id: w.last('check')!.id, problem: null });
    await started;
    accept(w);
    replay(w, 0, 4);
    store.cutPower();
    w.say({ type: 'cut_asked', at_s: 4.5 });
    expect(store.seek(8)).toBeNull();
    expect(markers(store.getSnapshot())).toEqual([
      { at: 4.5, label: 'power cut' },
      { at: 8, label: '8 s' },
    ]);
    store.dispose();
  });
});
