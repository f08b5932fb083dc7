// The recovery experiments' settings (engine/core/src/experiment/cache.rs): idle-recovery's
// writes around a rest and dirty-recovery's random writes and states, each rest a run. Null
// means the engine's default. The states and each setting's range are the engine's, from its
// experiments() list (`RecoveryRules`): a link read before the engine has answered is read as
// numbers and names only, and checked against them once it has (`checkRecovery`).

import type { ExperimentInfo } from '../engine/experimentProtocol';
import { parseDecimal } from '../format';
import { parseNamesText } from './placementExperiment';
import { parseListText, parseNumberText, type Parsed } from './urlState';

/** What the engine accepts: the states dirty-recovery measures and each setting's range. */
export type RecoveryRules = Pick<ExperimentInfo, 'states' | 'limits'>;

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

export function parseRestsText(text: string, rules: RecoveryRules): Parsed<number[]> {
  const label = RECOVERY_LABELS.rests;
  const { min, max } = rules.limits.rest_seconds;
  return parseListText(label, text, (t) => parseNumberText(label, t, min, max, true), rules.limits.rests, 'rests in seconds');
}

export const parseWriteGbText = (t: string, rules: RecoveryRules) =>
  parseNumberText(RECOVERY_LABELS.writeGb, t, rules.limits.gb.min, rules.limits.gb.max, false);
export const parseThenGbText = (t: string, rules: RecoveryRules) =>
  parseNumberText(RECOVERY_LABELS.thenGb, t, rules.limits.gb.min, rules.limits.gb.max, false);
export const parseDirtySecondsText = (t: string, rules: RecoveryRules) =>
  parseNumberText(RECOVERY_LABELS.dirtySeconds, t, rules.limits.dirty_seconds.min, rules.limits.dirty_seconds.max, true);
export const parseStatesText = (t: string, rules: RecoveryRules) => parseNamesText(RECOVERY_LABELS.states, t, rules.states);

// ---- a link's ----------------------------------------------------------------------------------

/** A link's number, any, before the engine's ranges are known. */
export function readNumberText(text: string): Parsed<number> {
  const v = parseDecimal(text);
  return Number.isFinite(v) ? { value: v } : { error: `must be a number (got "${text}")` };
}

/** A link's list of numbers, any, before the engine's ranges are known. */
export function readNumbersText(text: string): Parsed<number[]> {
  const values: number[] = [];
  for (const part of text.split(',')) {
    const one = readNumberText(part.trim());
    if (one.error !== undefined) return { error: `each ${one.error}` };
    values.push(one.value);
  }
  return { value: values };
}

/** A link's names, before the engine's are known. */
export function readNamesText(text: string): Parsed<string[]> {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return names.length > 0 ? { value: names } : { error: 'must list at least one name (got none)' };
}

type RecoveryKey = keyof RecoveryChoice;

/**
 * A choice checked against the engine's rules: each setting that breaks them is named (by the
 * link's key, `keyOf`) and dropped back to the engine's default.
 */
export function checkRecovery(
  choice: RecoveryChoice,
  rules: RecoveryRules,
  keyOf: (field: RecoveryKey) => string,
): { choice: RecoveryChoice; errors: string[] } {
  const errors: string[] = [];
  const next = { ...choice };
  const check = (field: RecoveryKey, text: string | null, parse: (t: string, r: RecoveryRules) => Parsed<unknown>) => {
    if (text === null) return;
    const p = parse(text, rules);
    if (p.error === undefined) return;
    errors.push(`${keyOf(field)}: ${p.error.replace(/^[^:]*: /, '')}`);
    next[field] = null;
  };
  const num = (v: number | null) => (v === null ? null : String(v));
  check('rests', choice.rests?.join(',') ?? null, parseRestsText);
  check('writeGb', num(choice.writeGb), parseWriteGbText);
  check('thenGb', num(choice.thenGb), parseThenGbText);
  check('dirtySeconds', num(choice.dirtySeconds), parseDirtySecondsText);
  check('states', choice.states?.join(',') ?? null, parseStatesText);
  return { choice: errors.length > 0 ? next : choice, errors };
}
