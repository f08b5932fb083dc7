// Messages between the page and an experiment worker (engine/experimentWorker.ts).
//
// Mirrors the wasm shell's `experiments()` and its `Experiment` handle (constructor(request_json),
// advance(max_ios) -> rows added, finished(), progress_json(), table_json(), rows_json(from),
// figures_json(), csv(from), free()).
// Each batch sends the rows new since the last and their CSV lines (the first batch's with the
// header), which the page appends: a fill's table has a row per second, thousands of them. The
// CSV is the engine's own text, exactly what `ssdlab sweep` prints.

import { isEvidence, type Evidence } from './evidence';
import { isInt, isNum, isNumList, isObj, isStr, isStrList } from './shapes';

/** One of the articles' methods, as `experiments()` lists it. */
export interface ExperimentInfo {
  id: string;
  title: string;
  article: string;
  about: string;
  /** Defaults: simulated seconds per point (0: until its writes end, a whole-drive fill), ramp
   * seconds, queue depths. */
  seconds: number;
  ramp_seconds: number;
  queue_depths: number[];
  columns: string[];
  /** The recoveries' defaults: the rests (s), and the seconds of random writes that make the
   * drive dirty. */
  rest_seconds: number[];
  dirty_seconds: number;
  /** The states dirty-recovery measures, and what a recovery request may ask (`rests`: how
   * many rests; `gb`: written before and after a rest): the engine checks the same. */
  states: string[];
  limits: Record<'rests' | 'rest_seconds' | 'gb' | 'dirty_seconds', { min: number; max: number }>;
}

const LIMIT_KEYS = ['rests', 'rest_seconds', 'gb', 'dirty_seconds'] as const;
const isRange = (v: unknown) => isObj(v) && isNum(v.min) && isNum(v.max);
const hasLimits = (v: unknown) => isObj(v) && LIMIT_KEYS.every((k) => isRange(v[k]));

/** The engine's experiment request (`new Experiment(json)`, `ssdlab sweep`). */
export interface ExperimentRequest {
  experiment: string;
  drive: string;
  set?: Record<string, string | number | boolean>;
  seed?: number;
  seconds?: number;
  ramp_seconds?: number;
  queue_depths?: number[];
  spans?: number[];
  span?: number;
  precondition?: 'article' | 'fill';
  /** placement: apps, layouts, over-provisionings (% of the data) and drive writes a point. */
  hosts?: string[];
  layouts?: string[];
  op_percents?: number[];
  drive_writes?: number;
  /** idle-recovery: GB written before and after each rest; both recoveries: the rests (s). */
  write_gb?: number;
  rest_seconds?: number[];
  then_gb?: number;
  /** dirty-recovery: seconds of random writes first, and the states measured. */
  dirty_seconds?: number;
  states?: string[];
}

export type Cell = string | number | boolean | null;

export interface ExperimentTable {
  experiment: string;
  columns: string[];
  rows: Cell[][];
}

/**
 * A published figure of the experiment's drive beside its table (`figures_json()`): the row
 * (its labels: corner, queue depth, ...) and column it sits at, its verdict from that row once
 * the row is in, or (`row` null) why no row is measured under its conditions.
 */
export interface TableFigure extends Evidence {
  row: Record<string, Cell> | null;
  column: string | null;
  /** The figure's request size: an IOPS figure drawn as MB/s, or MB/s as IOPS. */
  block_bytes: number;
  /** A fill's figure over part of it: from and to this much written (GB); null: the start, the end. */
  from_gb?: number | null;
  to_gb?: number | null;
}

export interface ExperimentProgress {
  points_done: number;
  points: number;
  /** Simulated seconds of the running point, done and planned. */
  seconds_done: number;
  seconds: number;
  /** Host bytes the running point has written, and will write before its writes end it (a
   * whole-drive fill); both 0 for a point its seconds end. */
  written_bytes: number;
  bytes: number;
}

export type ExperimentState = 'loading' | 'idle' | 'running' | 'paused' | 'stopped' | 'finished' | 'error';

export type PageToExperiment =
  | { type: 'start'; request: ExperimentRequest }
  /** Is this request accepted? Answered by `checked` with the same id. Builds no drive. */
  | { type: 'check'; id: number; request: ExperimentRequest }
  | { type: 'pause' }
  | { type: 'resume' }
  /** Ends the experiment; the rows so far stay. */
  | { type: 'stop' };

export type ExperimentToPage =
  | { type: 'ready'; experiments: ExperimentInfo[] }
  | { type: 'state'; state: ExperimentState }
  | { type: 'started'; request: ExperimentRequest; progress: ExperimentProgress; columns: string[]; figures: TableFigure[] }
  | { type: 'checked'; id: number; problem: { field: string; message: string } | null }
  /** `rows` and `csv`: the new rows and their CSV lines, to append to those before (a slice
   * that adds rows sends this alone, its progress with them: one update of the page a slice). */
  | { type: 'rows'; rows: Cell[][]; figures: TableFigure[]; csv: string; progress: ExperimentProgress; elapsed_ms: number }
  | { type: 'progress'; progress: ExperimentProgress; elapsed_ms: number }
  | { type: 'finished'; rows: Cell[][]; figures: TableFigure[]; csv: string; progress: ExperimentProgress; elapsed_ms: number }
  | { type: 'error'; message: string; field?: string; recoverable: boolean };

