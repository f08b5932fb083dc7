// Where the engine's objection to a request is shown and how it is worded: the one place that
// maps an engine field (`block_bytes`, `power_cuts_s`, `gc.pacing`) to the control a user sees.

import type { Problem, SimConfig } from '../engine/protocol';
import { optionById, optionForField, type EngineOffer } from './options';
import type { RunSettings } from './urlState';

/** The basic controls, by the request field each sets. */
export const BASIC_LABELS: Readonly<Record<string, string>> = {
  drive: 'Drive',
  workload: 'Workload',
  seconds: 'Duration',
  span: 'Spare area',
  seed: 'Seed',
};

/** Engine fields no control sets by itself, named by what the user chose to get them. */
const OTHER_LABELS: Readonly<Record<string, string>> = {
  user_bytes: 'Drive',
  'controller.compression_slot_bytes': 'Compression',
  config: 'Settings',
  set: 'Drive parameters',
};

export interface PlacedProblem {
  /** The control that shows it: a basic field, a design option id, 'advanced', or null (none). */
  place: string | null;
  /** "Request size: must be a multiple of 512 (got 1000)". */
  message: string;
  /** The engine's field (a run-request field or a parameter path). */
  field: string;
}

/**
 * Which control should show the engine's objection to `field`: a basic setting's name, a
 * design option's id, 'advanced' (the overrides, which may set anything), or null (none).
 */
export function problemPlace(field: string, settings: RunSettings, offer: EngineOffer): string | null {
  if (field in settings.overrides) return 'advanced';
  if (field in BASIC_LABELS) return field;
  const option = optionForField(field, settings.design, offer);
  if (option) return option.id;
  return field === 'set' || Object.keys(settings.overrides).length > 0 ? 'advanced' : null;
}

/** The label of the control at `place` (for a parameter typed by hand, with its path). */
export function controlLabel(place: string | null, field: string): string {
  if (place === 'advanced') return field === 'set' ? 'Drive parameters' : `Drive parameters, ${field}`;
  if (place !== null && place in BASIC_LABELS) return BASIC_LABELS[place];
  const option = place === null ? undefined : optionById(place);
  if (option) return option.label.charAt(0).toUpperCase() + option.label.slice(1);
  return OTHER_LABELS[field] ?? field;
}

export function placeProblem(problem: Problem, settings: RunSettings, offer: EngineOffer): PlacedProblem {
  const place = problemPlace(problem.field, settings, offer);
  return { place, message: `${controlLabel(place, problem.field)}: ${problem.message}`, field: problem.field };
}

const NOT_WHOLE = /^must be a whole number \(got (-\d+)\)$/;

/**
 * The engine reads an unsigned parameter's negative value as the wrong type ("must be a whole
 * number (got -50)") though the real reason is its range. Ask again with 0 in its place: the
 * range check then speaks ("must be between 10 and 1000"), and that is the message shown.
 */
export async function refineProblem(
  problem: Problem,
  request: SimConfig,
  check: (config: SimConfig) => Promise<Problem | null>,
): Promise<Problem> {
  const m = NOT_WHOLE.exec(problem.message);
  if (!m) return problem;
  const inSet = request.set !== undefined && problem.field in request.set;
  if (!inSet && !(problem.field in request)) return problem;
  const probe: SimConfig = inSet ? { ...request, set: { ...request.set, [problem.field]: 0 } } : { ...request, [problem.field]: 0 };
  const again = await check(probe);
  if (again && again.field === problem.field && !NOT_WHOLE.test(again.message) && /\(got 0\)/.test(again.message)) {
    return { field: problem.field, message: again.message.replace('(got 0)', `(got ${m[1]})`) };
  }
  return { field: problem.field, message: `must be 0 or more (got ${m[1]})` };
}
