// Seeded labs: a lab may draw some of its settings from a seed, so each student gets different
// numbers while the answers are still the engine's (a predict checkpoint reads them from the runs;
// the file never holds one). The lab declares its parameters (`"seeded": { "span": [1, 0.8, 0.6] }`
// or `{ "qd": { "min": 4, "max": 32, "step": 4 } }`) and writes `{span}` wherever a value goes, in
// any setup or text. The same seed gives the same values in every browser (mulberry32), so a
// teacher reproduces a student's numbers from the seed the page shows (`?lab=ID&lab_seed=N`).

import { rangeWords } from '../format';
import { isObj, show, type Obj, type Reader } from './reader';

export type SeededValue = number | string;
export type Parameter = { choices: SeededValue[] } | { min: number; max: number; step: number };

/** The largest seed: mulberry32's state is 32 bits. */
export const MAX_SEED = 2 ** 32 - 1;

const NAME = /^[a-z][a-z0-9_]{0,19}$/;
const PLACEHOLDER = /\{([a-z][a-z0-9_]*)\}/g;

/** mulberry32: a small 32-bit generator, the same sequence for a seed everywhere; floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const decimals = (x: number) => (String(x).split('.')[1] ?? '').length;

/** Each parameter's value for a seed: one draw each, in the order the lab lists them. */
export function drawParameters(params: Record<string, Parameter>, seed: number): Record<string, SeededValue> {
  const next = mulberry32(seed);
  const values: Record<string, SeededValue> = {};
  for (const [name, p] of Object.entries(params)) {
    if ('choices' in p) {
      values[name] = p.choices[Math.floor(next() * p.choices.length)];
    } else {
      const k = Math.floor(next() * (Math.floor((p.max - p.min) / p.step + 1e-9) + 1));
      // Rounded to the step's decimals: 0.1 + 2 × 0.1 is 0.3, not 0.30000000000000004.
      values[name] = Number((p.min + k * p.step).toFixed(Math.max(decimals(p.min), decimals(p.step))));
    }
  }
  return values;
}

/** A seed for a student who has none yet: four digits, easy to read out to a teacher. */
export function drawSeed(): number {
  return 1000 + Math.floor(Math.random() * 9000);
}

/** A link's `lab_seed`, or why it is not one. */
export function parseSeed(text: string): number | { error: string } {
  const n = Number(text);
  return /^\d+$/.test(text) && n <= MAX_SEED ? n : { error: `must be ${rangeWords(0, MAX_SEED, true)} (got ${show(text)})` };
}

/** Reads a lab's `seeded`: parameter name -> a list of 2 to 20 values, or { min, max, step }. */
export function readParameters(r: Reader, v: unknown, path: string): Record<string, Parameter> {
  const params: Record<string, Parameter> = {};
  if (!isObj(v) || Object.keys(v).length === 0 || Object.keys(v).length > 8) {
    r.fail(path, `must be an object of 1 to 8 parameters, each a list of values or { min, max, step } (got ${show(v)})`);
    return params;
  }
  for (const [name, p] of Object.entries(v)) {
    const at = `${path}.${name}`;
    if (!NAME.test(name)) r.fail(at, 'a parameter’s name must be lower-case letters, digits and _, starting with a letter');
    if (Array.isArray(p)) {
      const ok = p.length >= 2 && p.length <= 20 && p.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)));
      if (ok) params[name] = { choices: p as SeededValue[] };
      else r.fail(at, `must be a list of 2 to 20 numbers or strings (got ${show(p)})`);
    } else if (isObj(p)) {
      const o = r.obj(p, at, ['min', 'max', 'step'])!;
      const min = r.num(o, 'min', at, -1e9, 1e9);
      const max = r.num(o, 'max', at, -1e9, 1e9);
      const step = r.num(o, 'step', at, 1e-9, 1e9);
      if (max <= min) r.fail(`${at}.max`, `must be above min (${min}) (got ${max})`);
      else if ((max - min) / step > 1000) r.fail(`${at}.step`, `must leave at most 1,000 steps from min to max (got ${step})`);
      params[name] = { min, max, step };
    } else {
      r.fail(at, `must be a list of values or { min, max, step } (got ${show(p)})`);
    }
  }
  return params;
}

/**
 * The lab's JSON with each `{name}` in its strings replaced by the parameter's value (all but
 * `seeded` itself); a placeholder the lab does not declare is named by its field's path.
 */
export function fillParameters(lab: Obj, values: Record<string, SeededValue>, r: Reader): Obj {
  const known = Object.keys(values);
  const fill = (v: unknown, path: string): unknown => {
    if (typeof v === 'string')
      return v.replace(PLACEHOLDER, (whole, name: string) => {
        if (name in values) return String(values[name]);
        r.fail(
          path,
          `${whole} is not a seeded parameter of the lab (${known.length > 0 ? `seeded: ${known.join(', ')}` : 'it has no seeded'})`,
        );
        return whole;
      });
    if (Array.isArray(v)) return v.map((x, i) => fill(x, `${path}[${i}]`));
    if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, path ? `${path}.${k}` : k)]));
    return v;
  };
  return Object.fromEntries(Object.entries(lab).map(([k, v]) => [k, k === 'seeded' ? v : fill(v, k === 'steps' ? 'steps' : `lab.${k}`)]));
}
