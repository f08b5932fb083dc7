// The page's store: what the app and the embed show and every command they send, written once for
// live runs and experiments alike. It owns the runs (engine/runs.ts, a worker each) and their
// experiments (engine/experiments.ts); React reads its snapshot through one hook
// (hooks/usePageStore.ts), and the bridge of an embed sends it the same commands as its buttons.

import type { ColumnStore } from '../data/columns';
import { StorePrefix } from '../data/prefix';
import { createEngineWorker, type WorkerLike } from '../engine/client';
import { createExperimentWorker, ExperimentSet } from '../engine/experiments';
import type { Problem, SimConfig } from '../engine/protocol';
import { RunSet, type Catalog } from '../engine/runs';
import { readFioLog } from '../files/fioLog';
import { rangeWords } from '../format';
import { NO_EXPERIMENT, type ExperimentSettings } from '../settings/experimentState';
import { DEFAULTS } from '../settings/pageDefaults';
import { experimentRequestFor, runRequest, type SimRun } from '../settings/runSetup';
import type { RunSettings } from '../settings/urlState';
import { EditChecks } from './editChecks';
import { CHART_KEYS, chartViewOf, type ChartView, type PageState } from './state';

export interface StoreOptions {
  makeRunWorker?: () => WorkerLike;
  makeExperimentWorker?: () => WorkerLike;
  now?: () => number;
  /**
   * An embed: its runs are the ones its setup names (Clear empties them, it removes none); one
   * engine (the first run's worker) says what the engine offers; a start asks the engine first
   * and refuses with its objection; edits are not checked as they are made (nothing is edited).
   */
  embedded?: boolean;
}

/** What a start, a step or a seek was refused for (the embed's bridge tells its host page). */
export interface Refusal {
  field: string;
  message: string;
}

export class PageStore {
  private readonly runs: RunSet<RunSettings>;
  private readonly experimentSet: ExperimentSet;
  private readonly embedded: boolean;
  private loaded = false;
  private batching = 0;
  private readonly prefixes = new Map<number, StorePrefix>();
  private own = {
    experiment: NO_EXPERIMENT as ExperimentSettings,
    chart: chartViewOf(DEFAULTS),
    problem: null as Problem | null,
    experimentProblem: null as Problem | null,
    parameterInfo: {} as PageState['parameterInfo'],
    until: null as number | null,
    notice: null as string | null,
    logError: null as string | null,
  };
  private snap: PageState;
  private readonly listeners = new Set<() => void>();
  private readonly checks: EditChecks;

  constructor(options: StoreOptions = {}) {
    this.embedded = options.embedded ?? false;
    this.runs = new RunSet<RunSettings>(options.makeRunWorker ?? createEngineWorker, options.now, this.embedded);
    this.experimentSet = new ExperimentSet(options.makeExperimentWorker ?? createExperimentWorker);
    this.checks = new EditChecks(this.runs, this.experimentSet, (patch) => this.set(patch));
    this.snap = this.build();
    this.runs.subscribe(() => this.changed());
    this.experimentSet.subscribe(() => this.changed());
  }

  // ---- reading --------------------------------------------------------------------------------

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  getSnapshot = (): PageState => this.snap;

  /** What the engine offers, once it has said (at once if it has). */
  catalogReady(): Promise<Catalog> {
    return new Promise((resolve) => {
      const check = () => this.snap.catalog && (unsubscribe(), resolve(this.snap.catalog));
      const unsubscribe = this.subscribe(check);
      check();
    });
  }

  // ---- life -----------------------------------------------------------------------------------

  /** Loads the engine. Again after dispose(), as React's StrictMode does. */
  open(): void {
    this.loaded = true;
    this.runs.open();
    this.changed();
  }

  /** Whether the page shows the published figures (the app always; an embed when asked). */
  showFigures = (on: boolean): void => this.runs.showFigures(on);

  /** Ends every worker (the page is going away); runs keep their setups and results. */
  dispose(): void {
    this.loaded = false;
    this.checks.dispose();
    this.runs.dispose();
    this.experimentSet.dispose();
  }

  // ---- settings -------------------------------------------------------------------------------

  /**
   * The page's runs become these setups (a link, a lab step, an embed's setup), the `edit`th
   * edited; runs already there keep their workers, and every result is cleared. The chart's view
   * is the edited setup's.
   */
  setRuns(list: readonly RunSettings[], edit = 0, experiment?: ExperimentSettings): void {
    this.batch(() => {
      const have = this.runs.snapshot().runs;
      for (const r of have) if (r.kind === 'log') this.runs.remove(r.id);
      const sims = have.filter((r) => r.kind === 'sim');
      const ids = list.map((s, i) => {
        const r = sims[i];
        if (!r) return this.runs.add(s);
        this.runs.reset(r.id);
        this.runs.edit(r.id, s);
        return r.id;
      });
      for (const r of sims.slice(list.length)) this.runs.remove(r.id);
      const edited = ids[edit] ?? ids[0];
      if (edited !== null && edited !== undefined) this.runs.focus(edited);
      this.experimentSet.keepOnly([]);
      const shown = list[edit] ?? list[0];
      this.set({
        ...(shown ? { chart: chartViewOf(shown) } : {}),
        ...(experiment ? { experiment } : {}),
        until: null,
        notice: null,
      });
    });
  }

