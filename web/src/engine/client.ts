// One small object hiding the engine worker from the page.
//
// The page calls start/pause/resume/reset and subscribes to what the worker says. After a fatal
// engine error (a wasm trap, a failed load), reset() replaces the worker with a fresh one.

import type { Evidence } from './evidence';
import {
  parseWorkerMessage,
  type DrivePreset,
  type EngineState,
  type ImportReport,
  type PageToWorker,
  type ParameterInfo,
  type Problem,
  type SimConfig,
  type SourcesAnswer,
  type WorkerToPage,
} from './protocol';

export type Listener = (msg: WorkerToPage) => void;

/** What the client needs from a Worker; tests pass a fake. */
export interface WorkerLike {
  postMessage(msg: unknown): void;
  terminate(): void;
  onmessage: ((e: MessageEvent) => void) | null;
  onerror: ((e: ErrorEvent) => void) | null;
  onmessageerror?: ((e: MessageEvent) => void) | null;
}

export function createEngineWorker(): WorkerLike {
  return new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'ssdlab-engine' });
}

export class EngineClient {
  private worker: WorkerLike;
  private readonly listeners = new Set<Listener>();
  private _state: EngineState = 'loading';
  private _presets: DrivePreset[] = [];
  private _fields: string[] = [];
  /** Checks sent and not yet answered, by id. */
  private readonly checks = new Map<number, (problem: Problem | null) => void>();
  private nextCheckId = 1;
  /** The share of a core the page last gave this run's engine (a new worker starts at 1). */
  private share = 1;
  /** Descriptions and imports asked for and not yet answered, by id (ids shared with checks). */
  private readonly descriptions = new Map<number, (parameters: ParameterInfo[]) => void>();
  private readonly imports = new Map<number, (report: ImportReport) => void>();
  private readonly evidence = new Map<number, (figures: Evidence[]) => void>();
  private readonly sourcesAsked = new Map<number, (answer: SourcesAnswer) => void>();

  constructor(private readonly makeWorker: () => WorkerLike = createEngineWorker) {
    this.worker = this.spawn();
  }

  get state(): EngineState {
    return this._state;
  }
  get presets(): readonly DrivePreset[] {
    return this._presets;
  }
  get fields(): readonly string[] {
    return this._fields;
  }

  /** Calls `fn` with every message from the worker; returns the unsubscribe function. */
  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  start(config: SimConfig): void {
    this.send({ type: 'start', config });
  }
  /** Asks the engine whether it accepts a request, without running it. */
  check(config: SimConfig): Promise<Problem | null> {
    const id = this.nextCheckId++;
    return new Promise((resolve) => {
      this.checks.set(id, resolve);
      this.send({ type: 'check', id, config });
    });
  }
  /** Every parameter of a drive with what it accepts. */
  describe(drive: string): Promise<ParameterInfo[]> {
    const id = this.nextCheckId++;
    return new Promise((resolve) => {
      this.descriptions.set(id, resolve);
      this.send({ type: 'describe', id, drive });
    });
  }
  /** What a request's fio job file or trace holds, or the line that is wrong. */
  inspect(config: SimConfig): Promise<ImportReport> {
    const id = this.nextCheckId++;
    return new Promise((resolve) => {
      this.imports.set(id, resolve);
      this.send({ type: 'import', id, config });
    });
  }
  /** The published figures for a request's drive, with verdicts once `columns` hold its seconds. */
  figures(config: SimConfig, columns: number[][] = []): Promise<Evidence[]> {
    const id = this.nextCheckId++;
    return new Promise((resolve) => {
      this.evidence.set(id, resolve);
      this.send({ type: 'evidence', id, config, columns });
    });
  }

  /** Where each of a preset's values comes from (the worker loads the full engine module for them). */
  sources(drive: string): Promise<SourcesAnswer> {
    const id = this.nextCheckId++;
    return new Promise((resolve) => {
      this.sourcesAsked.set(id, resolve);
      this.send({ type: 'sources', id, drive });
    });
  }

