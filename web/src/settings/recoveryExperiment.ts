// The recovery experiments' settings (engine/core/src/experiment/cache.rs): idle-recovery's
// writes around a rest and dirty-recovery's random writes and states, each rest a run. Null
// means the engine's default (its experiments() list gives the rests' and the random writes'
// default); names, defaults and ranges are the engine's (experiment/mod.rs), which checks them
// again.

import { parseNamesText } from './placementExperiment';
import { parseListText, parseNumberText, type Parsed } from './urlState';

export const RECOVERY_STATES = ['secure-erased', 'dirty', 'rested', 'trimmed'] as const;

export const RECOVERY_LIMITS = {
  rest: { min: 0, max: 1_000_000 },
  rests: { min: 1, max: 16 },
  gb: { min: 0, max: 1_000_000 },
  dirtySeconds: { min: 1, max: 1_000_000 },
} as const;

export interface RecoveryChoice {
  rests: readonly number[] | null;
  /** idle-recovery: GB written before the rest and after it. */
  writeGb: number | null;
  thenGb: number | null;
  /** dirty-recovery: seconds of random writes that make the drive dirty, and the states measured. */
  dirtySeconds: number | null;
  states: readonly string[] | null;
}

export const RECOVERY_ENGINE: RecoveryChoice = { rests: null, writeGb: null, thenGb: null, dirtySeconds: null, states: null };

export const RECOVERY_LABELS = {
  rests: 'Rests',
  writeGb: 'Written before the rest',
  thenGb: 'Written after it',
  dirtySeconds: 'Random writes first',
  states: 'States',
} as const;

/** Which recovery experiment a table's columns describe: the dirty drive's has a state column. */
export function recoveryOf(columns: readonly string[]): 'idle' | 'dirty' {
  return columns.includes('state') ? 'dirty' : 'idle';
}

export function parseRestsText(text: string): Parsed<number[]> {
  const label = RECOVERY_LABELS.rests;
  const { min, max } = RECOVERY_LIMITS.rest;
  return parseListText(label, text, (t) => parseNumberText(label, t, min, max, true), RECOVERY_LIMITS.rests, 'rests in seconds');
}

export const parseWriteGbText = (t: string) =>
  parseNumberText(RECOVERY_LABELS.writeGb, t, RECOVERY_LIMITS.gb.min, RECOVERY_LIMITS.gb.max, false);
export const parseThenGbText = (t: string) =>
  parseNumberText(RECOVERY_LABELS.thenGb, t, RECOVERY_LIMITS.gb.min, RECOVERY_LIMITS.gb.max, false);
export const parseDirtySecondsText = (t: string) =>
  parseNumberText(RECOVERY_LABELS.dirtySeconds, t, RECOVERY_LIMITS.dirtySeconds.min, RECOVERY_LIMITS.dirtySeconds.max, true);
export const parseStatesText = (t: string) => parseNamesText(RECOVERY_LABELS.states, t, RECOVERY_STATES);
