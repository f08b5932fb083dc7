// What a page shows, as one immutable snapshot: the runs and experiments, their settings, the
// edited run, the chart's view and the engine's objections. The store (store.ts) makes a new one
// on every change; the selectors (selectors.ts) compute what the charts draw from it.

import type { ExperimentEntry } from '../engine/experiments';
import type { EngineState, ParameterInfo, Problem } from '../engine/protocol';
import type { Catalog } from '../engine/runs';
import type { ExperimentSettings } from '../settings/experimentState';
import type { SimRun } from '../settings/runSetup';
import type { RunSettings } from '../settings/urlState';

/** The chart's view: page-wide, not a run's (links still spell it beside the edited run). */
export interface ChartView {
  /** The x range (a scenario view's id). */
  view: string;
  /** What the chart plots (a sample column: iops, mb_s, mean_latency_us). */
  metric: string;
  /** Runs overlaid on one chart, or side by side. */
  layout: string;
  /** Panels under the chart; null picks them from the run's variant. */
  charts: readonly string[] | null;
}

export const CHART_KEYS = ['view', 'metric', 'layout', 'charts'] as const satisfies readonly (keyof ChartView & keyof RunSettings)[];

export interface PageState {
  catalog: Catalog | null;
  /** The engine's state ('loading' until it has loaded). */
  engineState: EngineState;
  /** Live runs and fio logs, in legend order. */
  runs: readonly SimRun[];
  /** The run the settings edit (0: none). */
  focusId: number;
  /** Each run's experiment, by run id. */
  experiments: ReadonlyMap<number, ExperimentEntry>;
  /** The experiment picked (id null: the live runs). */
  experiment: ExperimentSettings;
  chart: ChartView;
  /** The engine's objection to the edited run's request as it stands (null: it would run). */
  problem: Problem | null;
  /** The engine's objection to the edited run's experiment request. */
  experimentProblem: Problem | null;
  /** Every parameter of a drive with what it accepts, by drive, as the engine described them. */
  parameterInfo: Readonly<Record<string, readonly ParameterInfo[]>>;
  /** The last second shown (a seek), or null for every second. */
  until: number | null;
  /** Why the engine refused the last start ("field: message"). */
  notice: string | null;
  /** Why the last fio log could not be loaded. */
  logError: string | null;
}

export function chartViewOf(s: RunSettings): ChartView {
  return { view: s.view, metric: s.metric, layout: s.layout, charts: s.charts };
}
