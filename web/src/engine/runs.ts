// The runs on the page: up to four, each a simulation in its own worker or a log a user dropped,
// each with its own column store. One more worker (the catalog) tells what the engine offers
// and checks requests while they are edited, so checking never waits behind a running slice.
//
// React reads an immutable snapshot (useSyncExternalStore); samples go straight into each run's
// store and the charts redraw from it without React.

import { createEngineWorker, EngineClient, type WorkerLike } from './client';
import type { ExperimentInfo } from './experimentProtocol';
import type {
  DrivePreset,
  EngineState,
  ImportReport,
  ParameterInfo,
  Problem,
  SimConfig,
  SourcesAnswer,
  WorkerToPage,
  WorkloadInfo,
} from './protocol';
import { EVIDENCE_FIELDS } from './engineModule';
import { engineShare, newSlot, onRunMessage, setPaused, startQueued, type Run, type Slot } from './run';

export const MAX_RUNS = 4;

export interface Catalog {
  presets: readonly DrivePreset[];
  workloads: readonly WorkloadInfo[];
  /** Run-request field -> default, for every field this engine accepts. */
  requestFields: Readonly<Record<string, unknown>>;
  /** The engine's sample columns, in its order (the CSV's columns). */
  sampleFields: readonly string[];
  /** The articles' methods the engine runs as experiments. */
  experiments: readonly ExperimentInfo[];
}

export interface RunsSnapshot<S> {
  catalog: Catalog | null;
  /** The catalog worker's state ('loading' until the engine has loaded). */
  engineState: EngineState;
  runs: readonly Run<S>[];
  focusId: number;
}

/**
 * How often progress alone reaches React: the readouts need no more, and four runs' slices
 * would otherwise re-render the page dozens of times a second while their workers compete with
 * the main thread for the cores. Anything else (a state, a start, an error) goes at once.
 */
export const PROGRESS_MS = 250;

