// The variants a user can switch, as one table. Each entry is a control in the page, a key in the
// URL, and a patch of the engine's run request: drive parameters (`set`, by path) and/or
// run-request fields. The entries live in one file per section (workloadOptions.ts,
// testBedOptions.ts, driveDesignOptions.ts, powerOptions.ts); adding an option is adding an entry
// there. An entry whose parameter or field this engine does not know is not offered (see
// `isAvailable`). This file holds the options' types, the table and what reads it.
//
// Nothing here checks ranges the engine owns: the engine validates the request and its message
// names the field, which the page shows next to the option that sets it (see `optionForField`).

import { formatBytes } from '../format';
import { DRIVE_DESIGN_OPTIONS } from './driveDesignOptions';
import { POWER_OPTIONS } from './powerOptions';
import { TEST_BED_OPTIONS } from './testBedOptions';
import { WORKLOAD_OPTIONS } from './workloadOptions';

export type ParamValue = string | number | boolean;

/** Where an option is shown: the workload, the test bed (preconditioning, an array), the
 * controller's design, or power loss. */
export type SectionId = 'workload' | 'bed' | 'design' | 'power';

/** What an option needs the engine to know before it is offered (`params`: the drive has any of them). */
export type Requirement = { param: string } | { field: string } | { params: readonly string[] };

export interface Choice {
  value: string;
  label: string;
  /** One sentence for a student: what it does and which article behaviour it reproduces. */
  explain: string;
  /** Drive parameters this choice sets, by path. */
  set?: Record<string, ParamValue>;
  /** Run-request fields this choice sets. */
  request?: Record<string, ParamValue>;
}

export interface ChoiceOption {
  kind: 'choice';
  id: string;
  section: SectionId;
  label: string;
  choices: readonly Choice[];
  requires?: Requirement;
}

/**
 * Where a value goes: a drive parameter (times `scale`), a run-request field, written into
 * `template` when given (`zipf:{}` makes the field `zipf:1.2`), or one key of a run-request
 * field that is an object (`raid.drives`).
 */
export type NumberTarget = { param: string; scale?: number } | { field: string; template?: string } | { field: string; key: string };

export interface NumberOption {
  kind: 'number';
  id: string;
  section: SectionId;
  label: string;
  unit?: string;
  explain: string;
  whole: boolean;
  /** What the page accepts in a URL or the input; the engine has the last word. */
  min: number;
  max: number;
  to: NumberTarget;
  /** Offered only while another option has this value; then `initial` applies until changed. */
  shownWhen?: { option: string; value: string };
  initial?: number;
  /** Empty means the engine's own default (e.g. the workload's block size). */
  optional?: boolean;
  requires?: Requirement;
}

export interface ListOption {
  kind: 'list';
  id: string;
  section: SectionId;
  label: string;
  unit?: string;
  explain: string;
  /** Each entry must be > min (a run-request field taking a list of numbers). */
  min: number;
  to: { field: string };
  requires?: Requirement;
}

/** Text the engine reads (a bssplit, a zone list), into a run-request field. */
export interface TextOption {
  kind: 'text';
  id: string;
  section: SectionId;
  label: string;
  explain: string;
  placeholder: string;
  to: { field: string; template?: string };
  shownWhen?: { option: string; value: string };
  initial?: string;
  requires?: Requirement;
}

export type DesignOption = ChoiceOption | NumberOption | ListOption | TextOption;
export type DesignValue = string | number | readonly number[];
/** Option id -> value, holding only what the user changed from the drive's own design. */
export type DesignValues = Readonly<Record<string, DesignValue>>;

/** Every option, in the page's order (its controls' and its links' order). */
export const DESIGN_OPTIONS: readonly DesignOption[] = [
  ...WORKLOAD_OPTIONS,
  ...TEST_BED_OPTIONS,
  ...DRIVE_DESIGN_OPTIONS,
  ...POWER_OPTIONS,
];

/**
 * Run-request fields a fio job file or a trace sets itself (the engine refuses them beside one):
 * the options that set them are put aside while such a file gives the workload.
 */
