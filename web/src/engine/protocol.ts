// Messages between the page and the engine worker.
//
// Mirrors the wasm API in engine/wasm/src/lib.rs: `presets()`, `workloads()`,
// `run_request_fields()`, `check_request()`, `sample_fields()`, `parameter_info()`, and the
// `Simulation` handle (constructor(config_json), advance_inside(max_ios, last_second), inside(),
// inside_layout(), latency_histogram(), cut_power_now(), set_capacitors_healthy(), seconds_done(),
// finished(), memory_bytes(), parameters_json(), power_cuts_json(), free()). Samples cross as one
// transferred ArrayBuffer holding the column-major Float64Array that `advance_inside` returns:
// `fields.length` columns of `n` rows; the inside rows of the same seconds as a Float32 buffer.
// No SharedArrayBuffer: embeds are not cross-origin isolated.

import type { InsideLayout } from '../data/inside';
import { isEvidence, type Evidence } from './evidence';
import { isExperimentInfo, type ExperimentInfo } from './experimentProtocol';
import { isInt, isNum, isObj, isStr, isStrList } from './shapes';

/** A drive the engine knows, as `presets()` describes it. */
export interface DrivePreset {
  id: string;
  name: string;
  interface: string;
  raw_bytes: number;
  user_bytes: number;
  advertised_bytes: number;
  spec_random_write_iops: number;
  /** Every settable parameter path with the preset's value (as `ssdlab params` lists them). */
  parameters: Record<string, unknown>;
}

/**
 * Where each of a preset's values comes from (`preset_sources()`, `ssdlab presets --sources`):
 * parameter path -> text; or why the engine could not say (its full module did not load).
 */
export type SourcesAnswer = { ok: true; sources: Record<string, string> } | { ok: false; message: string };

/** One drive parameter and what it accepts (`parameter_info()`). */
export interface ParameterInfo {
  path: string;
  value: unknown;
  kind: 'whole' | 'number' | 'bool' | 'name' | 'text';
  /** The engine's words for a number's limits, e.g. "must be between 2 and 1024". */
  range: string | null;
  min: number | null;
  max: number | null;
  /** The names a `name` parameter takes. */
  choices?: string[];
}

/** A fio job file's import or a trace's summary: `ok` with what the engine reports, or the line that is wrong. */
export type ImportReport = { ok: true; [key: string]: unknown } | { ok: false; field: string; message: string };

/** A workload the engine knows, as `workloads()` describes it. */
export interface WorkloadInfo {
  id: string;
  description: string;
  /** Default transfer size, bytes, and host queue depth. */
  block_bytes: number;
  queue_depth: number;
  read_percent: number;
  /** A model of an application trace: it sets its own sizes, mix and queue depths. */
  model?: boolean;
}

/** The engine's run request (`Simulation` constructor, `check_request`). */
export interface SimConfig {
  drive: string;
  workload: string;
  /** Simulated seconds to run. */
  seconds: number;
  /** Fraction of the user LBA span filled and tested, 0 < span <= 1. */
  span: number;
  seed: number;
  /** Drive-parameter overrides by path, e.g. {"gc.pacing": "lazy"}. */
  set?: Record<string, string | number | boolean>;
  /** Any other run-request field the engine offers (queue_depth, power_cuts_s, ...). */
  [field: string]: unknown;
}

/** What the engine refuses in a request: the field (or parameter path) and what it accepts. */
export interface Problem {
  field: string;
  message: string;
}

/** What one power cut did (`Simulation.power_cuts_json()`). */
export interface PowerCut {
  at_s: number;
  /** Writes the host was told were done that did not survive. */
  acknowledged_writes_lost: number;
  /** Acknowledged writes not yet on NAND at the cut. */
  writes_at_risk: number;
  /** Units the capacitor flush programmed. */
  flushed_units: number;
  energy_needed_uj: number;
  energy_stored_uj: number;
  /** Time the next power-on spent rebuilding the map. */
  rebuild_ms: number;
}

/** Where the worker is. The page shows it and enables controls from it. */
export type EngineState = 'loading' | 'idle' | 'running' | 'paused' | 'finished' | 'error';

export const ENGINE_STATES: readonly EngineState[] = ['loading', 'idle', 'running', 'paused', 'finished', 'error'];

// ---- page -> worker --------------------------------------------------------------------------

