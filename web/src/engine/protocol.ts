// Messages between the page and the engine worker.
//
// Mirrors the wasm API in engine/wasm/src/lib.rs: `presets()`, `sample_fields()` and the
// `Simulation` handle (constructor(config_json), advance(max_ios), seconds_done(), finished(),
// memory_bytes(), free()). Samples cross as one transferred ArrayBuffer holding the
// column-major Float64Array that `advance` returns: `fields.length` columns of `n` rows.
// No SharedArrayBuffer: embeds are not cross-origin isolated.

/** A drive the engine knows, as `presets()` describes it. */
export interface DrivePreset {
  id: string;
  name: string;
  interface: string;
  raw_bytes: number;
  user_bytes: number;
  advertised_bytes: number;
  spec_random_write_iops: number;
}

/** The engine's config JSON (`Simulation` constructor). */
export interface SimConfig {
  drive: string;
  workload: string;
  /** Simulated seconds to run. */
  seconds: number;
  /** Fraction of the user LBA span filled and tested, 0 < span <= 1. */
  span: number;
  seed: number;
}

/** Where the worker is. The page shows it and enables controls from it. */
export type EngineState = 'loading' | 'idle' | 'running' | 'paused' | 'finished' | 'error';

export const ENGINE_STATES: readonly EngineState[] = [
  'loading',
  'idle',
  'running',
  'paused',
  'finished',
  'error',
];

// ---- page -> worker --------------------------------------------------------------------------

export type PageToWorker =
  | { type: 'start'; config: SimConfig }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'reset' };

// ---- worker -> page --------------------------------------------------------------------------

export interface RunSummary {
  seconds_done: number;
  /** Wall-clock time the run took in the worker, excluding pauses. */
  elapsed_ms: number;
  memory_bytes: number;
}

export type WorkerToPage =
  | { type: 'ready'; presets: DrivePreset[]; fields: string[] }
  | { type: 'state'; state: EngineState }
  | { type: 'started'; config: SimConfig; memory_bytes: number; setup_ms: number }
  | {
      type: 'samples';
      fields: string[];
      /** Rows in this batch (simulated seconds). */
      n: number;
      /** Column-major Float64 data: fields.length * n values. Transferred, not copied. */
      buffer: ArrayBuffer;
    }
  | {
      type: 'progress';
      seconds_done: number;
      memory_bytes: number;
      /** Host IOs asked of the engine per slice, and how long the last slice took. */
      slice_ios: number;
      slice_ms: number;
    }
  | { type: 'finished'; summary: RunSummary }
  | { type: 'error'; message: string; /** true when the run that was going is still usable */ recoverable: boolean };

// ---- validation ------------------------------------------------------------------------------
// Messages cross a thread boundary; each side checks what it receives before acting on it.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);

/** Shape check of a config (types only; ranges are the engine's to judge and to explain). */
export function isSimConfig(v: unknown): v is SimConfig {
  return (
    isObj(v) &&
    isStr(v.drive) &&
    isStr(v.workload) &&
    isNum(v.seconds) &&
    isNum(v.span) &&
    isNum(v.seed)
  );
}

export function isDrivePreset(v: unknown): v is DrivePreset {
  return (
    isObj(v) &&
    isStr(v.id) &&
    isStr(v.name) &&
    isStr(v.interface) &&
    isNum(v.raw_bytes) &&
    isNum(v.user_bytes) &&
    isNum(v.advertised_bytes) &&
    isNum(v.spec_random_write_iops)
  );
}

/** Returns the message if it is a well-formed page->worker message, else null. */
export function parsePageMessage(v: unknown): PageToWorker | null {
  if (!isObj(v)) return null;
  switch (v.type) {
    case 'start':
      return isSimConfig(v.config) ? { type: 'start', config: v.config } : null;
    case 'pause':
    case 'resume':
    case 'reset':
      return { type: v.type };
    default:
      return null;
  }
}

/** Returns the message if it is a well-formed worker->page message, else null. */
export function parseWorkerMessage(v: unknown): WorkerToPage | null {
  if (!isObj(v)) return null;
  switch (v.type) {
    case 'ready':
      return Array.isArray(v.presets) && v.presets.every(isDrivePreset) && isStrArray(v.fields)
        ? (v as WorkerToPage)
        : null;
    case 'state':
      return isStr(v.state) && (ENGINE_STATES as readonly string[]).includes(v.state)
        ? (v as WorkerToPage)
        : null;
    case 'started':
      return isSimConfig(v.config) && isNum(v.memory_bytes) && isNum(v.setup_ms)
        ? (v as WorkerToPage)
        : null;
    case 'samples': {
      if (!isStrArray(v.fields) || !isNum(v.n) || !(v.buffer instanceof ArrayBuffer)) return null;
      const cols = v.fields.length;
      const ok =
        Number.isInteger(v.n) && v.n >= 0 && cols > 0 && v.buffer.byteLength === cols * v.n * 8;
      return ok ? (v as WorkerToPage) : null;
    }
    case 'progress':
      return isNum(v.seconds_done) && isNum(v.memory_bytes) && isNum(v.slice_ios) && isNum(v.slice_ms)
        ? (v as WorkerToPage)
        : null;
    case 'finished':
      return isObj(v.summary) &&
        isNum(v.summary.seconds_done) &&
        isNum(v.summary.elapsed_ms) &&
        isNum(v.summary.memory_bytes)
        ? (v as WorkerToPage)
        : null;
    case 'error':
      return isStr(v.message) && typeof v.recoverable === 'boolean' ? (v as WorkerToPage) : null;
    default:
      return null;
  }
}
