// The page's default run settings and the URL vocabulary it checks links against, shared by the
// page (App) and by what reads links without it (a lab's step setups, web/src/labs/schema.ts).

import { PANEL_IDS } from '../data/panels';
import { LAYOUTS, METRICS } from '../data/views';
import { consistency as scenario } from '../scenarios/consistency';
import { EXPERIMENT_KEYS } from './experimentState';
import type { RunSettings, UrlVocabulary } from './urlState';

/** The URL key naming the open lab (`?lab=cliff`). */
export const LAB_KEY = 'lab';
/** The URL key of a seeded lab's seed (`?lab=predict&lab_seed=4821`; `seed` is a run's). */
export const LAB_SEED_KEY = 'lab_seed';

export const DEFAULTS: RunSettings = {
  drive: 's3700-200',
  span: 1,
  seconds: scenario.defaultSeconds,
  seed: 1,
  view: scenario.views[0].id,
  workload: scenario.workload,
  design: {},
  overrides: {},
  charts: null,
  metric: 'iops',
  layout: 'overlay',
};

export const VOCABULARY: UrlVocabulary = {
  views: scenario.views.map((v) => v.id),
  charts: PANEL_IDS,
  metrics: METRICS.map((m) => m.id),
  layouts: LAYOUTS.map((l) => l.id),
  extraKeys: [...Object.values(EXPERIMENT_KEYS), LAB_KEY, LAB_SEED_KEY],
};
