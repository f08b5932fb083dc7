// What the page and the embed share about a run's setup (beside its defaults, pageDefaults.ts):
// what the engine offers for a drive, the requests built from a setup, the panels' context, and a
// run's name in the legend.

import type { PanelContext } from '../data/panels';
import { viewLabel, type ViewSpec } from '../data/views';
import type { ExperimentInfo, ExperimentRequest } from '../engine/experimentProtocol';
import type { DrivePreset, SimConfig, WorkloadInfo } from '../engine/protocol';
import type { Run } from '../engine/run';
import { workloadWords } from '../explain/words';
import { formatBytes } from '../format';
import { spanOption } from './capacity';
import { DESIGN_OPTIONS, describeDesign, type DesignValues, type EngineOffer } from './options';
import { experimentRequest, type ExperimentSettings } from './experimentState';
import { DEFAULTS } from './pageDefaults';
import { buildRequest } from './request';
import type { RunSettings } from './urlState';

export type SimRun = Run<RunSettings>;

export function offerFor(
  presets: readonly DrivePreset[],
  drive: string,
  requestFields: Readonly<Record<string, unknown>>,
  model = false,
): EngineOffer {
  return { parameters: presets.find((p) => p.id === drive)?.parameters ?? {}, requestFields, ...(model ? { model } : {}) };
}

/** Whether a workload is a model of an application trace (it sets its own shape). */
export function isModel(workloads: readonly WorkloadInfo[], id: string): boolean {
  return workloads.find((w) => w.id === id)?.model === true;
}

/** What the engine knows that requests are built from. */
export interface EngineLists {
  presets: readonly DrivePreset[];
  workloads: readonly WorkloadInfo[];
  requestFields: Readonly<Record<string, unknown>>;
}

/** The engine's request for a live run of this setup. */
export function runRequest(setup: RunSettings, engine: EngineLists): SimConfig {
  return buildRequest(setup, offerFor(engine.presets, setup.drive, engine.requestFields, isModel(engine.workloads, setup.workload)));
}

/** Only the controller design's options shape an experiment's drive (it sets its own workloads). */
function experimentDesign(design: DesignValues): DesignValues {
  return Object.fromEntries(Object.entries(design).filter(([id]) => DESIGN_OPTIONS.find((o) => o.id === id)?.section === 'design'));
}

/** The engine's request for an experiment on this setup's drive and design. */
export function experimentRequestFor(
  setup: RunSettings,
  experiment: ExperimentSettings,
  info: ExperimentInfo,
  engine: Omit<EngineLists, 'workloads'>,
): ExperimentRequest {
  const sim = buildRequest(
    { ...setup, design: experimentDesign(setup.design), source: null },
    offerFor(engine.presets, setup.drive, engine.requestFields),
  );
  return experimentRequest(experiment, info, sim);
}

/** "S3700 200GB, 29% spare, GC pacing: Lazy": what tells this run apart, in the legend. */
export function runName(
  r: SimRun,
  presets: readonly DrivePreset[],
  requestFields: Readonly<Record<string, unknown>>,
  withWorkload = true,
): string {
  if (r.kind === 'log') return `fio log: ${r.fileName}`;
  const s = r.ran?.setup ?? r.setup;
  if (!s) return 'Run';
  const drive = presets.find((p) => p.id === s.drive);
  const parts = [drive ? drive.name.replace(/^Intel SSD (DC )?/, '') : s.drive];
  if (drive) parts.push(spanOption(drive, s.span).spareLabel);
  if (!withWorkload) {
    // An experiment sets its own workloads: only the drive, its spare area and design tell it apart.
    parts.push(...describeDesign(experimentDesign(s.design), offerFor(presets, s.drive, requestFields)));
  } else {
    if (s.source) parts.push(`${s.source.kind === 'fio' ? 'fio job' : 'trace'} ${s.source.name}`);
    // A request size of its own replaces the workload's, named in its words: "Sequential writes (128 KB)".
    else if (s.workload !== DEFAULTS.workload)
      parts.push(s.design.block !== undefined ? workloadWords(s.workload).name.replace(/ \(.*\)$/, '') : workloadWords(s.workload).name);
    parts.push(...describeDesign(s.design, offerFor(presets, s.drive, requestFields)));
  }
  const n = Object.keys(s.overrides).length;
  if (n > 0) parts.push(`${n} parameter ${n === 1 ? 'override' : 'overrides'}`);
  if (s.seed !== DEFAULTS.seed) parts.push(`seed ${s.seed}`);
  return parts.join(', ');
}

/** The chart's heading: "4 KB Random writes IOPS per second, Whole run (log)", or for several runs
 * "IOPS per second: 3 runs, Whole run (log)". */
export function chartHeading(
  runs: number,
  metric: { id: string; label: string },
  view: ViewSpec,
  runSeconds: number,
  blockBytes: number,
  workload: string,
): string {
  if (runs > 1) return `${metric.label} per second: ${runs} runs, ${viewLabel(view, runSeconds)}`;
  const size = metric.id === 'iops' ? `${formatBytes(blockBytes)} ` : '';
  return `${size}${workloadWords(workload).name} ${metric.label} per second, ${viewLabel(view, runSeconds)}`;
}

/** The power cuts a request schedules, s. */
export function requestedCuts(config: SimConfig): number[] {
  return Array.isArray(config.power_cuts_s) ? (config.power_cuts_s as number[]) : [];
}

/**
 * The request that reproduces a run: its config, with the power cuts asked for during it
 * scheduled at the times they landed (the engine gives a cut asked for at a time the same
 * outcome as one scheduled for it).
 */
export function reproducingConfig(config: SimConfig, cutsAsked: readonly number[]): SimConfig {
  if (cutsAsked.length === 0) return config;
  return { ...config, power_cuts_s: [...requestedCuts(config), ...cutsAsked].sort((a, b) => a - b) };
}

/** What the panels under the chart are chosen for: the run's request and drive. */
export function contextFor(
  config: SimConfig,
  parameters: Readonly<Record<string, unknown>>,
  workloads: readonly WorkloadInfo[],
): PanelContext {
  const workload = workloads.find((w) => w.id === config.workload);
  return {
    parameters,
    workload: config.workload,
    writes: workload ? workload.read_percent < 100 : true,
    partialWrites: [config.block_bytes ?? workload?.block_bytes, config.align_bytes].some(
      (bytes) => typeof bytes === 'number' && bytes % 4096 !== 0,
    ),
    idle: Number(config.idle_s ?? 0) > 0,
    powerCuts: requestedCuts(config).length > 0,
    overridden: Object.keys(config.set ?? {}),
    zoneStore: config.zone_store != null,
  };
}
