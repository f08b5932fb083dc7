// The runs on the page as a lab reads them (checkpoints.ts): each run's samples, whether it has
// finished, its power cuts and its experiment's table, in legend order.

import type { ExperimentEntry } from '../engine/experiments';
import type { Run } from '../engine/run';
import type { LabResults } from './checkpoints';

export function labResults(runs: readonly Run<unknown>[], experiments: ReadonlyMap<number, ExperimentEntry>): LabResults {
  return runs.map((r) => {
    const exp = experiments.get(r.id);
    const log = r.kind === 'log';
    return {
      seconds: r.store,
      started: log || r.ran !== null || (exp?.request ?? null) !== null,
      finished: log || (r.ran !== null && r.state === 'finished'),
      secondsDone: r.secondsDone,
      powerCuts: r.powerCuts,
      experiment: exp?.request ? { finished: exp.state === 'finished', table: exp.table } : null,
    };
  });
}
