// The experiments on the page: one per run in the legend (the same experiment on each run's
// drive and design), each in its own worker, plus one worker that checks requests while they
// are edited and one loaded ahead for the next start. React reads an immutable snapshot
// (useSyncExternalStore).

import type { WorkerLike } from './client';
import {
  parseExperimentToPage,
  type ExperimentProgress,
  type ExperimentRequest,
  type ExperimentState,
  type ExperimentTable,
  type ExperimentToPage,
  type TableFigure,
} from './experimentProtocol';

export function createExperimentWorker(): WorkerLike {
  return new Worker(new URL('./experimentWorker.ts', import.meta.url), { type: 'module', name: 'ssdlab-experiment' });
}

export interface ExperimentEntry {
  key: number;
  /** The request its rows come from (null until the engine accepted one). */
  request: ExperimentRequest | null;
  state: ExperimentState;
  /** Start pressed, not yet accepted. */
  starting: boolean;
  progress: ExperimentProgress | null;
  table: ExperimentTable | null;
  /** The published figures of its drive beside the table (experimentProtocol's TableFigure). */
  figures: readonly TableFigure[];
  /** The table as the engine writes it (`ssdlab sweep`'s CSV). */
  csv: string;
  elapsedMs: number;
  error: { message: string; field?: string } | null;
}

export interface ExperimentsSnapshot {
  entries: ReadonlyMap<number, ExperimentEntry>;
}

export type Problem = { field: string; message: string };

interface Slot {
  entry: ExperimentEntry;
  worker: WorkerLike | null;
}

/** A worker loaded before it is needed, with what it said meanwhile (its ready and idle state). */
interface Spare {
  worker: WorkerLike;
  said: MessageEvent[];
  failed: boolean;
}

export class ExperimentSet {
  private slots = new Map<number, Slot>();
  private checker: WorkerLike | null = null;
  /** Loaded with the checker, while the settings are edited: Start does not wait for a worker
   * to load and compile the engine (~0.3-0.5 s on 2 cores). The first start takes it. */
  private spare: Spare | null = null;
  private checks = new Map<number, (p: Problem | null) => void>();
  private nextCheck = 1;
  private snap: ExperimentsSnapshot = { entries: new Map() };
  private readonly listeners = new Set<() => void>();

  constructor(private readonly makeWorker: () => WorkerLike = createExperimentWorker) {}

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
  snapshot = (): ExperimentsSnapshot => this.snap;

  /** Whether the engine accepts a request (it plans the points, builds no drive). */
  check(request: ExperimentRequest): Promise<Problem | null> {
    if (!this.checker) {
      const w = this.makeWorker();
      w.onmessage = (e) => {
        const msg = parseExperimentToPage(e.data);
        if (msg?.type !== 'checked') return;
        this.checks.get(msg.id)?.(msg.problem);
        this.checks.delete(msg.id);
      };
      w.onerror = () => this.answerChecks();
      this.checker = w;
    }
    this.spare ??= this.loadSpare();
    const id = this.nextCheck++;
    return new Promise((resolve) => {
      this.checks.set(id, resolve);
      this.checker!.postMessage({ type: 'check', id, request });
    });
  }

  start(key: number, request: ExperimentRequest): void {
    const slot = this.slot(key);
    this.patch(key, { starting: true, error: null });
    (slot.worker ?? this.spawn(slot, key)).postMessage({ type: 'start', request });
  }
  pause(key: number): void {
    this.slots.get(key)?.worker?.postMessage({ type: 'pause' });
  }
  resume(key: number): void {
    this.slots.get(key)?.worker?.postMessage({ type: 'resume' });
  }
  stop(key: number): void {
    this.slots.get(key)?.worker?.postMessage({ type: 'stop' });
  }
  clearError(key: number): void {
    if (this.slots.has(key)) this.patch(key, { error: null });
  }

