// Drive-parameter overrides by path (as `ssdlab run --set` takes them), as the URL carries them
// (`set.PATH=VALUE`). Only the syntax is checked here; the engine checks paths and ranges and
// names the path in its message.

import type { ParamValue } from './options';

export type Overrides = Readonly<Record<string, ParamValue>>;

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
  // `__proto__` as a key sets no entry: the override would vanish unreported.
  if (!PATH.test(path) || path === '__proto__') return `"${path}" is not a parameter path like gc.pacing`;
  if (value.trim() === '') return `${path}: needs a value after "="`;
  return null;
}