export const FILE_SETS: Readonly<Record<'fio' | 'trace', readonly string[]>> = {
  fio: [
    'queue_depth',
    'block_bytes',
    'align_bytes',
    'threads',
    'read_percent',
    'random_percent',
    'block_sizes',
    'distribution',
    'rate_iops',
    'thinktime_us',
  ],
  trace: ['threads', 'read_percent', 'random_percent', 'block_sizes', 'distribution', 'rate_iops', 'thinktime_us'],
};

/** Whether a workload file sets what this option sets. */
export function setByFile(option: DesignOption, kind: 'fio' | 'trace' | undefined): boolean {
  const needs = option.requires && 'field' in option.requires ? [option.requires.field] : [];
  return kind !== undefined && [...targets(option), ...needs].some((f) => FILE_SETS[kind].includes(f));
}

export function optionById(id: string): DesignOption | undefined {
  return DESIGN_OPTIONS.find((o) => o.id === id);
}

/** What the engine offers: the chosen drive's parameters and the run-request fields. */
export interface EngineOffer {
  /** Path -> value of the drive as it ships. */
  parameters: Readonly<Record<string, unknown>>;
  /** Run-request field -> default. */
  requestFields: Readonly<Record<string, unknown>>;
  /** The workload is a model of an application trace: it sets its own sizes, mix and depths. */
  model?: boolean;
}

/** Run-request fields a trace model sets itself (the engine refuses them with a model): the
 * whole shape of the workload, as a fio job file sets it. */
export const MODEL_SETS: readonly string[] = FILE_SETS.fio;

function knows(offer: EngineOffer, r: Requirement | NumberTarget | { field: string }): boolean {
  if ('params' in r) return r.params.some((p) => p in offer.parameters);
  return 'param' in r ? r.param in offer.parameters : r.field in offer.requestFields;
}

/** Whether this engine knows what the option sets (it is offered only then). */
export function isAvailable(option: DesignOption, offer: EngineOffer): boolean {
  if (option.requires && !knows(offer, option.requires)) return false;
  if (option.kind !== 'choice') return knows(offer, option.to);
  return option.choices.every(
    (c) =>
      Object.keys(c.set ?? {}).every((p) => p in offer.parameters) && Object.keys(c.request ?? {}).every((f) => f in offer.requestFields),
  );
}

/** The choice the drive ships with: the first whose settings all match the preset. */
export function shippedChoice(option: ChoiceOption, offer: EngineOffer): Choice {
  const matches = (c: Choice) =>
    Object.entries(c.set ?? {}).every(([p, v]) => offer.parameters[p] === v) &&
    Object.entries(c.request ?? {}).every(([f, v]) => offer.requestFields[f] === v);
  return option.choices.find(matches) ?? option.choices[0];
}

/** The value a number option has when the user has not set it (null: the engine's default). */
export function shippedNumber(option: NumberOption, offer: EngineOffer): number | null {
  if (option.initial !== undefined) return option.initial;
  const raw = 'param' in option.to ? offer.parameters[option.to.param] : offer.requestFields[option.to.field];
  if (typeof raw !== 'number') return null;
  return 'param' in option.to && option.to.scale ? raw / option.to.scale : raw;
}

/** Whether an option is on screen and in effect given the other values. */
export function isActive(option: DesignOption, values: DesignValues, offer: EngineOffer): boolean {
  if (!isAvailable(option, offer)) return false;
  // A trace model's own shape stays: the options that would change it wait (kept, not applied).
  if (offer.model && targets(option).some((t) => MODEL_SETS.includes(t))) return false;
  const when = option.kind === 'number' || option.kind === 'text' ? option.shownWhen : undefined;
  if (!when) return true;
  const parent = optionById(when.option);
  return parent?.kind === 'choice' && isAvailable(parent, offer) && choiceValue(parent, values, offer) === when.value;
}

/** The effective choice of a choice option: the user's, else the drive's own. */
export function choiceValue(option: ChoiceOption, values: DesignValues, offer: EngineOffer): string {
  const v = values[option.id];
  return typeof v === 'string' && option.choices.some((c) => c.value === v) ? v : shippedChoice(option, offer).value;
}

