// Run settings <-> URL query, so any run and view can be shared as a link.
// Bad values are reported one sentence each (naming the field and what it accepts) and replaced
// by defaults; good ones are kept. Names the engine owns (drives, workloads, which options it
// offers) are checked once the engine has said what it knows (see checkKnown).

import type { DrivePreset, WorkloadInfo } from '../engine/protocol';
import { parseDecimal, rangeWords } from '../format';
import { DESIGN_OPTIONS, dropUnavailable, type DesignOption, type DesignValue, type DesignValues } from './options';
import { checkOverride, parseValue, type Overrides } from './overrides';

export interface RunSettings {
  drive: string;
  /** Fraction of the user LBA span filled and tested. */
  span: number;
  /** Simulated seconds. */
  seconds: number;
  seed: number;
  view: string;
  workload: string;
  /** Design options the user changed, by option id (see options.ts). */
  design: DesignValues;
  /** Advanced drive-parameter overrides, by path (`set.PATH=VALUE` in the URL). */
  overrides: Overrides;
  /** Panels under the IOPS chart; null picks them from the run's variant. */
  charts: readonly string[] | null;
  /** What the comparison chart plots (a sample column: iops, mb_s, mean_latency_us). */
  metric: string;
  /** Runs overlaid on one chart, or side by side. */
  layout: string;
  /** A fio job file or block trace that sets the workload (not kept in links: too long). */
  source?: WorkloadFile | null;
}

export interface WorkloadFile {
  kind: 'fio' | 'trace';
  name: string;
  text: string;
  /** A fio job file's own length when it is shorter than the run asked for, s. */
  seconds?: number;
  /** A trace's format as chosen (a name of the engine's trace formats); absent: detected. */
  format?: string;
  /** The files a fio job file includes, chosen with it: their text by file name. */
  includes?: Record<string, string>;
}

export const LIMITS = {
  seconds: { min: 1, max: 86_400 },
  span: { min: 0.01, max: 1 },
  seed: { min: 0, max: 4_294_967_295 },
} as const;

export interface ParsedSettings {
  settings: RunSettings;
  errors: string[];
}

/** What the page can check without the engine. */
export interface UrlVocabulary {
  views: readonly string[];
  charts: readonly string[];
  metrics: readonly string[];
  layouts: readonly string[];
  /** Keys another part of the page reads (the experiment's), not reported as unknown. */
  extraKeys?: readonly string[];
}

/** Settings of the page, not of one run: a comparison run's entry leaves them out. */
const PAGE_KEYS = ['view', 'charts', 'metric', 'layout'] as const;
/** Each run beside the first is one `compare` entry: its own settings as a query string. */
const COMPARE_KEY = 'compare';
/** Which run the settings panel edits, 1 for the first (the default). */
const EDIT_KEY = 'edit';

const SET_PREFIX = 'set.';
const BASIC = ['drive', 'span', 'seconds', 'seed', 'view', 'workload', 'metric', 'layout'] as const;

/** Checks a number against a range; null when fine, else a sentence naming `name`. */
export function checkNumber(name: string, raw: string, min: number, max: number, whole: boolean): string | null {
  const v = parseDecimal(raw);
  if (Number.isFinite(v) && (!whole || Number.isInteger(v)) && v >= min && v <= max) return null;
  return `${name}: must be ${rangeWords(min, max, whole)} (got "${raw}")`;
}

export type Parsed<T> = { value: T; error?: undefined } | { error: string };

/** Checks typed text against a range; the message names the control and the range. */
export function parseNumberText(label: string, text: string, min: number, max: number, whole: boolean): Parsed<number> {
  const t = text.trim();
  const v = parseDecimal(t);
  // Built only for a message: every field parses its text when it mounts.
  const range = () => rangeWords(min, max, whole);
  if (!Number.isFinite(v)) return { error: `${label}: must be ${range()} (got "${text}")` };
  if (v < min || v > max) return { error: `${label}: must be ${range()} (got ${t})` };
  if (whole && !Number.isInteger(v)) return { error: `${label}: must be a whole number (got ${t})` };
  return { value: v };
}

/**
 * A comma-separated list of `count.min` to `count.max` numbers, each read by `parseOne`; errors
 * name the control (`label`) and what the list holds (`noun`: "values", "percentages", ...).
 */
export function parseListText(
  label: string,
  text: string,
  parseOne: (t: string) => Parsed<number>,
  count: { min: number; max: number },
  noun = 'values',
): Parsed<number[]> {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length < count.min || parts.length > count.max) {
    return { error: `${label}: must list ${count.min} to ${count.max} ${noun}, separated by commas (got ${parts.length})` };
  }
  const values: number[] = [];
  for (const p of parts) {
    const one = parseOne(p);
    if (one.error !== undefined) return { error: one.error.replace(/^[^:]*:/, `${label}: each`) };
    values.push(one.value);
  }
  return { value: values };
}

