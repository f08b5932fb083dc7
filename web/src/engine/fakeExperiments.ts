// What the engine's experiments() lists of the recoveries for every experiment, for tests'
// experiment fixtures.

import type { ExperimentInfo } from './experimentProtocol';

/** The recoveries' defaults, states and limits every experiment lists (the engine's as this was written). */
export const RECOVERY_INFO: Pick<ExperimentInfo, 'rest_seconds' | 'dirty_seconds' | 'states' | 'limits'> = {
  rest_seconds: [0, 1, 10, 60],
  dirty_seconds: 1800,
  states: ['secure-erased', 'dirty', 'rested', 'trimmed'],
  limits: {
    rests: { min: 1, max: 16 },
    rest_seconds: { min: 0, max: 1_000_000 },
    gb: { min: 0, max: 1_000_000 },
    dirty_seconds: { min: 1, max: 1_000_000 },
  },
};