  pause(): void {
    this.send({ type: 'pause' });
  }
  cutPower(): void {
    this.send({ type: 'cut_power' });
  }
  setCapacitors(healthy: boolean): void {
    this.send({ type: 'capacitors', healthy });
  }
  resume(): void {
    this.send({ type: 'resume' });
  }
  step(): void {
    this.send({ type: 'step' });
  }
  /** The fraction of a core (0 < share <= 1) the engine may use while it runs (share.ts). */
  setShare(share: number): void {
    if (share === this.share) return;
    this.share = share;
    this.send({ type: 'share', share });
  }
  reset(): void {
    if (this._state === 'error') {
      this.worker.terminate();
      this.answerPendingChecks();
      this.worker = this.spawn();
    } else {
      this.send({ type: 'reset' });
    }
  }

  dispose(): void {
    this.worker.terminate();
    this.answerPendingChecks();
    this.listeners.clear();
  }

  /** A worker that is gone will not answer: its checks end with no objection. */
  private answerPendingChecks(): void {
    for (const resolve of this.checks.values()) resolve(null);
    this.checks.clear();
    for (const resolve of this.descriptions.values()) resolve([]);
    this.descriptions.clear();
    for (const resolve of this.imports.values()) resolve({ ok: false, field: 'engine', message: 'the engine stopped' });
    this.imports.clear();
    for (const resolve of this.evidence.values()) resolve([]);
    this.evidence.clear();
    for (const resolve of this.sourcesAsked.values()) resolve({ ok: false, message: 'the engine stopped' });
    this.sourcesAsked.clear();
  }

  private send(msg: PageToWorker): void {
    this.worker.postMessage(msg);
  }

  private spawn(): WorkerLike {
    this.setState('loading');
    const w = this.makeWorker();
    // A worker spawned again after a crash keeps the run's share.
    if (this.share !== 1) w.postMessage({ type: 'share', share: this.share } satisfies PageToWorker);
    w.onmessage = (e) => {
      if (w !== this.worker) return; // a replaced worker's last words
      const msg = parseWorkerMessage(e.data);
      if (!msg) {
        this.emit({ type: 'error', message: 'The engine sent a malformed message.', recoverable: true });
        return;
      }
      if (msg.type === 'ready') {
        this._presets = msg.presets;
        this._fields = msg.fields;
      }
      if (msg.type === 'state') this._state = msg.state;
      if (msg.type === 'checked') {
        this.checks.get(msg.id)?.(msg.problem);
        this.checks.delete(msg.id);
        return;
      }
      if (msg.type === 'imported') {
        this.imports.get(msg.id)?.(msg.report);
        this.imports.delete(msg.id);
        return;
      }
      if (msg.type === 'evidenced') {
        this.evidence.get(msg.id)?.(msg.figures);
        this.evidence.delete(msg.id);
        return;
      }
      if (msg.type === 'sourced') {
        this.sourcesAsked.get(msg.id)?.(msg.answer);
        this.sourcesAsked.delete(msg.id);
        return;
      }
      if (msg.type === 'described') {
        this.descriptions.get(msg.id)?.(msg.parameters);
        this.descriptions.delete(msg.id);
        return;
      }
      this.emit(msg);
    };
    w.onerror = (e) => {
      if (w !== this.worker) return;
      e.preventDefault?.();
      this.setState('error');
      const detail = e.message ? `: ${e.message}` : '';
      this.emit({ type: 'error', message: `The engine worker failed${detail}`, recoverable: false });
    };
    w.onmessageerror = () => {
      this.emit({ type: 'error', message: 'A message from the engine could not be read.', recoverable: true });
    };
    return w;
  }

  private setState(state: EngineState): void {
    if (this._state === state) return;
    this._state = state;
    this.emit({ type: 'state', state });
  }

  private emit(msg: WorkerToPage): void {
    for (const fn of [...this.listeners]) fn(msg);
  }
}
