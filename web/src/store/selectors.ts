// What the page draws, computed from the store's state by pure functions, the same for the app
// and the embed: the edited run and its request, run names, the chart's series, x range,
// markers, title and empty text, the progress readout, the panels' context and the state badge.
//
// Some keep their last answer while their inputs are the same (`memo`, `keyed`), so React's
// memoized parts (the chart, the panels) see the same objects between a run's seconds.

import type { ColumnStore } from '../data/columns';
import type { PanelContext, SeriesSpec } from '../data/panels';
import { METRICS, resolveXDomain, type Metric, type ViewSpec } from '../data/views';
import type { ExperimentEntry } from '../engine/experiments';
import type { ExperimentState } from '../engine/experimentProtocol';
import type { EngineState, PowerCut, SimConfig } from '../engine/protocol';
import type { Catalog } from '../engine/runs';
import { formatInt } from '../format';
import { consistency as scenario } from '../scenarios/consistency';
import type { EngineOffer } from '../settings/options';
import { LABELS as EXPERIMENT_LABELS, experimentPlace, type ExperimentPlace } from '../settings/experimentState';
import { PLACEMENT_LABELS } from '../settings/placementExperiment';
import { RECOVERY_LABELS } from '../settings/recoveryExperiment';
import { DEFAULTS } from '../settings/pageDefaults';
import { placeProblem, type PlacedProblem } from '../settings/problems';
import { buildRequest } from '../settings/request';
import { chartHeading, contextFor, isModel, offerFor, reproducingConfig, requestedCuts, runName, type SimRun } from '../settings/runSetup';
import type { RunSettings } from '../settings/urlState';
import { keyed, memo } from './memo';
import type { PageState } from './state';

/** One run's dots on the comparison chart. */
export interface RunSeries extends SeriesSpec {
  store: ColumnStore;
  key: string;
}

export interface Marker {
  at: number;
  label: string;
}

// ---- the edited run --------------------------------------------------------------------------

export function editedRun(s: PageState): SimRun | undefined {
  return s.runs.find((r) => r.id === s.focusId && r.kind === 'sim');
}

/** The settings the panel edits: the edited run's, with the page's chart view. */
const editedSettings = memo((setup: RunSettings | null | undefined, chart: PageState['chart']): RunSettings => ({
  ...(setup ?? DEFAULTS),
  ...chart,
}));
export const settingsOf = (s: PageState): RunSettings => editedSettings(editedRun(s)?.setup, s.chart);

export const engineReady = (s: PageState): boolean => s.catalog !== null && s.engineState !== 'loading';

const offerMemo = memo((catalog: Catalog | null, drive: string, workload: string): EngineOffer => {
  const lists = catalog ?? { presets: [], workloads: [], requestFields: {} };
  return offerFor(lists.presets, drive, lists.requestFields, isModel(lists.workloads, workload));
});
/** What the engine offers for the edited run's drive (a trace model sets its own shape). */
export const editedOffer = (s: PageState): EngineOffer => {
  const settings = settingsOf(s);
  return offerMemo(s.catalog, settings.drive, settings.workload);
};

const requestMemo = memo((settings: RunSettings, offer: EngineOffer): SimConfig => buildRequest(settings, offer));
/** The engine's request for the edited run as it stands. */
export const editedRequest = (s: PageState): SimConfig => requestMemo(settingsOf(s), editedOffer(s));

const placedMemo = memo((p: PageState['problem'], settings: RunSettings, offer: EngineOffer): PlacedProblem | null =>
  p ? placeProblem(p, settings, offer) : null,
);
/** The engine's objection to the edited settings, placed at its control (live or experiment). */
export function placedProblem(s: PageState): PlacedProblem | null {
  const p = s.experiment.id !== null ? s.experimentProblem : s.problem;
  const own = s.experiment.id !== null && p !== null && experimentPlace(p.field) !== null;
  return placedMemo(own ? null : p, settingsOf(s), editedOffer(s));
}

