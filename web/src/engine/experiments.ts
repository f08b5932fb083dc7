// The experiments on the page: one per run in the legend (the same experiment on each run's
// drive and design), each in its own worker, plus one worker that checks requests while they
// are edited. React reads an immutable snapshot (useSyncExternalStore).

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

export class ExperimentSet {
  private slots = new Map<number, Slot>();
  private checker: WorkerLike | null = null;
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
    const id = this.nextCheck++;
    return new Promise((resolve) => {
      this.checks.set(id, resolve);
      this.checker!.postMessage({ type: 'check', id, request });
    });
  }

  start(key: number, request: ExperimentRequest): void {
    const slot = this.slot(key);
    this.patch(key, { starting: true, error: null });
    if (!slot.worker) slot.worker = this.spawn(key);
    slot.worker.postMessage({ type: 'start', request });
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

  private spawn(key: number): WorkerLike {
    const w = this.makeWorker();
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