  /** Stops and forgets an experiment (its worker ends, freeing its memory). */
  remove(key: number): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    slot.worker?.terminate();
    this.slots.delete(key);
    this.changed();
  }

  /** Removes every experiment whose key is not listed. */
  keepOnly(keys: readonly number[]): void {
    for (const k of [...this.slots.keys()]) if (!keys.includes(k)) this.remove(k);
  }

  dispose(): void {
    for (const k of [...this.slots.keys()]) this.remove(k);
    this.spare?.worker.terminate();
    this.spare = null;
    this.checker?.terminate();
    this.checker = null;
    this.answerChecks();
  }

  private answerChecks(): void {
    for (const resolve of this.checks.values()) resolve(null);
    this.checks.clear();
  }

  private slot(key: number): Slot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = {
        entry: {
          key,
          request: null,
          state: 'loading',
          starting: false,
          progress: null,
          table: null,
          figures: [],
          csv: '',
          elapsedMs: 0,
          error: null,
        },
        worker: null,
      };
      this.slots.set(key, slot);
    }
    return slot;
  }

  private loadSpare(): Spare {
    const spare: Spare = { worker: this.makeWorker(), said: [], failed: false };
    spare.worker.onmessage = (e) => spare.said.push(e);
    spare.worker.onerror = () => (spare.failed = true);
    return spare;
  }

  /** Gives the experiment its worker: the spare if it loaded well, else a new one. */
  private spawn(slot: Slot, key: number): WorkerLike {
    const spare = this.spare;
    this.spare = null;
    if (spare?.failed) spare.worker.terminate();
    const w = spare && !spare.failed ? spare.worker : this.makeWorker();
    w.onmessage = (e) => {
      if (this.slots.get(key)?.worker !== w) return;
      const msg = parseExperimentToPage(e.data);
      if (!msg) {
        this.patch(key, { error: { message: 'The engine sent a malformed message.' } });
        return;
      }
      this.receive(key, msg);
    };
    w.onerror = (e) => {
      if (this.slots.get(key)?.worker !== w) return;
      e.preventDefault?.();
      this.patch(key, {
        state: 'error',
        starting: false,
        error: { message: `The engine worker failed${e.message ? `: ${e.message}` : ''}` },
      });
    };
    slot.worker = w;
    for (const e of spare && !spare.failed ? spare.said : []) w.onmessage(e);
    return w;
  }

  private receive(key: number, msg: ExperimentToPage): void {
    switch (msg.type) {
      case 'state':
        this.patch(key, { state: msg.state });
        break;
      case 'started':
        this.patch(key, {
          starting: false,
          request: msg.request,
          progress: msg.progress,
          table: { experiment: msg.request.experiment, columns: msg.columns, rows: [] },
          figures: msg.figures,
          csv: '',
          elapsedMs: 0,
          error: null,
        });
        break;
      case 'rows':
      case 'finished': {
        // The message brings the new rows and their CSV lines: append them.
        const { table, csv } = this.slot(key).entry;
        if (!table || msg.rows.some((r) => r.length !== table.columns.length)) {
          this.patch(key, { error: { message: 'The engine sent a malformed message.' } });
          break;
        }
        this.patch(key, {
          table: { ...table, rows: table.rows.concat(msg.rows) },
          figures: msg.figures,
          csv: csv + msg.csv,
          progress: msg.progress,
          elapsedMs: msg.elapsed_ms,
        });
        break;
      }
      case 'progress':
        this.patch(key, { progress: msg.progress, elapsedMs: msg.elapsed_ms });
        break;
      case 'error':
        this.patch(key, { starting: false, error: { message: msg.message, ...(msg.field ? { field: msg.field } : {}) } });
        break;
      default:
        break;
    }
  }

  private patch(key: number, patch: Partial<ExperimentEntry>): void {
    const slot = this.slot(key);
    slot.entry = { ...slot.entry, ...patch };
    this.changed();
  }

  private changed(): void {
    this.snap = { entries: new Map([...this.slots].map(([k, s]) => [k, s.entry])) };
    for (const fn of [...this.listeners]) fn();
  }
}