  /** Changes the edited run's settings (the chart's view keys change the page's view). */
  edit(patch: Partial<RunSettings>): void {
    const chart: Partial<ChartView> = {};
    const setup: Partial<RunSettings> = {};
    for (const [k, v] of Object.entries(patch)) {
      if ((CHART_KEYS as readonly string[]).includes(k)) Object.assign(chart, { [k]: v });
      else Object.assign(setup, { [k]: v });
    }
    if (Object.keys(setup).length > 0) {
      const r = this.edited();
      if (r?.setup) this.runs.edit(r.id, { ...r.setup, ...setup });
    }
    if (Object.keys(chart).length > 0) this.set({ chart: { ...this.own.chart, ...chart } });
  }

  /** A run's settings as a whole (the app checks a link's names against the engine). */
  replaceSetup(id: number, setup: RunSettings): void {
    this.runs.edit(id, setup);
  }

  setExperiment(patch: Partial<ExperimentSettings>): void {
    this.set({ experiment: { ...this.own.experiment, ...patch } });
  }

  focus(id: number): void {
    this.runs.focus(id);
  }

  /** A new run like the edited one, edited next (compare). */
  addRun(): void {
    const setup = this.edited()?.setup;
    if (setup) this.runs.add({ ...setup });
  }

  removeRun(id: number): void {
    this.experimentSet.remove(id);
    this.runs.remove(id);
  }

  // ---- commands -------------------------------------------------------------------------------

  /**
   * Starts the experiment picked on every run, or the live runs: the edited one and those not yet
   * started (an embed: every run). Resolves to the engine's objection when it refused (embed).
   */
  async start(): Promise<Refusal | null> {
    const s = this.snap;
    const catalog = s.catalog;
    if (!catalog) return null;
    this.set({ notice: null });
    const sims = s.runs.filter((r) => r.kind === 'sim' && r.setup !== null);
    const info = catalog.experiments.find((e) => e.id === s.experiment.id);
    if (s.experiment.id !== null) {
      if (!info) return null;
      const requests = sims.map((r) => experimentRequestFor(r.setup!, s.experiment, info, catalog));
      const refused = this.embedded ? await this.firstProblem(requests.map((q) => this.experimentSet.check(q))) : null;
      if (refused) return refused;
      this.experimentSet.keepOnly(sims.map((r) => r.id));
      sims.forEach((r, i) => this.experimentSet.start(r.id, requests[i]));
      return null;
    }
    const targets = this.embedded ? sims : sims.filter((r) => r.id === s.focusId || (!r.ran && !r.starting && r.state !== 'running'));
    const requests = targets.map((r) => runRequest(r.setup!, catalog));
    const refused = this.embedded ? await this.firstProblem(requests.map((q) => this.runs.check(q))) : null;
    if (refused) return refused;
    targets.forEach((r, i) => this.runs.start(r.id, requests[i], r.setup!));
    return null;
  }

  /** Starts the edited run at once with these settings (the guide's "try it"). */
  startEdited(patch: Partial<RunSettings>): void {
    const r = this.edited();
    const catalog = this.snap.catalog;
    if (!r?.setup || !catalog) return;
    const setup = { ...r.setup, ...patch };
    this.runs.edit(r.id, setup);
    this.runs.start(r.id, runRequest(setup, catalog), setup);
  }

  /** Runs every started live run again with the request it ran. */
  restart(): void {
    for (const r of this.sims()) if (r.ran) this.runs.start(r.id, r.ran.config, r.ran.setup);
  }

  pause(): void {
    if (this.experimentMode) {
      for (const e of this.snap.experiments.values()) if (e.state === 'running') this.experimentSet.pause(e.key);
    } else {
      for (const r of this.sims()) if (r.state === 'running') this.runs.pause(r.id);
    }
  }

  resume(): void {
    if (this.experimentMode) {
      for (const e of this.snap.experiments.values()) if (e.state === 'paused') this.experimentSet.resume(e.key);
    } else {
      for (const r of this.sims()) if (r.state === 'paused') this.runs.resume(r.id);
    }
  }

  /** The bar's Pause/Resume: resumes when nothing runs and something is paused, else pauses. */
  pauseOrResume(): void {
    const states = this.experimentMode ? [...this.snap.experiments.values()].map((e) => e.state) : this.sims().map((r) => r.state);
    if (!states.includes('running') && states.includes('paused')) this.resume();
    else this.pause();
  }

  /** Runs one more simulated second of every live run, then pauses. */
  step(): Refusal | null {
    if (this.experimentMode) return { field: 'type', message: 'step moves a live run by one second; this embed shows an experiment' };
    for (const r of this.sims()) if (r.state === 'running' || r.state === 'paused') this.runs.step(r.id);
    return null;
  }

  /** Ends the experiments; their rows so far stay. */
  stop(): void {
    for (const e of this.snap.experiments.values()) if (e.state === 'running' || e.state === 'paused') this.experimentSet.stop(e.key);
  }

