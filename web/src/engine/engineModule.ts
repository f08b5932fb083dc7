// The wasm module as the run worker sees it (engine/wasm's shell; protocol.ts mirrors its
// messages): the first module or the full one, and the questions it answers without a run.

import type { ExperimentInfo } from './experimentProtocol';
import { isEvidence, type Evidence } from './evidence';
import {
  type DrivePreset,
  type ImportReport,
  type PageToWorker,
  type ParameterInfo,
  type Problem,
  type SimConfig,
  type SourcesAnswer,
  type WorkerToPage,
  type WorkloadInfo,
} from './protocol';
import { errorMessage } from './slices';

/** The `Simulation` handle exported by engine/wasm (see protocol.ts). */
export interface EngineSimulation {
  /** Advances up to `max_ios` host IOs, stopping after second `last_second`. */
  advance_inside(max_ios: number, last_second: number): Float64Array;
  inside(): Float64Array;
  inside_layout(): string;
  latency_histogram(): Float64Array;
  cut_power_now(): number;
  set_capacitors_healthy(healthy: boolean): void;
  seconds_done(): number;
  finished(): boolean;
  memory_bytes(): number;
  parameters_json(): string;
  power_cuts_json(): string;
  free(): void;
}

/** The parts of the wasm module the worker uses. */
export interface EngineModule {
  presets(): string;
  workloads(): string;
  run_request_fields(): string;
  check_request(config_json: string): string;
  sample_fields(): string;
  parameter_info(drive: string): string;
  /** Only in the full module (see `needsFullEngine`). */
  fio_import?(config_json: string): string;
  trace_summary?(text: string, format: string, name: string): string;
  /** The articles' methods as JSON (engines before them lack it). */
  experiments?(): string;
  /** The published figures for a request's drive, with verdicts from its per-second columns (full module). */
  evidence?(config_json: string, iops: Float64Array, mb_s: Float64Array, mean_latency_us: Float64Array, host_writes: Float64Array): string;
  /** Where each of a preset's values comes from, path -> text (full module). */
  preset_sources?(drive: string): string;
  Simulation: new (config_json: string) => EngineSimulation;
}

/**
 * Whether a message needs the full engine module: a run or check of a request with a fio job
 * file or a trace, reading one (`import`), the published figures (`evidence`) or a preset's
 * sources. Everything else the first module answers.
 */
export function needsFullEngine(msg: PageToWorker): boolean {
  if (msg.type === 'import' || msg.type === 'evidence' || msg.type === 'sources') return true;
  if (msg.type !== 'start' && msg.type !== 'check') return false;
  const c = msg.config;
  return (c.fio !== undefined && c.fio !== null) || (c.trace !== undefined && c.trace !== null);
}

/** A buffer to transfer that the array owns entirely (never a view of wasm memory). */
export function ownBuffer(a: Float64Array): ArrayBuffer {
  const own = a.byteOffset === 0 && a.buffer.byteLength === a.byteLength && a.buffer instanceof ArrayBuffer ? a : a.slice();
  return own.buffer as ArrayBuffer;
}

/** The answer to a message that needed the full module, when it did not load (`message`: why). */
export function withoutFullEngine(msg: PageToWorker, message: string): WorkerToPage {
  if (msg.type === 'check') return { type: 'checked', id: msg.id, problem: { field: 'engine', message } };
  if (msg.type === 'import') return { type: 'imported', id: msg.id, report: { ok: false, field: 'engine', message } };
  if (msg.type === 'evidence') return { type: 'evidenced', id: msg.id, figures: [] };
  if (msg.type === 'sources') return { type: 'sourced', id: msg.id, answer: { ok: false, message } };
  return { type: 'error', message, recoverable: true };
}

/** A question the engine answers without a run. */
export type Question = Extract<PageToWorker, { type: 'check' | 'import' | 'describe' | 'evidence' | 'sources' }>;