export function isExperimentInfo(v: unknown): v is ExperimentInfo {
  return (
    isObj(v) &&
    ['id', 'title', 'article', 'about'].every((k) => isStr(v[k])) &&
    isNum(v.seconds) &&
    isNum(v.ramp_seconds) &&
    isNumList(v.queue_depths) &&
    isStrList(v.columns) &&
    isNumList(v.rest_seconds) &&
    isNum(v.dirty_seconds) &&
    isStrList(v.states) &&
    hasLimits(v.limits)
  );
}

/** Shape check only: ranges are the engine's to judge and to explain. */
export function isExperimentRequest(v: unknown): v is ExperimentRequest {
  return (
    isObj(v) &&
    isStr(v.experiment) &&
    isStr(v.drive) &&
    (v.set === undefined || isObj(v.set)) &&
    ['seed', 'seconds', 'ramp_seconds', 'span', 'drive_writes'].every((k) => v[k] === undefined || isNum(v[k])) &&
    (v.hosts === undefined || isStrList(v.hosts)) &&
    (v.layouts === undefined || isStrList(v.layouts)) &&
    (v.op_percents === undefined || isNumList(v.op_percents)) &&
    (v.queue_depths === undefined || isNumList(v.queue_depths)) &&
    (v.spans === undefined || isNumList(v.spans)) &&
    (v.precondition === undefined || v.precondition === 'article' || v.precondition === 'fill')
  );
}

export function isProgress(v: unknown): v is ExperimentProgress {
  return isObj(v) && ['points_done', 'points', 'seconds_done', 'seconds', 'written_bytes', 'bytes'].every((k) => isInt(v[k]));
}

function isCell(v: unknown): v is Cell {
  return v === null || isStr(v) || isNum(v) || typeof v === 'boolean';
}

/** Rows of cells (their lengths are checked against the columns where they are appended). */
function isRows(v: unknown): v is Cell[][] {
  return Array.isArray(v) && v.every((r) => Array.isArray(r) && r.every(isCell));
}

export function isTableFigure(v: unknown): v is TableFigure {
  return (
    isEvidence(v) &&
    isObj(v) &&
    (v.row === null || (isObj(v.row) && Object.values(v.row).every(isCell))) &&
    (v.column === null || isStr(v.column)) &&
    isNum(v.block_bytes) &&
    [v.from_gb, v.to_gb].every((g) => g === undefined || g === null || isNum(g))
  );
}

const isFigureList = (v: unknown): v is TableFigure[] => Array.isArray(v) && v.every(isTableFigure);

const STATES: readonly ExperimentState[] = ['loading', 'idle', 'running', 'paused', 'stopped', 'finished', 'error'];

export function parsePageToExperiment(v: unknown): PageToExperiment | null {
  if (!isObj(v)) return null;
  switch (v.type) {
    case 'start':
      return isExperimentRequest(v.request) ? { type: 'start', request: v.request } : null;
    case 'check':
      return isInt(v.id) && isExperimentRequest(v.request) ? { type: 'check', id: v.id, request: v.request } : null;
    case 'pause':
    case 'resume':
    case 'stop':
      return { type: v.type };
    default:
      return null;
  }
}

export function parseExperimentToPage(v: unknown): ExperimentToPage | null {
  if (!isObj(v)) return null;
  switch (v.type) {
    case 'ready':
      return Array.isArray(v.experiments) && v.experiments.every(isExperimentInfo) ? (v as ExperimentToPage) : null;
    case 'state':
      return isStr(v.state) && (STATES as readonly string[]).includes(v.state) ? (v as ExperimentToPage) : null;
    case 'started':
      return isExperimentRequest(v.request) && isProgress(v.progress) && isStrList(v.columns) && isFigureList(v.figures)
        ? (v as ExperimentToPage)
        : null;
    case 'checked':
      return isInt(v.id) && (v.problem === null || (isObj(v.problem) && isStr(v.problem.field) && isStr(v.problem.message)))
        ? (v as ExperimentToPage)
        : null;
    case 'rows':
    case 'finished':
      return isRows(v.rows) && isFigureList(v.figures) && isStr(v.csv) && isProgress(v.progress) && isNum(v.elapsed_ms)
        ? (v as ExperimentToPage)
        : null;
    case 'progress':
      return isProgress(v.progress) && isNum(v.elapsed_ms) ? (v as ExperimentToPage) : null;
    case 'error':
      return isStr(v.message) && typeof v.recoverable === 'boolean' && (v.field === undefined || isStr(v.field))
        ? (v as ExperimentToPage)
        : null;
    default:
      return null;
  }
}

/** "seconds: must be ..." -> {field, message}; the engine's errors name their field first. */
export function splitEngineError(text: string): { field: string; message: string } {
  const m = text.match(/^([A-Za-z_][\w.]*(?: \(how many\))?): (.*)$/s);
  return m ? { field: m[1], message: m[2] } : { field: '', message: text };
}