export type PageToWorker =
  | { type: 'start'; config: SimConfig }
  /** Validate a request without running it; answered by `checked` with the same id. */
  | { type: 'check'; id: number; config: SimConfig }
  | { type: 'pause' }
  | { type: 'resume' }
  /** Run until one more simulated second is complete, then pause. */
  | { type: 'step' }
  | { type: 'reset' }
  /** Cut power at the host's next command (answered by `cut_asked`, then `power_cuts`). */
  | { type: 'cut_power' }
  /** Fail the capacitor bank now, or replace it. */
  | { type: 'capacitors'; healthy: boolean }
  /** Every parameter of a preset with what it accepts; answered by `described`. */
  | { type: 'describe'; id: number; drive: string }
  /** What a request's fio job file or trace holds (`fio_import`, `trace_summary`); answered by `imported`. */
  | { type: 'import'; id: number; config: SimConfig }
  /**
   * The published figures for a request's drive (`evidence()`), with verdicts from its seconds
   * (`columns`: EVIDENCE_FIELDS' values, or none before the run is done); answered by `evidenced`.
   */
  | { type: 'evidence'; id: number; config: SimConfig; columns: number[][] }
  /** Where each of a preset's values comes from (`preset_sources()`); answered by `sourced`. */
  | { type: 'sources'; id: number; drive: string }
  /**
   * The fraction of a core (0 < share <= 1) this run's engine may use while it runs, set by the
   * page from how many runs compute at once (share.ts); not an answer to anything, not a state.
   */
  | { type: 'share'; share: number };

// ---- worker -> page --------------------------------------------------------------------------

export interface RunSummary {
  seconds_done: number;
  /** Wall-clock time the engine's slices took in the worker: not pauses, nor the rests of its share. */
  elapsed_ms: number;
  memory_bytes: number;
}