/** The answer to a question (`check` -> `checked`, ...); throws if the engine fails. */
export function answer(engine: EngineModule, msg: Question): WorkerToPage {
  switch (msg.type) {
    case 'check':
      return { type: 'checked', id: msg.id, problem: checkRequest(engine, msg.config) };
    case 'import':
      return { type: 'imported', id: msg.id, report: importReport(engine, msg.config) };
    case 'describe':
      return { type: 'described', id: msg.id, parameters: parametersOf(engine, msg.drive) };
    case 'evidence':
      return { type: 'evidenced', id: msg.id, figures: evidenceOf(engine, msg.config, msg.columns) };
    case 'sources':
      return { type: 'sourced', id: msg.id, answer: sourcesOf(engine, msg.drive) };
  }
}

/** What a module offers (presets, workloads, request and sample fields, experiments): the worker's `ready`. */
export type ReadyMessage = Extract<WorkerToPage, { type: 'ready' }>;

export function offerOf(engine: EngineModule): ReadyMessage {
  return {
    type: 'ready',
    presets: JSON.parse(engine.presets()) as DrivePreset[],
    workloads: JSON.parse(engine.workloads()) as WorkloadInfo[],
    request_fields: JSON.parse(engine.run_request_fields()) as Record<string, unknown>,
    fields: JSON.parse(engine.sample_fields()) as string[],
    experiments: engine.experiments ? (JSON.parse(engine.experiments()) as ExperimentInfo[]) : [],
  };
}

/** The engine's objection to a request, or null. Cheap: the drive is not built. */
export function checkRequest(engine: EngineModule, config: SimConfig): Problem | null {
  const answer = JSON.parse(engine.check_request(JSON.stringify(config))) as { ok: true } | { ok: false; field: string; message: string };
  return answer.ok ? null : { field: answer.field, message: answer.message };
}

/** The per-second columns the published figures are measured on. */
export const EVIDENCE_FIELDS = ['iops', 'mb_s', 'mean_latency_us', 'host_writes'] as const;

/**
 * The published figures for a request's drive, with this run's verdicts when `columns` hold all
 * its seconds (EVIDENCE_FIELDS, in order; none before); none from an engine without them, for a
 * request it refuses, or when it fails: the figures are an extra, a run stands without them.
 */
function evidenceOf(engine: EngineModule, config: SimConfig, columns: readonly (readonly number[])[]): Evidence[] {
  if (!engine.evidence) return [];
  const [iops, mbS, latency, writes] = EVIDENCE_FIELDS.map((_, i) => Float64Array.from(columns[i] ?? []));
  try {
    const answer = JSON.parse(engine.evidence(JSON.stringify(config), iops, mbS, latency, writes)) as { ok: boolean; figures?: unknown };
    return answer.ok && Array.isArray(answer.figures) ? answer.figures.filter(isEvidence) : [];
  } catch {
    return [];
  }
}

/** Where each of a preset's values comes from, or why the engine cannot say. */
function sourcesOf(engine: EngineModule, drive: string): SourcesAnswer {
  if (!engine.preset_sources) return { ok: false, message: 'this engine module cannot tell them' };
  try {
    return { ok: true, sources: JSON.parse(engine.preset_sources(drive)) as Record<string, string> };
  } catch (e) {
    return { ok: false, message: `the engine could not read them (${errorMessage(e)})` };
  }
}

/** What a request's fio job file or trace holds, or the line that is wrong. */
function importReport(engine: EngineModule, config: SimConfig): ImportReport {
  const trace = config.trace as { text?: unknown; name?: unknown; format?: unknown } | undefined;
  if (!engine.trace_summary || !engine.fio_import) throw new Error('this engine module cannot read fio job files or traces');
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const json =
    typeof trace?.text === 'string'
      ? engine.trace_summary(trace.text, text(trace.format), text(trace.name))
      : engine.fio_import(JSON.stringify(config));
  return JSON.parse(json) as ImportReport;
}

/** Every parameter of a drive with what it accepts. */
function parametersOf(engine: EngineModule, drive: string): ParameterInfo[] {
  return JSON.parse(engine.parameter_info(drive)) as ParameterInfo[];
}
