// The engine's run request for the page's settings: the basic fields, the design options'
// patch, then the advanced overrides (which win over the options).

import type { SimConfig } from '../engine/protocol';
import { designPatch, optionForField, type EngineOffer } from './design';
import type { RunSettings } from './urlState';

export function buildRequest(settings: RunSettings, offer: EngineOffer): SimConfig {
  const patch = designPatch(settings.design, offer);
  const set = { ...patch.set, ...settings.overrides };
  return {
    drive: settings.drive,
    workload: settings.workload,
    seconds: settings.seconds,
    span: settings.span,
    seed: settings.seed,
    ...patch.fields,
    ...(Object.keys(set).length > 0 ? { set } : {}),
  };
}

/** Settings the page shows in its own controls (outside the design table). */
const BASIC_FIELDS = ['drive', 'workload', 'seconds', 'span', 'seed'];

/**
 * Which control should show the engine's objection to `field`: a basic setting's name, a
 * design option's id, 'advanced' (the overrides, which may set anything), or null (none).
 */
export function problemPlace(field: string, settings: RunSettings, offer: EngineOffer): string | null {
  if (field in settings.overrides) return 'advanced';
  if (BASIC_FIELDS.includes(field)) return field;
  const option = optionForField(field, settings.design, offer);
  if (option) return option.id;
  return field === 'set' || Object.keys(settings.overrides).length > 0 ? 'advanced' : null;
}