export type WorkerToPage =
  | {
      type: 'ready';
      presets: DrivePreset[];
      workloads: WorkloadInfo[];
      /** Run-request field -> default, for every field this engine accepts. */
      request_fields: Record<string, unknown>;
      fields: string[];
      /** The articles' methods (`experiments()`), when this engine has them. */
      experiments?: ExperimentInfo[];
    }
  | { type: 'state'; state: EngineState }
  | {
      type: 'started';
      config: SimConfig;
      /** The run's drive after the request's overrides: path -> value. */
      parameters: Record<string, unknown>;
      memory_bytes: number;
      setup_ms: number;
      inside_layout: InsideLayout;
    }
  | { type: 'checked'; id: number; problem: Problem | null }
  | { type: 'described'; id: number; parameters: ParameterInfo[] }
  | { type: 'imported'; id: number; report: ImportReport }
  /** A power cut was asked for: it happens at `at_s` (-1: the run is over). */
  | { type: 'cut_asked'; at_s: number }
  /** Every power cut of the run so far, sent when one more has happened. */
  | { type: 'power_cuts'; cuts: PowerCut[] }
  | {
      type: 'samples';
      fields: string[];
      /** Rows in this batch (simulated seconds). */
      n: number;
      /** Column-major Float64 data: fields.length * n values. Transferred, not copied. */
      buffer: ArrayBuffer;
      /** Float32 inside rows of the same seconds: n * inside_layout.row values. */
      inside: ArrayBuffer;
      /** The run's latency histogram so far: Float64 (lowest ns, next lowest ns, count) triples. */
      latency: ArrayBuffer;
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
  | { type: 'evidenced'; id: number; figures: Evidence[] }
  | { type: 'sourced'; id: number; answer: SourcesAnswer }
  | {
      type: 'error';
      message: string;
      /** true when the run that was going is still usable */
      recoverable: boolean;
      /** The request field or parameter path the engine refused, when it names one. */
      field?: string;
    };

// ---- validation ------------------------------------------------------------------------------
// Messages cross a thread boundary; each side checks what it receives before acting on it.

/** Shape check of a config (types only; ranges are the engine's to judge and to explain). */
export function isSimConfig(v: unknown): v is SimConfig {
  return (
    isObj(v) &&
    isStr(v.drive) &&
    isStr(v.workload) &&
    isNum(v.seconds) &&
    isNum(v.span) &&
    isNum(v.seed) &&
    (v.set === undefined || isObj(v.set))
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
    isNum(v.spec_random_write_iops) &&
    isObj(v.parameters)
  );
}

function isParameterInfo(v: unknown): v is ParameterInfo {
  return isObj(v) && isStr(v.path) && isStr(v.kind) && (v.range === null || isStr(v.range));
}

function isInsideLayout(v: unknown): v is InsideLayout {
  return isObj(v) && ['dies', 'channels', 'valid_bins', 'erase_bins', 'row'].every((k) => isInt(v[k])) && isStrList(v.kinds);
}

export function isWorkloadInfo(v: unknown): v is WorkloadInfo {
  return isObj(v) && isStr(v.id) && isStr(v.description) && isNum(v.block_bytes) && isNum(v.queue_depth) && isNum(v.read_percent);
}

function isProblem(v: unknown): v is Problem {
  return isObj(v) && isStr(v.field) && isStr(v.message);
}

/** A sources answer: every text a string, or why there is none. */
function isSourcesAnswer(v: unknown): v is SourcesAnswer {
  if (!isObj(v)) return false;
  return v.ok === true ? isObj(v.sources) && Object.values(v.sources).every(isStr) : v.ok === false && isStr(v.message);
}

const isEvidenceList = (v: unknown): v is Evidence[] => Array.isArray(v) && v.every(isEvidence);

function isPowerCut(v: unknown): v is PowerCut {
  const keys = [
    'at_s',
    'acknowledged_writes_lost',
    'writes_at_risk',
    'flushed_units',
    'energy_needed_uj',
    'energy_stored_uj',
    'rebuild_ms',
  ];
  return isObj(v) && keys.every((k) => isNum(v[k]));
}

/** Returns the message if it is a well-formed page->worker message, else null. */
export function parsePageMessage(v: unknown): PageToWorker | null {
  if (!isObj(v)) return null;
  switch (v.type) {
    case 'start':
      return isSimConfig(v.config) ? { type: 'start', config: v.config } : null;
    case 'check':
      return isSimConfig(v.config) && isInt(v.id) ? { type: 'check', id: v.id, config: v.config } : null;
    case 'pause':
    case 'resume':
    case 'step':
    case 'reset':
    case 'cut_power':
      return { type: v.type };
    case 'capacitors':
      return typeof v.healthy === 'boolean' ? { type: 'capacitors', healthy: v.healthy } : null;
    case 'describe':
      return isInt(v.id) && isStr(v.drive) ? { type: 'describe', id: v.id, drive: v.drive } : null;
    case 'import':
      return isInt(v.id) && isSimConfig(v.config) ? { type: 'import', id: v.id, config: v.config } : null;
    case 'evidence':
      return isInt(v.id) && isSimConfig(v.config) && Array.isArray(v.columns) && v.columns.every((c) => Array.isArray(c) && c.every(isNum))
        ? { type: 'evidence', id: v.id, config: v.config, columns: v.columns as number[][] }
        : null;
    case 'sources':
      return isInt(v.id) && isStr(v.drive) ? { type: 'sources', id: v.id, drive: v.drive } : null;
    case 'share':
      return isNum(v.share) && v.share > 0 && v.share <= 1 ? { type: 'share', share: v.share } : null;
    default:
      return null;
  }
}

/** Returns the message if it is a well-formed worker->page message, else null. */
export function parseWorkerMessage(v: unknown): WorkerToPage | null {
  if (!isObj(v)) return null;
  switch (v.type) {
    case 'ready':
      return Array.isArray(v.presets) &&
        v.presets.every(isDrivePreset) &&
        Array.isArray(v.workloads) &&
        v.workloads.every(isWorkloadInfo) &&
        isObj(v.request_fields) &&
        isStrList(v.fields) &&
        (v.experiments === undefined || (Array.isArray(v.experiments) && v.experiments.every(isExperimentInfo)))
        ? (v as WorkerToPage)
        : null;
    case 'state':
      return isStr(v.state) && (ENGINE_STATES as readonly string[]).includes(v.state) ? (v as WorkerToPage) : null;
    case 'started':
      return isSimConfig(v.config) && isObj(v.parameters) && isNum(v.memory_bytes) && isNum(v.setup_ms) && isInsideLayout(v.inside_layout)
        ? (v as WorkerToPage)
        : null;
    case 'checked':
      return isInt(v.id) && (v.problem === null || isProblem(v.problem)) ? (v as WorkerToPage) : null;
    case 'described':
      return isInt(v.id) && Array.isArray(v.parameters) && v.parameters.every(isParameterInfo) ? (v as WorkerToPage) : null;
    case 'imported':
      return isInt(v.id) && isObj(v.report) && typeof v.report.ok === 'boolean' ? (v as WorkerToPage) : null;
    case 'cut_asked':
      return isNum(v.at_s) ? (v as WorkerToPage) : null;
    case 'power_cuts':
      return Array.isArray(v.cuts) && v.cuts.every(isPowerCut) ? (v as WorkerToPage) : null;
    case 'samples': {
      if (!isStrList(v.fields) || !isNum(v.n) || !(v.buffer instanceof ArrayBuffer)) return null;
      if (!(v.inside instanceof ArrayBuffer) || !(v.latency instanceof ArrayBuffer)) return null;
      const cols = v.fields.length;
      const ok =
        Number.isInteger(v.n) &&
        v.n >= 0 &&
        cols > 0 &&
        v.buffer.byteLength === cols * v.n * 8 &&
        v.inside.byteLength % 4 === 0 &&
        v.latency.byteLength % 24 === 0;
      return ok ? (v as WorkerToPage) : null;
    }
    case 'progress':
      return isNum(v.seconds_done) && isNum(v.memory_bytes) && isNum(v.slice_ios) && isNum(v.slice_ms) ? (v as WorkerToPage) : null;
    case 'finished':
      return isObj(v.summary) && isNum(v.summary.seconds_done) && isNum(v.summary.elapsed_ms) && isNum(v.summary.memory_bytes)
        ? (v as WorkerToPage)
        : null;
    case 'evidenced':
      return isInt(v.id) && isEvidenceList(v.figures) ? (v as WorkerToPage) : null;
    case 'sourced':
      return isInt(v.id) && isSourcesAnswer(v.answer) ? (v as WorkerToPage) : null;
    case 'error':
      return isStr(v.message) && typeof v.recoverable === 'boolean' && (v.field === undefined || isStr(v.field))
        ? (v as WorkerToPage)
        : null;
    default:
      return null;
  }
}