  /**
   * Drops the results: the runs beside the edited one go (an embed keeps its runs), the live runs
   * are reset, or the experiments forgotten.
   */
  clear(): void {
    this.batch(() => {
      const focusId = this.snap.focusId;
      if (!this.embedded) for (const r of this.snap.runs) if (r.id !== focusId) this.runs.remove(r.id);
      if (this.experimentMode) this.experimentSet.keepOnly([]);
      else for (const r of this.runs.snapshot().runs) this.runs.reset(r.id);
      this.set({ until: null, notice: null });
    });
  }

  /** Shows the live runs up to `second` (null: every second). */
  seek(second: number | null): Refusal | null {
    if (this.experimentMode) return { field: 'type', message: 'seek shows a live run up to a second; this embed shows an experiment' };
    const total = Math.max(...this.sims().map((r) => r.setup?.seconds ?? 0));
    if (second !== null && second > total) {
      const range = rangeWords(0, total, true);
      return { field: 'second', message: `must be ${range} (the run's length), or null for the whole run (got ${second})` };
    }
    this.set({ until: second });
    return null;
  }

  /** Cuts the edited run's power at its next host command. */
  cutPower(): void {
    this.runs.cutPower(this.snap.focusId);
  }

  /** Fails the edited run's capacitor bank now, or replaces it. */
  setCapacitors(healthy: boolean): void {
    this.runs.setCapacitors(this.snap.focusId, healthy);
  }

  /** A real drive's fio log as a run of its own; a latency log switches the chart to latency. */
  async loadLog(file: Pick<File, 'name' | 'size' | 'text'>): Promise<void> {
    this.set({ logError: null });
    const read = await readFioLog(file);
    if (read.error !== undefined) return this.set({ logError: read.error });
    if (this.runs.addLog(file.name, read.log.fields, read.log.columns) === null) {
      return this.set({ logError: `${file.name}: four runs are on the chart already; remove one first` });
    }
    if (read.log.kind === 'lat') this.edit({ metric: 'mean_latency_us' });
  }

  /** Hides the engine's errors (every run's and experiment's). */
  dismissErrors(): void {
    for (const r of this.snap.runs) this.runs.clearError(r.id);
    for (const e of this.snap.experiments.values()) this.experimentSet.clearError(e.key);
  }

  /**
   * A run's seconds as far as the page has sought (every second when it has not): a view of its
   * store that follows it, the same object for the run's life.
   */
  sought(r: SimRun): ColumnStore {
    let p = this.prefixes.get(r.id);
    if (!p) {
      p = new StorePrefix(r.store);
      p.setUntil(this.own.until);
      this.prefixes.set(r.id, p);
    }
    return p;
  }

  /** What a fio job file or trace in a request holds (the settings' file picker). */
  inspect = (config: SimConfig) => this.runs.inspect(config);
  presetSources = (drive: string) => this.runs.presetSources(drive);

  // ---- inside ---------------------------------------------------------------------------------

  private get experimentMode(): boolean {
    return this.own.experiment.id !== null;
  }

  private sims(): SimRun[] {
    return this.runs.snapshot().runs.filter((r) => r.kind === 'sim');
  }

  private edited(): SimRun | undefined {
    return this.runs.run(this.runs.snapshot().focusId);
  }

  private async firstProblem(checks: Promise<Problem | null>[]): Promise<Refusal | null> {
    const problem = (await Promise.all(checks)).find((p) => p !== null) ?? null;
    if (problem) this.set({ notice: `${problem.field}: ${problem.message}` });
    return problem;
  }

  private set(patch: Partial<typeof this.own>): void {
    this.own = { ...this.own, ...patch };
    if ('until' in patch) for (const p of this.prefixes.values()) p.setUntil(this.own.until);
    this.changed();
  }

  private build(): PageState {
    const r = this.runs.snapshot();
    return {
      catalog: r.catalog,
      engineState: r.engineState,
      runs: r.runs,
      focusId: r.focusId,
      experiments: this.experimentSet.snapshot().entries,
      ...this.own,
    };
  }

  /** Runs `fn` as one change: the page hears of it (and follows it) once, at the end. */
  private batch(fn: () => void): void {
    this.batching++;
    try {
      fn();
    } finally {
      this.batching--;
    }
    this.changed();
  }

  private changed(): void {
    if (this.batching > 0) return;
    this.snap = this.build();
    for (const [id, p] of this.prefixes) {
      if (this.snap.runs.some((r) => r.id === id)) continue;
      p.dispose();
      this.prefixes.delete(id);
    }
    this.follow();
    for (const fn of [...this.listeners]) fn();
  }

  /** What follows a change: the edited run's worker loads ahead of its Start; edits are checked. */
  private follow(): void {
    const s = this.snap;
    const ready = s.catalog !== null && s.engineState !== 'loading';
    // An embed's first run's worker is its engine: it loads at once.
    if (this.loaded && (this.embedded || ready) && s.focusId) this.runs.prepare(s.focusId);
    if (this.loaded && !this.embedded && ready) this.checks.follow(s);
  }
}
