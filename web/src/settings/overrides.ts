// Free-form drive-parameter overrides for engineers: one `path=value` per line (as
// `ssdlab run --set` takes them). Only the syntax is checked here; the engine checks paths and
// ranges and names the path in its message.

import type { ParamValue } from './design';

export type Overrides = Readonly<Record<string, ParamValue>>;

export interface ParsedOverrides {
  overrides: Record<string, ParamValue>;
  /** One sentence per bad line; empty when the text is usable. */
  errors: string[];
}

/** `true`/`false` -> boolean, a JSON number -> number, anything else -> the text itself. */
export function parseValue(raw: string): ParamValue {
  const s = raw.trim();
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(s)) return Number(s);
  return s;
}

const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** Checks one `path=value`; null when fine, else a sentence. */
export function checkOverride(path: string, value: string): string | null {
  if (!PATH.test(path)) return `"${path}" is not a parameter path like gc.pacing`;
  if (value.trim() === '') return `${path}: needs a value after "="`;
  return null;
}

/** Parses lines of `path=value` (blank lines and `#` comments are skipped; a later line wins). */
export function parseOverrides(text: string): ParsedOverrides {
  const overrides: Record<string, ParamValue> = {};
  const errors: string[] = [];
  text.split('\n').forEach((line, i) => {
    const s = line.trim();
    if (s === '' || s.startsWith('#')) return;
    const eq = s.indexOf('=');
    if (eq < 0) {
      errors.push(`line ${i + 1}: expected path=value (got "${s}")`);
      return;
    }
    const path = s.slice(0, eq).trim();
    const value = s.slice(eq + 1);
    const problem = checkOverride(path, value);
    if (problem) errors.push(`line ${i + 1}: ${problem}`);
    else overrides[path] = parseValue(value);
  });
  return { overrides, errors };
}

/** The text form of overrides, one `path=value` per line. */
export function formatOverrides(overrides: Overrides): string {
  return Object.entries(overrides)
    .map(([p, v]) => `${p}=${v}`)
    .join('\n');
}
