// The embed's setup, read from its URL with the page's own parsers (urlState.ts for the runs,
// experimentState.ts for the experiment) plus the few keys only an embed has: which parts it
// shows, whether the reader may use its controls, its theme, autoplay, the origins allowed to
// drive it by message, and a name echoed in its events. A bad value is named with what the key
// accepts and the rest of the setup still applies. The same parser applies a host page's
// `config` message, and builds the "copy embed code" snippet, so every key has one spelling.

import type { ExperimentInfo } from '../engine/experimentProtocol';
import { checkExperiment, experimentSearch, joinSearch, parseExperiment, type ExperimentSettings } from '../settings/experimentState';
import { DEFAULTS, VOCABULARY } from '../settings/pageDefaults';
import { checkAgainstEngine, linkSearch, parseLink, type EngineVocabulary, type RunSettings } from '../settings/urlState';
import type { ThemeChoice } from '../theme';

export const CONTROLS = ['shown', 'locked', 'hidden'] as const;
export type Controls = (typeof CONTROLS)[number];

/** The parts an embed can show, in the order it shows them. */
export const PARTS = ['setup', 'chart', 'stats', 'explain', 'evidence', 'panels', 'inside', 'latency'] as const;
export type Part = (typeof PARTS)[number];

export const THEMES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

export interface EmbedOptions {
  /** shown: the reader runs it; locked: shown but only the host page runs it; hidden: none. */
  controls: Controls;
  show: readonly Part[];
  theme: ThemeChoice;
  /** Start once the engine is ready and the embed is on screen. */
  autoplay: boolean;
  /** Origins (besides the embed's own) whose messages it answers. */
  origins: readonly string[];
  /** A name echoed in every event, so a page with several embeds can tell them apart. */
  id: string | null;
}

export const EMBED_DEFAULTS: EmbedOptions = {
  controls: 'shown',
  show: ['chart', 'stats'],
  theme: 'system',
  autoplay: false,
  origins: [],
  id: null,
};

/** The embed's own URL keys. */
export const EMBED_KEYS = {
  controls: 'controls',
  show: 'show',
  theme: 'theme',
  autoplay: 'autoplay',
  origins: 'origin',
  id: 'id',
} as const;

/** Keys only the embed's URL may set: a message must not widen who may talk to it. */
export const URL_ONLY_KEYS: readonly string[] = [EMBED_KEYS.origins, EMBED_KEYS.id];

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Everything an embed is set up with. */
export interface EmbedSetup {
  settings: RunSettings;
  /** Runs drawn beside the first (the page's `compare` entries). */
  compare: readonly RunSettings[];
  experiment: ExperimentSettings;
  options: EmbedOptions;
}

export interface ParsedEmbed {
  setup: EmbedSetup;
  errors: string[];
}

/** Null when `raw` is a web origin (scheme, host, port), else a sentence naming the key. */
export function checkOrigin(raw: string): string | null {
  const wanted = `origin: must be a web origin like https://blog.example (scheme, host and optional port; * is not accepted) (got "${raw}")`;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return wanted;
    return url.origin === raw.replace(/\/$/, '') ? null : wanted;
  } catch {
    return wanted;
  }
}

/** Reads the embed's own keys; bad values are named and left at their defaults. */
export function parseEmbedOptions(search: string): { options: EmbedOptions; errors: string[] } {
  const q = new URLSearchParams(search);
  const K = EMBED_KEYS;
  const options: EmbedOptions = { ...EMBED_DEFAULTS };
  const errors: string[] = [];
  const oneOf = <T extends string>(key: string, allowed: readonly T[], set: (v: T) => void) => {
    const raw = q.get(key);
    if (raw === null) return;
    if ((allowed as readonly string[]).includes(raw)) set(raw as T);
    else errors.push(`${key}: must be one of ${allowed.join(', ')} (got "${raw}")`);
  };
  oneOf(K.controls, CONTROLS, (v) => (options.controls = v));
  oneOf(K.theme, THEMES, (v) => (options.theme = v));
  oneOf(K.autoplay, ['on', 'off'] as const, (v) => (options.autoplay = v === 'on'));

  const show = q.get(K.show);
  if (show !== null) {
    const names = show
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const unknown = names.filter((n) => !(PARTS as readonly string[]).includes(n));
    if (unknown.length > 0) errors.push(`${K.show}: unknown part ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${PARTS.join(', ')})`);
    const known = PARTS.filter((p) => names.includes(p));
    if (known.length > 0) options.show = known;
    else if (unknown.length === 0) errors.push(`${K.show}: must name at least one of ${PARTS.join(', ')}`);
  }

  const origins: string[] = [];
  for (const entry of q.getAll(K.origins)) {
    for (const raw of entry
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')) {
      const problem = checkOrigin(raw);
      if (problem) errors.push(problem);
      else if (!origins.includes(raw.replace(/\/$/, ''))) origins.push(raw.replace(/\/$/, ''));
    }
  }
  options.origins = origins;

  const id = q.get(K.id);
  if (id !== null) {
    if (ID_PATTERN.test(id)) options.id = id;
    else errors.push(`${K.id}: must be 1 to 64 letters, digits, - or _ (got "${id}")`);
  }
  return { options, errors };
}