export class RunSet<S> {
  private catalogClient: EngineClient | null = null;
  /** An embed's worker for the published figures, started when it first shows them. */
  private figuresClient: EngineClient | null = null;
  private figuresShown = false;
  private catalog: Catalog | null = null;
  private engineState: EngineState = 'loading';
  private slots: Slot<S>[] = [];
  private focusId = 0;
  private nextId = 1;
  private snap: RunsSnapshot<S>;
  private progressTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly makeWorker: () => WorkerLike = createEngineWorker,
    private readonly now: () => number = () => performance.now(),
    /**
     * Learn what the engine offers from the first run's worker, and check requests there, instead
     * of in a worker of its own: an embed then loads one engine, not two.
     */
    private readonly catalogFromRuns = false,
    /** The machine's cores, which the runs' engines share with the page (share.ts). */
    private readonly cores: number = typeof navigator === 'undefined' ? 1 : navigator.hardwareConcurrency,
  ) {
    this.snap = this.build();
  }

  /** Loads the engine (the catalog worker). Again after dispose(), as React's StrictMode does. */
  open(): void {
    if (this.catalogClient || this.catalogFromRuns) return;
    const client = new EngineClient(this.makeWorker);
    this.catalogClient = client;
    client.subscribe((msg) => {
      if (this.catalogClient !== client) return;
      if (msg.type === 'ready') {
        this.catalog = catalogOf(msg);
      } else if (msg.type === 'state') {
        this.engineState = msg.state;
      } else {
        return;
      }
      this.changed();
    });
  }

  // ---- reading --------------------------------------------------------------------------------

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  snapshot = (): RunsSnapshot<S> => this.snap;

  run(id: number): Run<S> | undefined {
    return this.slots.find((s) => s.run.id === id)?.run;
  }

  // ---- runs -----------------------------------------------------------------------------------

  /** A new simulation run with this setup (not started), focused. Null when four runs exist. */
  add(setup: S): number | null {
    const slot = this.freeSlot();
    if (slot < 0) return null;
    const id = this.nextId++;
    this.slots.push(newSlot(id, 'sim', slot, setup, null, this.catalog?.sampleFields));
    this.focusId = id;
    this.changed();
    return id;
  }

  /** A log of a real drive as a run of its own (e.g. fio's IOPS log), focused unless a run is. */
  addLog(fileName: string, fields: readonly string[], columns: readonly Float64Array[]): number | null {
    const slot = this.freeSlot();
    if (slot < 0) return null;
    const id = this.nextId++;
    const s = newSlot<S>(id, 'log', slot, null, fileName, this.catalog?.sampleFields);
    const n = columns[0]?.length ?? 0;
    const data = new Float64Array(fields.length * n);
    columns.forEach((c, k) => data.set(c, k * n));
    s.run.store.reset(fields);
    s.run.store.appendColumnMajor(fields, n, data);
    s.run.state = 'finished';
    s.run.secondsDone = n > 0 ? columns[0][n - 1] + 1 : 0;
    this.slots.push(s);
    this.changed();
    return id;
  }

  focus(id: number): void {
    if (this.focusId === id || !this.run(id)) return;
    this.focusId = id;
    this.changed();
  }

  /** The setup the panel edits for a run. */
  edit(id: number, setup: S): void {
    const s = this.slot(id);
    if (!s || s.run.kind !== 'sim') return;
    s.run = { ...s.run, setup };
    this.changed();
  }

  remove(id: number): void {
    const s = this.slot(id);
    if (!s) return;
    this.disconnect(s);
    this.slots = this.slots.filter((x) => x !== s);
    if (this.focusId === id) this.focusId = this.slots.find((x) => x.run.kind === 'sim')?.run.id ?? 0;
    this.changed();
  }

  /** Removes every run (the page then adds a fresh one for its settings). */
  clear(): void {
    for (const s of this.slots) this.disconnect(s);
    this.slots = [];
    this.focusId = 0;
    this.changed();
  }

  // ---- control --------------------------------------------------------------------------------

  /** Loads run `id`'s worker ahead of its Start, so Start does not wait for the engine to load. */
  prepare(id: number): void {
    const s = this.slot(id);
    if (s && s.run.kind === 'sim' && !s.client) this.connect(s);
  }

  /** Starts (or starts again) run `id` with a request; its old results stay until it starts. */
  start(id: number, config: SimConfig, setup: S): void {
    const s = this.slot(id);
    if (!s || s.run.kind !== 'sim') return;
    if (!s.client || s.client.state === 'error') this.connect(s);
    s.pendingSetup = setup;
    s.run = { ...s.run, setup, starting: true, error: null };
    s.queued = { config, paused: false }; // sent when its turn to fill comes (run.ts `startQueued`)
    this.changed();
  }

  pause(id: number): void {
    setPaused(this.slot(id), true);
  }
  resume(id: number): void {
    setPaused(this.slot(id), false);
  }
  /** Runs one more simulated second, then pauses. */
  step(id: number): void {
    this.slot(id)?.client?.step();
  }

  /** Cuts power at the run's next host command; the cut shows once its second is done. */
  cutPower(id: number): void {
    const s = this.slot(id);
    if (s?.run.ran && (s.run.state === 'running' || s.run.state === 'paused')) s.client?.cutPower();
  }

  /** Fails the run's capacitor bank now, or replaces it. */
  setCapacitors(id: number, healthy: boolean): void {
    const s = this.slot(id);
    if (!s?.run.ran || !s.client || (s.run.state !== 'running' && s.run.state !== 'paused')) return;
    s.client.setCapacitors(healthy);
    s.run = { ...s.run, capacitorsHealthy: healthy };
    this.changed();
  }

  /** Stops a run and drops its results (its setup stays). */
  reset(id: number): void {
    const s = this.slot(id);
    if (!s || !s.client) return;
    s.accepting = false;
    s.queued = null;
    s.client.reset();
    s.run.store.reset();
    s.run.inside.reset(null);
    s.run = {
      ...s.run,
      ran: null,
      starting: false,
      secondsDone: 0,
      last: {},
      speed: NaN,
      summary: null,
      powerCuts: [],
      cutsAsked: [],
      capacitorsHealthy: true,
      evidence: [],
      error: null,
    };
    this.changed();
  }

  clearError(id: number): void {
    const s = this.slot(id);
    if (!s || !s.run.error) return;
    s.run = { ...s.run, error: null };
    this.changed();
  }

  /** The engine's objection to a request (null: it would run), without running it. */
  check(config: SimConfig): Promise<Problem | null> {
    return this.checker()?.check(config) ?? Promise.resolve(null);
  }

  /** Every parameter of a drive with what it accepts (empty until the engine has loaded). */
  describe(drive: string): Promise<ParameterInfo[]> {
    return this.checker()?.describe(drive) ?? Promise.resolve([]);
  }

  /** What a request's fio job file or trace holds, or the line that is wrong. */
  inspect(config: SimConfig): Promise<ImportReport> {
    return this.checker()?.inspect(config) ?? Promise.resolve({ ok: false, field: 'engine', message: 'the engine is loading' });
  }

  /**
   * Where each of a preset's values comes from. The catalog worker answers (it loads the full
   * engine module for them); an embed, which has none, does not show them.
   */
  presetSources(drive: string): Promise<SourcesAnswer> {
    return this.catalogClient?.sources(drive) ?? Promise.resolve({ ok: false, message: 'the engine is not loaded' });
  }

  /**
   * Whether an embed shows the published figures. Its runs' workers do not answer for them (one
   * that loaded the full module would hold two engines' memory from its next run on), so a
   * worker of their own answers, started the first time they are shown.
   */
  showFigures(on: boolean): void {
    if (on === this.figuresShown) return;
    this.figuresShown = on;
    if (on) for (const s of this.slots) this.askFigures(s);
  }

  /** Ends every worker (the page is going away); runs keep their setups and results. */
  dispose(): void {
    for (const s of this.slots) this.disconnect(s);
    this.catalogClient?.dispose();
    this.catalogClient = null;
    this.figuresClient?.dispose();
    this.figuresClient = null;
  }

  // ---- inside ---------------------------------------------------------------------------------

  /** The worker that checks requests: the catalog's, or the first run's when they share one. */
  private checker(): EngineClient | null {
    return this.catalogClient ?? (this.catalogFromRuns ? (this.slots.find((s) => s.client)?.client ?? null) : null);
  }

  private disconnect(s: Slot<S>): void {
    s.unsubscribe?.();
    s.client?.dispose();
    s.client = null;
    s.unsubscribe = null;
  }

  private slot(id: number): Slot<S> | undefined {
    return this.slots.find((s) => s.run.id === id);
  }

  private freeSlot(): number {
    if (this.slots.length >= MAX_RUNS) return -1;
    const used = new Set(this.slots.map((s) => s.run.slot));
    for (let i = 0; i < MAX_RUNS; i++) if (!used.has(i)) return i;
    return -1;
  }

  /** Gives a run its own worker (the first start, or after the engine crashed in it). */
  private connect(s: Slot<S>): void {
    this.disconnect(s);
    const client = new EngineClient(this.makeWorker);
    s.client = client;
    s.unsubscribe = client.subscribe((msg) => {
      if (s.client !== client) return;
      if (msg.type === 'ready') {
        if (!this.catalogFromRuns || this.catalog) return;
        this.catalog = catalogOf(msg);
        this.engineState = 'idle';
        this.changed();
        return;
      }
      const heard = onRunMessage(s, client, msg, this.now);
      if (msg.type === 'started' || (msg.type === 'finished' && heard === 'changed')) this.askFigures(s);
      if (heard === 'changed') this.changed();
      else if (heard === 'soon') this.changedSoon();
    });
  }

  /** The worker that answers for the published figures (see showFigures), or null. */
  private figuresWorker(): EngineClient | null {
    if (this.catalogClient || !this.figuresShown) return this.catalogClient;
    this.figuresClient ??= new EngineClient(this.makeWorker);
    return this.figuresClient;
  }

  /**
   * The published figures for the run's request, with its verdicts once it has finished. The
   * catalog worker answers (it loads the full engine module for them: the first module leaves
   * them out), or an embed's figures worker when it shows them.
   */
  private askFigures(s: Slot<S>): void {
    const ran = s.run.ran;
    if (!ran) return;
    const client = this.figuresWorker();
    if (!client) return;
    const { store } = s.run;
    const columns = s.run.summary ? EVIDENCE_FIELDS.map((f) => (store.has(f) ? Array.from(store.column(f)) : [])) : [];
    void client.figures(ran.config, columns).then((figures) => {
      if (s.run.ran !== ran || !this.slots.includes(s)) return; // restarted or removed meanwhile
      s.run = { ...s.run, evidence: figures };
      this.changed();
    });
  }

  private build(): RunsSnapshot<S> {
    return {
      catalog: this.catalog,
      engineState: this.engineState,
      runs: this.slots.map((s) => s.run),
      focusId: this.focusId,
    };
  }

  /** A change React may hear of with the next batch (see PROGRESS_MS). */
  private changedSoon(): void {
    this.progressTimer ??= setTimeout(() => this.changed(), PROGRESS_MS);
  }

  private changed(): void {
    // Every change of a run's state, a start or a removal comes here: the next fills, and each
    // worker's share of a core (the fills under way take theirs first).
    startQueued(this.slots, this.cores);
    const share = engineShare(this.slots, this.cores);
    for (const s of this.slots) if (s.client && s.client.state !== 'error') s.client.setShare(share);
    if (this.progressTimer !== null) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    this.snap = this.build();
    for (const fn of [...this.listeners]) fn();
  }
}

function catalogOf(msg: Extract<WorkerToPage, { type: 'ready' }>): Catalog {
  return {
    presets: msg.presets,
    workloads: msg.workloads,
    requestFields: msg.request_fields,
    sampleFields: msg.fields,
    experiments: msg.experiments ?? [],
  };
}