/** Parses a comma-separated list of numbers each above `min`, sorted ascending. */
export function parseNumberList(name: string, raw: string, min: number, unit = ''): Parsed<number[]> {
  const values = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(Number);
  if (values.some((v) => !Number.isFinite(v) || v <= min)) {
    return { error: `${name}: must be a list of numbers above ${min}${unit ? ` (${unit})` : ''}, like 700,1200.5 (got "${raw}")` };
  }
  return { value: values.sort((a, b) => a - b) };
}

/** Reads one design option's value from its text (URL or input). */
export function parseDesignValue(option: DesignOption, raw: string): Parsed<DesignValue> {
  switch (option.kind) {
    case 'choice': {
      const values = option.choices.map((c) => c.value);
      if (values.includes(raw)) return { value: raw };
      return { error: `${option.id}: must be one of ${values.join(', ')} (got "${raw}")` };
    }
    case 'number': {
      const error = checkNumber(option.id, raw, option.min, option.max, option.whole);
      return error ? { error } : { value: Number(raw) };
    }
    case 'list':
      return parseNumberList(option.id, raw, option.min, option.unit);
    case 'text':
      return raw.trim() === '' ? { error: `${option.id}: must not be empty` } : { value: raw.trim() };
  }
}

/** Reads settings from a query string; unknown keys and bad values are reported. */
export function parseSettings(search: string, defaults: RunSettings, vocabulary: UrlVocabulary): ParsedSettings {
  const q = new URLSearchParams(search);
  const settings: RunSettings = { ...defaults };
  const errors: string[] = [];

  for (const name of ['drive', 'workload'] as const) {
    const raw = q.get(name);
    if (raw === null) continue;
    if (raw.trim() === '') errors.push(`${name}: must not be empty`);
    else settings[name] = raw;
  }

  const num = (name: keyof typeof LIMITS, whole: boolean) => {
    const raw = q.get(name);
    if (raw === null) return;
    const { min, max } = LIMITS[name];
    const problem = checkNumber(name, raw, min, max, whole);
    if (problem) errors.push(problem);
    else settings[name] = Number(raw);
  };
  num('span', false);
  num('seconds', true);
  num('seed', true);

  const oneOf = (name: 'view' | 'metric' | 'layout', known: readonly string[]) => {
    const raw = q.get(name);
    if (raw === null) return;
    if (known.includes(raw)) settings[name] = raw;
    else errors.push(`${name}: must be one of ${known.join(', ')} (got "${raw}")`);
  };
  oneOf('view', vocabulary.views);
  oneOf('metric', vocabulary.metrics);
  oneOf('layout', vocabulary.layouts);

  const design: Record<string, DesignValue> = { ...defaults.design };
  for (const option of DESIGN_OPTIONS) {
    const raw = q.get(option.id);
    if (raw === null) continue;
    const parsed = parseDesignValue(option, raw);
    if (parsed.error !== undefined) errors.push(parsed.error);
    else design[option.id] = parsed.value;
  }
  settings.design = design;

  const overrides: Record<string, Overrides[string]> = { ...defaults.overrides };
  for (const [key, raw] of q) {
    if (!key.startsWith(SET_PREFIX)) continue;
    const path = key.slice(SET_PREFIX.length);
    const problem = checkOverride(path, raw);
    if (problem) errors.push(`${key}: ${problem}`);
    else overrides[path] = parseValue(raw);
  }
  settings.overrides = overrides;

  const charts = q.get('charts');
  if (charts !== null) {
    const ids = charts.split(',').filter((s) => s !== '');
    const unknown = ids.filter((id) => !vocabulary.charts.includes(id));
    if (unknown.length > 0) {
      errors.push(`charts: unknown chart ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${vocabulary.charts.join(', ')})`);
    }
    settings.charts = ids.filter((id) => vocabulary.charts.includes(id));
  }

  const known = new Set<string>([
    ...BASIC,
    ...DESIGN_OPTIONS.map((o) => o.id),
    'charts',
    COMPARE_KEY,
    EDIT_KEY,
    ...(vocabulary.extraKeys ?? []),
  ]);
  for (const key of new Set(q.keys())) {
    if (!known.has(key) && !key.startsWith(SET_PREFIX)) {
      errors.push(`${key}: unknown setting (known: ${[...known].join(', ')}, set.PATH)`);
    }
  }
  return { settings, errors };
}

/** Null when `value` is one of `known` (or nothing is known yet), else a sentence. */
export function checkKnown(name: string, value: string, known?: readonly string[]): string | null {
  if (value.trim() === '') return `${name}: must not be empty`;
  if (known && !known.includes(value)) return `${name}: unknown ${name} "${value}" (known: ${known.join(', ')})`;
  return null;
}