/** The embed's own keys for a link (only what differs from the defaults). */
export function embedOptionsSearch(o: EmbedOptions): URLSearchParams {
  const q = new URLSearchParams();
  const K = EMBED_KEYS;
  if (o.controls !== EMBED_DEFAULTS.controls) q.set(K.controls, o.controls);
  if (o.show.join(',') !== EMBED_DEFAULTS.show.join(',')) q.set(K.show, o.show.join(','));
  if (o.theme !== EMBED_DEFAULTS.theme) q.set(K.theme, o.theme);
  if (o.autoplay !== EMBED_DEFAULTS.autoplay) q.set(K.autoplay, o.autoplay ? 'on' : 'off');
  for (const origin of o.origins) q.append(K.origins, origin);
  if (o.id !== null) q.set(K.id, o.id);
  return q;
}

const EMBED_VOCABULARY = {
  ...VOCABULARY,
  extraKeys: [...(VOCABULARY.extraKeys ?? []), ...Object.values(EMBED_KEYS)],
};

/** Reads a whole embed setup from a query string. */
export function parseEmbed(search: string): ParsedEmbed {
  const link = parseLink(search, DEFAULTS, EMBED_VOCABULARY);
  const experiment = parseExperiment(search);
  const options = parseEmbedOptions(search);
  return {
    setup: { settings: link.settings, compare: link.compare, experiment: experiment.settings, options: options.options },
    errors: [...link.errors, ...experiment.errors, ...options.errors],
  };
}

/** A setup as a query string ("?drive=...&controls=locked"): what parseEmbed reads back. */
export function embedSearch(setup: EmbedSetup): string {
  const runs = linkSearch(setup.settings, setup.compare, DEFAULTS);
  return joinSearch(joinSearch(runs, experimentSearch(setup.experiment)), embedOptionsSearch(setup.options));
}

/** What the engine knows that an embed's names are checked against. */
export interface EmbedEngine extends EngineVocabulary {
  experiments: readonly ExperimentInfo[];
}

/** Checks the names in a setup against the engine: unknown ones are named and replaced. */
export function checkEmbed(setup: EmbedSetup, engine: EmbedEngine): ParsedEmbed {
  const first = checkAgainstEngine(setup.settings, DEFAULTS, engine);
  const errors = [...first.errors];
  const compare = setup.compare.map((c, i) => {
    const checked = checkAgainstEngine(c, DEFAULTS, engine);
    errors.push(...checked.errors.map((e) => `compare (run ${i + 2}) ${e}`));
    return checked.settings;
  });
  const experiment = checkExperiment(setup.experiment, engine.experiments);
  errors.push(...experiment.errors);
  return { setup: { ...setup, settings: first.settings, compare, experiment: experiment.settings }, errors };
}

/** A value a `config` message may give a key (a list joins with commas; null clears the key). */
export type ConfigValue = string | number | boolean | null | readonly (string | number)[];

/**
 * A host page's `config` message applied to a setup, whole or not at all: the keys are the URL's,
 * merged over the current setup and read by the same parser; every bad key is named.
 */
export function applyConfig(setup: EmbedSetup, patch: Readonly<Record<string, ConfigValue>>, engine: EmbedEngine): ParsedEmbed {
  const q = new URLSearchParams(embedSearch(setup));
  const errors: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (URL_ONLY_KEYS.includes(key)) {
      errors.push(`${key}: can only be set in the embed's URL`);
      continue;
    }
    q.delete(key);
    if (value === null) continue;
    if (key === 'compare' && Array.isArray(value)) for (const entry of value) q.append(key, String(entry));
    else q.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const parsed = parseEmbed(`?${q.toString()}`);
  const checked = checkEmbed(parsed.setup, engine);
  errors.push(...parsed.errors, ...checked.errors);
  return errors.length > 0 ? { setup, errors } : { setup: checked.setup, errors };
}

/** The first run and the compared ones, in legend order. */
export function setupRuns(setup: EmbedSetup): RunSettings[] {
  return [setup.settings, ...setup.compare];
}

// ---- the snippet the page's "copy embed code" writes ---------------------------------------------

/** The embed page's address beside the app's page (so it works from a sub-path too). */
export function embedUrl(appPage: string, setup: EmbedSetup): string {
  return new URL(`embed.html${embedSearch(setup)}`, appPage).href;
}

/** Rough heights of the parts, px: a starting size; an embed reports its own height by message. */
const PART_HEIGHTS: Record<Part, number> = {
  setup: 56,
  chart: 400,
  stats: 32,
  explain: 80,
  evidence: 140,
  panels: 520,
  inside: 48,
  latency: 48,
};

/** A height that fits the embed's parts without a scroll bar at laptop width, px. */
export function embedHeight(options: EmbedOptions): number {
  const head = 44;
  const controls = options.controls === 'hidden' ? 28 : 112;
  return head + controls + options.show.reduce((sum, p) => sum + PART_HEIGHTS[p], 0);
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The <iframe> an article pastes: a title for screen readers, lazy loading, a fitting size. */
export function embedSnippet(appPage: string, setup: EmbedSetup, title: string): string {
  const src = embedUrl(appPage, setup);
  return (
    `<iframe src="${escapeAttr(src)}"\n` +
    `  title="${escapeAttr(title)}"\n` +
    `  loading="lazy" width="960" height="${embedHeight(setup.options)}"\n` +
    `  style="width: 100%; max-width: 960px; border: 0"></iframe>`
  );
}
