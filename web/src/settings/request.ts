// The engine's run request for the page's settings: the basic fields, the design options'
// patch, then the advanced overrides (which win over the options).

import type { SimConfig } from '../engine/protocol';
import { designPatch, FILE_SETS, type EngineOffer } from './options';
import type { RunSettings } from './urlState';

export function buildRequest(settings: RunSettings, offer: EngineOffer): SimConfig {
  const patch = designPatch(settings.design, offer);
  const set = { ...patch.set, ...settings.overrides };
  const file = settings.source ?? null;
  // A workload file sets these itself; the options that set them wait meanwhile.
  if (file) for (const f of FILE_SETS[file.kind]) delete patch.fields[f];
  return {
    drive: settings.drive,
    workload: settings.workload,
    seconds: Math.min(settings.seconds, file?.seconds ?? Infinity),
    span: settings.span,
    seed: settings.seed,
    ...patch.fields,
    ...(Object.keys(set).length > 0 ? { set } : {}),
    ...(file?.kind === 'fio' ? { fio: file.text } : {}),
    ...(file?.kind === 'trace' ? { trace: { text: file.text, name: file.name } } : {}),
  };
}