export interface RequestPatch {
  set: Record<string, ParamValue>;
  fields: Record<string, ParamValue | number[] | Record<string, number>>;
}

/**
 * The request patch of every active option the user changed, plus number options that only
 * exist under a choice (their initial value applies as soon as the choice is made).
 */
export function designPatch(values: DesignValues, offer: EngineOffer): RequestPatch {
  const patch: RequestPatch = { set: {}, fields: {} };
  for (const option of DESIGN_OPTIONS) {
    if (!isActive(option, values, offer)) continue;
    const v = values[option.id];
    if (option.kind === 'choice') {
      if (v === undefined) continue;
      const choice = option.choices.find((c) => c.value === choiceValue(option, values, offer))!;
      Object.assign(patch.set, choice.set);
      Object.assign(patch.fields, choice.request);
    } else if (option.kind === 'number' || option.kind === 'text') {
      const own = typeof v === (option.kind === 'number' ? 'number' : 'string') ? (v as number | string) : undefined;
      const x = own ?? (option.shownWhen ? option.initial : undefined);
      if (x === undefined) continue;
      const to = option.to;
      if ('param' in to) patch.set[to.param] = to.scale ? Math.round((x as number) * to.scale) : x;
      else if ('key' in to) patch.fields[to.field] = { ...(patch.fields[to.field] as Record<string, number>), [to.key]: x as number };
      else patch.fields[to.field] = 'template' in to && to.template ? to.template.replace('{}', String(x)) : x;
    } else if (Array.isArray(v) && v.length > 0) {
      patch.fields[option.to.field] = [...v];
    }
  }
  return patch;
}

/** The engine settings an option writes (for matching an engine error to the option). */
export function targets(option: DesignOption): string[] {
  if (option.kind === 'choice') return option.choices.flatMap((c) => [...Object.keys(c.set ?? {}), ...Object.keys(c.request ?? {})]);
  const to = option.to;
  return ['param' in to ? to.param : 'key' in to ? `${to.field}.${to.key}` : to.field];
}

/**
 * The option whose control should show an engine error about `field` (a parameter path or a
 * run-request field), preferring one that is on screen, and a number (which sets just that
 * field) over a choice (which sets it among others).
 */
export function optionForField(field: string, values: DesignValues, offer: EngineOffer): DesignOption | undefined {
  const candidates = DESIGN_OPTIONS.filter((o) => targets(o).includes(field)).sort(
    (a, b) => Number(a.kind === 'choice') - Number(b.kind === 'choice'),
  );
  return candidates.find((o) => isActive(o, values, offer)) ?? candidates.find((o) => isAvailable(o, offer));
}

/** Short description of the changed options, for the results heading: "Pacing: Lazy". */
export function describeDesign(values: DesignValues, offer: EngineOffer): string[] {
  const out: string[] = [];
  for (const option of DESIGN_OPTIONS) {
    const v = values[option.id];
    if (v === undefined || !isActive(option, values, offer)) continue;
    if (option.kind === 'choice') {
      const c = option.choices.find((x) => x.value === v);
      if (c) out.push(`${option.label}: ${c.label}`);
    } else if (option.kind === 'number' || option.kind === 'text') {
      const bytes = option.kind === 'number' && option.unit === 'bytes' && typeof v === 'number';
      out.push(`${option.label} ${bytes ? formatBytes(v) : `${v}${option.kind === 'number' && option.unit ? ` ${option.unit}` : ''}`}`);
    } else if (Array.isArray(v) && v.length > 0) {
      out.push(`${option.label} ${v.join(', ')} ${option.unit ?? ''}`.trim());
    }
  }
  return out;
}

/** Drops values of options this engine does not offer, with a sentence for each. */
export function dropUnavailable(values: DesignValues, offer: EngineOffer): { values: DesignValues; errors: string[] } {
  const kept: Record<string, DesignValue> = {};
  const errors: string[] = [];
  for (const [id, v] of Object.entries(values)) {
    const option = optionById(id);
    if (option && isAvailable(option, offer)) kept[id] = v;
    else errors.push(`${id}: this engine has no such option (a newer version may)`);
  }
  return { values: kept, errors };
}