const PLACE_LABELS: Record<ExperimentPlace, string> = {
  ...EXPERIMENT_LABELS,
  precondition: 'Preconditioning',
  hosts: PLACEMENT_LABELS.hosts,
  layouts: PLACEMENT_LABELS.layouts,
  op: PLACEMENT_LABELS.opPercents,
  dw: PLACEMENT_LABELS.driveWrites,
  ...RECOVERY_LABELS,
};

/** The engine's objection to an experiment's own settings, placed in the experiment picker. */
export function pickerProblem(s: PageState): { place: ExperimentPlace; message: string } | null {
  const p = s.experimentProblem;
  const place = p ? experimentPlace(p.field) : null;
  if (!p || !place) return null;
  return { place, message: `${PLACE_LABELS[place]}: ${p.message}` };
}

/** Why Start waits (null: it does not). `invalid`: a field's typed text that is not a value. */
export function startBlocked(s: PageState, invalid: string | null = null): string | null {
  if (!engineReady(s)) return 'The engine is loading…';
  const exp = s.experiment.id !== null;
  if (exp && !s.catalog?.experiments.some((e) => e.id === s.experiment.id)) return 'Loading the experiments…';
  if (!exp && editedRun(s)?.starting) return 'The drive is being erased and filled…';
  if (!s.catalog?.presets.some((p) => p.id === settingsOf(s).drive)) return 'Choose a drive first.';
  if (invalid) return invalid;
  const problem = (exp ? pickerProblem(s) : null) ?? placedProblem(s);
  return problem ? `Start waits: ${problem.message}` : null;
}

// ---- names -----------------------------------------------------------------------------------

const namesCache = keyed<ReadonlyMap<number, string>>();
/**
 * Each run's name in the legend ("S3700 200GB, 29% spare, GC pacing: Lazy"); an experiment's runs
 * are told apart without their workload (the experiment sets its own). The same map while the
 * names stay the same.
 */
export function runNames(s: PageState, withWorkload = s.experiment.id === null): ReadonlyMap<number, string> {
  const presets = s.catalog?.presets ?? [];
  const fields = s.catalog?.requestFields ?? {};
  const entries = s.runs.map((r) => [r.id, runName(r, presets, fields, withWorkload)] as const);
  return namesCache(JSON.stringify(entries), () => new Map(entries));
}

// ---- the chart -------------------------------------------------------------------------------

/** The runs on the chart: those with results, and fio logs. */
export function shownRuns(s: PageState): SimRun[] {
  return s.runs.filter((r) => r.kind === 'log' || r.ran !== null);
}

export function currentView(s: PageState): ViewSpec {
  return scenario.views.find((v) => v.id === s.chart.view) ?? scenario.views[0];
}

/** What the comparison chart plots (IOPS, MB/s, mean latency). */
export function currentMetric(s: PageState): Metric {
  return METRICS.find((m) => m.id === s.chart.metric) ?? METRICS[0];
}

const chartViewMemo = memo((view: ViewSpec, minTop: number | undefined): ViewSpec => ({ ...view, y: { ...view.y, minTop } }));
/** The view as the comparison chart draws it: its y axis starts no lower than the metric's. */
export const chartView = (s: PageState): ViewSpec => chartViewMemo(currentView(s), currentMetric(s).minTop);

/** How long the runs are: the edited run's request (or settings), or a longer run beside it. */
export function runSeconds(s: PageState): number {
  const r = editedRun(s);
  return Math.max(
    r?.ran?.config.seconds ?? settingsOf(s).seconds,
    ...shownRuns(s).map((x) => (x.kind === 'log' ? x.secondsDone : (x.ran?.config.seconds ?? 0))),
  );
}

/** The seconds the chart shows: [from, to]. */
export const xDomain = (s: PageState): [number, number] => resolveXDomain(currentView(s), runSeconds(s));

const seriesCache = keyed<RunSeries[]>();
/**
 * Every shown run's dots in its colour, the edited run's last (on top). `storeOf`: the store a
 * run is drawn from (an embed draws each run only up to the second its host page sought).
 */
