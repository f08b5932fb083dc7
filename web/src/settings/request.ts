// The engine's run request for the page's settings: the basic fields, the design options'
// patch, then the advanced overrides (which win over the options).

import type { SimConfig } from '../engine/protocol';
import { designPatch, type EngineOffer } from './design';
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

