// The engine's run request for the page's settings: the basic fields, the design options'
// patch, then the advanced overrides (which win over the options).

import type { SimConfig } from '../engine/protocol';
import { designPatch, FILE_SETS, type EngineOffer } from './options';
import type { RunSettings, WorkloadFile } from './urlState';

/** A drive has zones when it has this parameter. */
export const ZONED_PARAM = 'zoned.zone_bytes';
/** The app's data as a share of the zones' capacity when the page does not say (the 20-zone preset takes at most 0.75). */
export const STORE_UTILISATION = 0.7;

/**
 * A zoned drive takes only sequential writes within zones: the page's workloads go through the
 * host's log-structured zone store, whose classes are the placement choice (temperature: an open
 * zone per zone of the distribution). A per-thread placement stays, for the engine to refuse.
 */
function zoneStore(fields: Record<string, unknown>): void {
  const classes = fields.placement === 'temperature' ? 'temperature' : 'one';
  if (fields.placement !== 'job') delete fields.placement;
  fields.zone_store = { utilisation: STORE_UTILISATION, ...(fields.zone_store as object | undefined), classes };
  // Its zones start empty and the store fills the app's data itself (a fill chosen by hand the engine refuses by name).
  fields.precondition ??= 'none';
}

export function buildRequest(settings: RunSettings, offer: EngineOffer): SimConfig {
  const patch = designPatch(settings.design, offer);
  const set = { ...patch.set, ...settings.overrides };
  const file = settings.source ?? null;
  // A workload file sets these itself; the options that set them wait meanwhile.
  if (file) for (const f of FILE_SETS[file.kind]) delete patch.fields[f];
  if (ZONED_PARAM in offer.parameters && !file) zoneStore(patch.fields);
  return {
    drive: settings.drive,
    workload: settings.workload,
    seconds: Math.min(settings.seconds, file?.seconds ?? Infinity),
    span: settings.span,
    seed: settings.seed,
    ...patch.fields,
    ...(Object.keys(set).length > 0 ? { set } : {}),
    ...(file ? fileFields(file) : {}),
  };
}

/** The request's fields for a workload file: a fio job file with the files it includes, or a trace. */
export function fileFields(file: WorkloadFile): Record<string, unknown> {
  if (file.kind === 'fio') return { fio: file.text, ...(file.includes ? { fio_includes: file.includes } : {}) };
  return { trace: { text: file.text, name: file.name, ...(file.format ? { format: file.format } : {}) } };
}