/** What the engine knows, once it has loaded. */
export interface EngineVocabulary {
  presets: readonly DrivePreset[];
  workloads: readonly WorkloadInfo[];
  requestFields: Readonly<Record<string, unknown>>;
}

/**
 * Checks the names from a link against the engine: an unknown drive or workload falls back to
 * the default (or the engine's first), and options this engine does not offer are dropped.
 */
export function checkAgainstEngine(settings: RunSettings, defaults: RunSettings, engine: EngineVocabulary): ParsedSettings {
  const errors: string[] = [];
  const next = { ...settings };
  const pick = (name: 'drive' | 'workload', known: readonly string[]) => {
    if (known.length === 0 || known.includes(next[name])) return;
    errors.push(checkKnown(name, next[name], known)!);
    next[name] = known.includes(defaults[name]) ? defaults[name] : known[0];
  };
  pick(
    'drive',
    engine.presets.map((p) => p.id),
  );
  pick(
    'workload',
    engine.workloads.map((w) => w.id),
  );
  const parameters = engine.presets.find((p) => p.id === next.drive)?.parameters ?? {};
  const kept = dropUnavailable(next.design, { parameters, requestFields: engine.requestFields });
  next.design = kept.values;
  errors.push(...kept.errors);
  return { settings: next, errors };
}

function formatDesignValue(v: DesignValue): string {
  return Array.isArray(v) ? v.join(',') : String(v);
}

/** The query string for settings, listing only what differs from the defaults. */
export function settingsToSearch(settings: RunSettings, defaults: RunSettings): string {
  const q = new URLSearchParams();
  for (const key of BASIC) {
    if (settings[key] !== defaults[key]) q.set(key, String(settings[key]));
  }
  for (const option of DESIGN_OPTIONS) {
    const v = settings.design[option.id];
    if (v !== undefined) q.set(option.id, formatDesignValue(v));
  }
  for (const [path, v] of Object.entries(settings.overrides)) q.set(`${SET_PREFIX}${path}`, String(v));
  if (settings.charts !== null) q.set('charts', settings.charts.join(','));
  const s = q.toString().replace(/%2C/g, ',');
  return s ? `?${s}` : '';
}

export interface ParsedLink extends ParsedSettings {
  /** The runs compared with the first, in order (their page keys are the first run's). */
  compare: RunSettings[];
  /** The run the settings panel edits: 0 for the first, 1 for the first compared, ... */
  edit: number;
}

/** Reads a link: the first run's settings, and one more run per `compare` entry. */
export function parseLink(search: string, defaults: RunSettings, vocabulary: UrlVocabulary, maxCompare = 3): ParsedLink {
  const first = parseSettings(search, defaults, vocabulary);
  const errors = [...first.errors];
  const compare: RunSettings[] = [];
  const entries = new URLSearchParams(search).getAll(COMPARE_KEY);
  entries.forEach((entry, i) => {
    if (i >= maxCompare) {
      if (i === maxCompare) errors.push(`${COMPARE_KEY}: at most ${maxCompare} runs beside the first (the rest were left out)`);
      return;
    }
    const parsed = parseSettings(entry, defaults, vocabulary);
    errors.push(...parsed.errors.map((e) => `${COMPARE_KEY} (run ${i + 2}) ${e}`));
    const own = { ...parsed.settings };
    for (const k of PAGE_KEYS) (own as Record<string, unknown>)[k] = first.settings[k];
    compare.push(own);
  });
  let edit = 0;
  const rawEdit = new URLSearchParams(search).get(EDIT_KEY);
  if (rawEdit !== null) {
    const problem = checkNumber(EDIT_KEY, rawEdit, 1, compare.length + 1, true);
    if (problem) errors.push(problem);
    else edit = Number(rawEdit) - 1;
  }
  return { settings: first.settings, errors, compare, edit };
}

/**
 * The query string for the first run's settings and the runs compared with it (in their order,
 * so a reload keeps their colours), and which run is edited (`edit`, 0 for the first).
 */
export function linkSearch(settings: RunSettings, compare: readonly RunSettings[], defaults: RunSettings, edit = 0): string {
  const first = settingsToSearch(settings, defaults);
  const pageless = (s: RunSettings): RunSettings => ({
    ...s,
    view: defaults.view,
    charts: null,
    metric: defaults.metric,
    layout: defaults.layout,
  });
  const q = new URLSearchParams(first);
  for (const c of compare) q.append(COMPARE_KEY, settingsToSearch(pageless(c), defaults).slice(1));
  if (edit > 0) q.set(EDIT_KEY, String(edit + 1));
  const s = q.toString().replace(/%2C/g, ',');
  return s ? `?${s}` : '';
}