export function runSeries(s: PageState, storeOf: (r: SimRun) => ColumnStore = (r) => r.store): RunSeries[] {
  const metric = currentMetric(s);
  const shown = shownRuns(s);
  const names = runNames(s);
  const ordered = [...shown.filter((r) => r.id !== s.focusId), ...shown.filter((r) => r.id === s.focusId)];
  const key = JSON.stringify([ordered.map((r) => r.id), metric.id, [...names]]);
  return seriesCache(key, () =>
    ordered.map((r) => ({
      field: metric.id,
      kind: 'dots',
      color: r.color,
      label: names.get(r.id) ?? '',
      store: storeOf(r),
      key: `run${r.id}`,
    })),
  );
}

const markerMemo = memo((config: SimConfig | undefined, asked: readonly number[], reports: SimRun['powerCuts'], until: number | null) => {
  const at = config ? requestedCuts(reproducingConfig(config, asked)) : asked;
  const cuts = at.map((t) => {
    const report = reports.find((c) => Math.abs(c.at_s - t) < 1e-6);
    return { at: t, label: report ? `power cut · ${report.acknowledged_writes_lost} lost` : 'power cut' };
  });
  return until === null ? cuts : [...cuts, { at: until, label: `${formatInt(until)} s` }];
});
const NO_CUTS: readonly number[] = [];
/**
 * The edited run's power cuts, those its request scheduled and those asked for during it, each
 * with its outcome once known; and the second a host page sought to.
 */
export function markers(s: PageState): Marker[] {
  const r = editedRun(s);
  return markerMemo(r?.ran?.config, r?.ran ? r.cutsAsked : NO_CUTS, r?.powerCuts ?? [], s.until);
}

/** The latest cut asked for during the edited run, and its outcome once the engine has told it. */
export function latestAskedCut(s: PageState): { at: number; report: PowerCut | null } | null {
  const r = editedRun(s);
  const at = r?.ran ? r.cutsAsked.at(-1) : undefined;
  if (at === undefined) return null;
  return { at, report: r!.powerCuts.find((c) => Math.abs(c.at_s - at) < 1e-6) ?? null };
}

/** The workload the edited run ran (or will run) and its request size, bytes. */
function runWorkload(s: PageState): { workload: string; blockBytes: number } {
  const config = editedRun(s)?.ran?.config;
  const workload = config?.workload ?? settingsOf(s).workload;
  const info = s.catalog?.workloads.find((w) => w.id === workload);
  return { workload, blockBytes: typeof config?.block_bytes === 'number' ? config.block_bytes : (info?.block_bytes ?? 4096) };
}
export const blockBytes = (s: PageState): number => runWorkload(s).blockBytes;

/**
 * What to look for in the chart's view: the article's words when the edited run is its test
 * (the scenario's 4 KiB random writes, IOPS plotted), else what the view shows of any run.
 */
export function viewExplain(s: PageState): string | undefined {
  const view = currentView(s);
  const { workload, blockBytes: bytes } = runWorkload(s);
  const articles = workload === scenario.workload && bytes === 4096 && currentMetric(s).id === 'iops';
  return articles ? view.explain : view.general;
}

/** "4 KB Random writes IOPS per second, Whole run (log)", or for several runs their count. */
export function chartTitle(s: PageState): string {
  const { workload, blockBytes: bytes } = runWorkload(s);
  return chartHeading(shownRuns(s).length, currentMetric(s), currentView(s), runSeconds(s), bytes, workload);
}

/**
 * What the empty chart says. `idle`: before any start (the app and an embed say it their way);
 * `offscreen`: an embed paused while out of view.
 */
export function emptyText(s: PageState, idle: string, offscreen = false): string {
  if (!engineReady(s)) return 'Loading the engine…';
  if (offscreen) return 'Paused while out of view.';
  const r = editedRun(s);
  if (r?.starting) return 'Erasing and filling the drive…';
  if (!r?.ran) return idle;
  const [from] = xDomain(s);
  return from > 0 ? `Dots appear here once the run passes ${formatInt(from)} s.` : 'Erasing and filling the drive…';
}

export interface Progress {
  secondsDone: number;
  totalSeconds: number;
  speed: number;
  state: string;
  starting: boolean;
}

/** The edited run's progress for the run bar (null before its first start). */
export function progress(s: PageState): Progress | null {
  const r = editedRun(s);
  if (!r || (!r.ran && !r.starting)) return null;
  return {
    secondsDone: r.secondsDone,
    totalSeconds: r.ran?.config.seconds ?? settingsOf(s).seconds,
    speed: r.speed,
    state: r.state,
    starting: r.starting,
  };
}

const contextMemo = memo(
  (
    config: SimConfig | undefined,
    parameters: SimRun['parameters'] | undefined,
    request: SimConfig,
    offer: EngineOffer,
    catalog: Catalog | null,
  ) =>
    config && parameters
      ? contextFor(config, parameters, catalog?.workloads ?? [])
      : contextFor(request, { ...offer.parameters, ...request.set }, catalog?.workloads ?? []),
);
/**
 * What the panels under the chart are chosen for: the edited run's request and drive once it
 * ran, else the request its settings make (a trace model's own shape included).
 */
export function panelContext(s: PageState): PanelContext {
  const r = editedRun(s);
  const ran = r?.ran ? r : undefined;
  return contextMemo(ran?.ran?.config, ran?.parameters, editedRequest(s), editedOffer(s), s.catalog);
}

// ---- experiments and states ------------------------------------------------------------------

export interface ExperimentRun {
  key: number;
  name: string;
  color: string;
  entry: ExperimentEntry | null;
}

/** The experiment's legend: each run with its experiment (null before its start). */
export function experimentRuns(s: PageState): ExperimentRun[] {
  const names = runNames(s, false);
  return s.runs
    .filter((r) => r.kind === 'sim' && r.setup !== null)
    .map((r) => ({ key: r.id, name: names.get(r.id) ?? '', color: r.color, entry: s.experiments.get(r.id) ?? null }));
}

/** Every error the engine reported, "name: message", with the field it names. */
export function engineErrors(s: PageState): { text: string; field?: string; message: string }[] {
  const names = runNames(s, true);
  const runs = s.runs.filter((r) => r.error).map((r) => ({ ...r.error!, text: `${names.get(r.id)}: ${r.error!.message}` }));
  if (s.experiment.id === null) return runs;
  const exps = experimentRuns(s)
    .filter((r) => r.entry?.error)
    .map((r) => ({ ...r.entry!.error!, text: `${r.name}: ${r.entry!.error!.message}` }));
  return [...exps, ...runs];
}

/** An experiment's state as the state badge shows a run's. */
const EXP_BADGE: Record<ExperimentState, EngineState> = {
  loading: 'running',
  idle: 'idle',
  running: 'running',
  paused: 'paused',
  stopped: 'finished',
  finished: 'finished',
  error: 'error',
};

/** The header's badge: the edited run's state, or its experiment's once started. */
export function badgeState(s: PageState): EngineState {
  const entry = s.experiments.get(s.focusId);
  if (s.experiment.id !== null && entry?.request) return EXP_BADGE[entry.state];
  const r = editedRun(s);
  return s.engineState === 'loading' || !r ? 'loading' : r.state;
}

export type PageActivity = 'loading' | 'idle' | 'starting' | 'running' | 'paused' | 'finished' | 'stopped' | 'error';

/** One state for every run on the page (an embed's events): the busiest wins. */
export function activity(s: PageState): PageActivity {
  if (!s.catalog) return 'loading';
  const sims = s.runs.filter((r) => r.kind === 'sim' && r.setup !== null);
  const exp = s.experiment.id !== null;
  const entries = sims.map((r) => s.experiments.get(r.id)).filter((e): e is ExperimentEntry => e !== undefined);
  const states: readonly string[] = exp ? entries.map((e) => e.state) : sims.map((r) => r.state);
  // An experiment is starting from Start until its worker says it runs.
  const starting = exp ? entries.some((e) => e.starting || (e.request && e.state === 'idle')) : sims.some((r) => r.starting);
  if (states.includes('error')) return 'error';
  if (starting) return 'starting';
  for (const st of ['running', 'paused'] as const) if (states.includes(st)) return st;
  if (states.length > 0 && states.every((st) => st === 'finished' || st === 'stopped'))
    return states.includes('stopped') ? 'stopped' : 'finished';
  return 'idle';
}
