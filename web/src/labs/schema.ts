// A lab as data (public/labs/ID.json, listed in public/labs/index.json): a goal, steps that set
// up runs in the page's own link state, what to observe, checkpoints read from the live results
// (checkpoints.ts evaluates them) and questions with the teacher's answers. docs/LABS.md is the
// author's guide; this file is the one place the format is defined and checked.
//
// A bad file is refused with every problem at once, each naming the field by its path
// (`steps[1].checkpoints[0].check.op: must be one of >, >=, <, <=, == (got "=>")`).

import type { PowerCut } from '../engine/protocol';
import { MAX_RUNS } from '../engine/runs';
import { EXPERIMENT_KEYS, parseExperiment } from '../settings/experimentState';
import { DEFAULTS, LAB_KEY, LAB_SEED_KEY, VOCABULARY } from '../settings/pageDefaults';
import { parseSettings } from '../settings/urlState';
import { isObj, Reader, show, type Obj } from './reader';
import { drawParameters, fillParameters, readParameters, type SeededValue } from './seeds';

export const LAB_SCHEMA = 1;

export interface Lab {
  schema: typeof LAB_SCHEMA;
  id: string;
  title: string;
  /** One line for the list of labs. */
  summary: string;
  /** About how long a class needs, minutes. */
  minutes: number;
  goal: string;
  /** Paragraphs read before the first step. */
  background: string[];
  steps: LabStep[];
  /** The seed its `seeded` parameters were drawn from (seeds.ts), or null for a lab without any. */
  seed: number | null;
  /** The values drawn, by name (already written into the lab's text and setups). */
  parameters: Record<string, SeededValue>;
}

export interface LabStep {
  id: string;
  title: string;
  /** What the student does, in a sentence or two. */
  do: string;
  setup: LabSetup;
  observe: string[];
  checkpoints: Checkpoint[];
  questions: Question[];
}

/**
 * The runs a step puts on the page, each as the query string the page keeps for one run
 * (`drive=p400e-400&seconds=200&set.gc.pacing=lazy`), and the page's own keys (view, charts,
 * metric, layout and the experiment's `experiment`, `exp_*`).
 */
export interface LabSetup {
  runs: string[];
  page: string;
}

export interface Question {
  id: string;
  text: string;
  /** The teacher's answer, hidden until the answer key is shown. */
  answer: string;
}

export interface Checkpoint {
  id: string;
  /** What it checks, in the student's words ("IOPS fell below half before 60 s"). */
  text: string;
  check: Check | PredictCheck;
}

export const OPS = ['>', '>=', '<', '<=', '=='] as const;
export type Op = (typeof OPS)[number];

export type Check =
  /** Run `run` (its live run or its experiment) has finished. */
  | { kind: 'finished'; run: number }
  /** left op right × times. */
  | { kind: 'compare'; left: Quantity; op: Op; right: Quantity | number; times: number }
  /**
   * Some `window_s` consecutive seconds of `field` from `from_s` on, each within ± `within` of
   * their mean (fio's steady state), ending by `before_s` when given.
   */
  | { kind: 'steady'; run: number; field: string; window_s: number; within: number; from_s: number; before_s: number | null };

/**
 * The student predicts, then runs: a number the engine's run gives (`answer`, in `unit`; within
 * `close` of it, as a share, counts as close), or which of `choices` has the highest or lowest of
 * the quantities `among` (one each). The answer is read from the run, never written in the lab.
 */
export type PredictCheck =
  | { kind: 'predict'; answer: Quantity; unit: string; close: number }
  | { kind: 'predict'; among: Quantity[]; pick: Pick; choices: string[] };

export const PICKS = ['highest', 'lowest'] as const;
export type Pick = (typeof PICKS)[number];

export const CHECK_KINDS = ['finished', 'compare', 'steady', 'predict'] as const;

/** Statistics over a run's seconds, an experiment's rows or its power cuts. */
export const STATS = ['mean', 'min', 'max', 'first', 'last', 'median', 'sum', 'spread'] as const;
export type Stat = (typeof STATS)[number];

export type Quantity =
  /** A statistic of a per-second column over seconds [from_s, to_s) (to_s: the run's end). */
  | { of: 'seconds'; run: number; field: string; stat: Stat; from_s: number; to_s: number | null }
  /** The second at which `field` first falls below `below` × its mean over the first `baseline_s` seconds. */
  | { of: 'fall'; run: number; field: string; below: number; baseline_s: number }
  /** A statistic of an experiment table's column over the rows matching `where`. */
  | { of: 'table'; run: number; field: string; where: Record<string, string | number>; stat: Stat }
  /** A statistic of one value of the run's power cuts (acknowledged_writes_lost, rebuild_ms, ...). */
  | { of: 'cuts'; run: number; field: CutField; stat: Stat };

export const QUANTITY_SOURCES = ['seconds', 'fall', 'table', 'cuts'] as const;

/** What a power cut reports (engine/core/src/bench/report.rs, `PowerCut` in protocol.ts). */
export const CUT_FIELDS = [
  'at_s',
  'acknowledged_writes_lost',
  'writes_at_risk',
  'flushed_units',
  'energy_needed_uj',
  'energy_stored_uj',
  'rebuild_ms',
] as const satisfies readonly (keyof PowerCut)[];
export type CutField = (typeof CUT_FIELDS)[number];

/** Lab ids: they name a file, so letters, digits and dashes only. */
export const LAB_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

export type ParsedLab = { lab: Lab; errors?: undefined } | { errors: string[] };

/** Page keys a step's `page` may set (the rest belong to a run). */
const PAGE_KEYS = ['view', 'charts', 'metric', 'layout', ...Object.values(EXPERIMENT_KEYS)];

// ---- the lab -------------------------------------------------------------------------------------

/** Reads a lab file's JSON (already parsed); `id` is the name it was asked for, `seed` draws its `seeded` parameters. */
export function parseLab(json: unknown, id: string, seed = 0): ParsedLab {
  const r = new Reader();
  const raw = r.obj(json, 'lab', ['schema', 'id', 'title', 'summary', 'minutes', 'goal', 'background', 'steps', 'seeded']);
  if (!raw) return { errors: r.errors };
  const seeded = raw.seeded !== undefined;
  const parameters = seeded ? drawParameters(readParameters(r, raw.seeded, 'lab.seeded'), seed) : {};
  const o = fillParameters(raw, parameters, r);
  if (o.schema !== LAB_SCHEMA)
    r.fail('schema', `must be ${LAB_SCHEMA}, the lab format this page reads (got ${o.schema === undefined ? 'nothing' : show(o.schema)})`);
  const labId = r.str(o, 'id', 'lab', { pattern: LAB_ID, patternText: 'letters, digits and dashes' });
  if (labId && labId !== id) r.fail('lab.id', `must be the file's name, "${id}" (got "${labId}")`);
  const lab: Lab = {
    schema: LAB_SCHEMA,
    id,
    title: r.str(o, 'title', 'lab'),
    summary: r.str(o, 'summary', 'lab'),
    minutes: r.num(o, 'minutes', 'lab', 1, 600, { whole: true }),
    goal: r.str(o, 'goal', 'lab'),
    background: o.background === undefined ? [] : r.strings(o, 'background', 'lab', 0, 20),
    steps: r.list(o, 'steps', 'lab', 1, 20).map((s, i) => readStep(r, s, `steps[${i}]`)),
    seed: seeded ? seed : null,
    parameters,
  };
  // Progress is kept by id: every step, checkpoint and question needs its own.
  const seen = new Map<string, string>();
  const unique = (kind: string, itemId: string, path: string) => {
    if (!itemId) return;
    const key = `${kind}:${itemId}`;
    const first = seen.get(key);
    if (first) r.fail(`${path}.id`, `"${itemId}" is already the id of ${first}; each ${kind} needs its own`);
    else seen.set(key, path);
  };
  lab.steps.forEach((s, i) => {
    unique('step', s.id, `steps[${i}]`);
    s.checkpoints.forEach((c, j) => unique('checkpoint', c.id, `steps[${i}].checkpoints[${j}]`));
    s.questions.forEach((q, j) => unique('question', q.id, `steps[${i}].questions[${j}]`));
  });
  return r.errors.length > 0 ? { errors: r.errors } : { lab };
}

const ITEM_ID = { pattern: /^[a-z0-9][a-z0-9-]*$/, patternText: 'letters, digits and dashes' };

function readStep(r: Reader, v: unknown, path: string): LabStep {
  const o = r.obj(v, path, ['id', 'title', 'do', 'setup', 'observe', 'checkpoints', 'questions']) ?? {};
  const setup = readSetup(r, o.setup, `${path}.setup`);
  const runs = Math.max(1, setup.runs.length);
  return {
    id: r.str(o, 'id', path, ITEM_ID),
    title: r.str(o, 'title', path),
    do: r.str(o, 'do', path),
    setup,
    observe: r.strings(o, 'observe', path, 1, 10),
    checkpoints: r.list(o, 'checkpoints', path, 1, 12).map((c, i) => readCheckpoint(r, c, `${path}.checkpoints[${i}]`, runs)),
    questions: r.list(o, 'questions', path, 0, 12).map((q, i) => {
      const qp = `${path}.questions[${i}]`;
      const qo = r.obj(q, qp, ['id', 'text', 'answer']) ?? {};
      return { id: r.str(qo, 'id', qp, ITEM_ID), text: r.str(qo, 'text', qp), answer: r.str(qo, 'answer', qp) };
    }),
  };
}

/** Checks a step's runs and page keys as the page reads a link (names the engine owns are checked when it is set up). */
function readSetup(r: Reader, v: unknown, path: string): LabSetup {
  const o = r.obj(v, path, ['runs', 'page']) ?? {};
  const runs = r.strings(o, 'runs', path, 1, MAX_RUNS);
  const page = r.str(o, 'page', path, { optional: '' });
  runs.forEach((query, i) => {
    const p = `${path}.runs[${i}]`;
    for (const k of new Set(new URLSearchParams(query).keys())) {
      if (PAGE_KEYS.includes(k)) r.fail(p, `${k} is a setting of the page: put it in ${path}.page`);
      else if (k === 'compare' || k === 'edit' || k === LAB_KEY || k === LAB_SEED_KEY)
        r.fail(p, `${k} is not a setting of one run (list each run in ${path}.runs)`);
    }
    for (const e of parseSettings(query, DEFAULTS, VOCABULARY).errors) r.fail(p, e);
  });
  for (const k of new URLSearchParams(page).keys()) {
    if (!PAGE_KEYS.includes(k))
      r.fail(`${path}.page`, `${k}: not a setting of the page (known: ${PAGE_KEYS.join(', ')}); a run's settings go in ${path}.runs`);
  }
  for (const e of [
    ...parseSettings(page, DEFAULTS, VOCABULARY).errors.filter((e) => PAGE_KEYS.some((k) => e.startsWith(`${k}:`))),
    ...parseExperiment(page).errors,
  ]) {
    r.fail(`${path}.page`, e);
  }
  return { runs, page };
}

function readCheckpoint(r: Reader, v: unknown, path: string, runs: number): Checkpoint {
  const o = r.obj(v, path, ['id', 'text', 'check']) ?? {};
  return { id: r.str(o, 'id', path, ITEM_ID), text: r.str(o, 'text', path), check: readCheck(r, o.check, `${path}.check`, runs) };
}

function readRun(r: Reader, o: Obj, path: string, runs: number): number {
  return r.num(o, 'run', path, 1, runs, { whole: true });
}

function readCheck(r: Reader, v: unknown, path: string, runs: number): Check | PredictCheck {
  const kind = isObj(v) ? r.oneOf(v, 'kind', path, CHECK_KINDS) : null;
  switch (kind) {
    case 'finished': {
      const o = r.obj(v, path, ['kind', 'run'])!;
      return { kind, run: readRun(r, o, path, runs) };
    }
    case 'compare': {
      const o = r.obj(v, path, ['kind', 'left', 'op', 'right', 'times'])!;
      const right = typeof o.right === 'number' ? r.num(o, 'right', path, -1e15, 1e15) : readQuantity(r, o.right, `${path}.right`, runs);
      return {
        kind,
        left: readQuantity(r, o.left, `${path}.left`, runs),
        op: r.oneOf(o, 'op', path, OPS),
        right,
        times: r.num(o, 'times', path, 0, 1e6, { optional: 1 }),
      };
    }
    case 'steady': {
      const o = r.obj(v, path, ['kind', 'run', 'field', 'window_s', 'within', 'from_s', 'before_s'])!;
      return {
        kind,
        run: readRun(r, o, path, runs),
        field: r.str(o, 'field', path),
        window_s: r.num(o, 'window_s', path, 2, 3600, { whole: true }),
        within: r.num(o, 'within', path, 0.001, 1),
        from_s: r.num(o, 'from_s', path, 0, 86_400, { optional: 0 }),
        before_s: r.num(o, 'before_s', path, 1, 86_400, { optional: null }),
      };
    }
    case 'predict':
      return readPredict(r, v as Obj, path, runs);
    default:
      if (!isObj(v)) r.fail(path, `must be an object with a kind (${CHECK_KINDS.join(', ')}) (got ${show(v)})`);
      return { kind: 'finished', run: 1 };
  }
}

function readPredict(r: Reader, v: Obj, path: string, runs: number): PredictCheck {
  const o = r.obj(v, path, ['kind', 'answer', 'unit', 'close', 'among', 'pick', 'choices'])!;
  const number = o.answer !== undefined;
  if (number === (o.among !== undefined))
    r.fail(
      path,
      `needs either answer (a number to predict) or among with pick and choices (an option to pick)${number ? ', not both' : ''}`,
    );
  if (number) {
    for (const k of ['among', 'pick', 'choices'])
      if (o[k] !== undefined) r.fail(`${path}.${k}`, 'belongs to a choice; a number to predict has answer, unit and close');
    return {
      kind: 'predict',
      answer: readQuantity(r, o.answer, `${path}.answer`, runs),
      unit: r.str(o, 'unit', path),
      close: r.num(o, 'close', path, 0.001, 1, { optional: 0.1 }),
    };
  }
  for (const k of ['unit', 'close'])
    if (o[k] !== undefined) r.fail(`${path}.${k}`, 'belongs to a number; a choice has among, pick and choices');
  const among = r.list(o, 'among', path, 2, 6).map((q, i) => readQuantity(r, q, `${path}.among[${i}]`, runs));
  const choices = r.strings(o, 'choices', path, 2, 6);
  if (among.length > 0 && choices.length > 0 && choices.length !== among.length)
    r.fail(`${path}.choices`, `must name one choice for each quantity of among (${among.length}) (got ${choices.length})`);
  return { kind: 'predict', among, pick: r.oneOf(o, 'pick', path, PICKS), choices };
}

function readQuantity(r: Reader, v: unknown, path: string, runs: number): Quantity {
  if (!isObj(v)) {
    r.fail(path, `must be a number or an object naming a quantity (of: ${QUANTITY_SOURCES.join(', ')}) (got ${show(v)})`);
    return { of: 'seconds', run: 1, field: '', stat: 'mean', from_s: 0, to_s: null };
  }
  const of = r.oneOf(v, 'of', path, QUANTITY_SOURCES, 'seconds');
  switch (of) {
    case 'seconds': {
      const o = r.obj(v, path, ['of', 'run', 'field', 'stat', 'from_s', 'to_s'])!;
      const from_s = r.num(o, 'from_s', path, 0, 86_400, { optional: 0 });
      const to_s = r.num(o, 'to_s', path, 1, 86_400, { optional: null });
      if (to_s !== null && to_s <= from_s) r.fail(`${path}.to_s`, `must be above from_s (${from_s}) (got ${to_s})`);
      return { of, run: readRun(r, o, path, runs), field: r.str(o, 'field', path), stat: r.oneOf(o, 'stat', path, STATS), from_s, to_s };
    }
    case 'fall': {
      const o = r.obj(v, path, ['of', 'run', 'field', 'below', 'baseline_s'])!;
      return {
        of,
        run: readRun(r, o, path, runs),
        field: r.str(o, 'field', path),
        below: r.num(o, 'below', path, 0.001, 1),
        baseline_s: r.num(o, 'baseline_s', path, 1, 3600, { whole: true, optional: 5 }),
      };
    }
    case 'table': {
      const o = r.obj(v, path, ['of', 'run', 'field', 'where', 'stat'])!;
      const where: Record<string, string | number> = {};
      if (o.where !== undefined) {
        if (!isObj(o.where)) r.fail(`${path}.where`, `must be an object of column: value (got ${show(o.where)})`);
        else
          for (const [k, val] of Object.entries(o.where)) {
            if (typeof val === 'string' || (typeof val === 'number' && Number.isFinite(val))) where[k] = val;
            else r.fail(`${path}.where.${k}`, `must be a string or a number (got ${show(val)})`);
          }
      }
      return { of, run: readRun(r, o, path, runs), field: r.str(o, 'field', path), where, stat: r.oneOf(o, 'stat', path, STATS, 'mean') };
    }
    case 'cuts': {
      const o = r.obj(v, path, ['of', 'run', 'field', 'stat'])!;
      return { of, run: readRun(r, o, path, runs), field: r.oneOf(o, 'field', path, CUT_FIELDS), stat: r.oneOf(o, 'stat', path, STATS) };
    }
  }
}

/** Reads public/labs/index.json: the ids of the labs a class can open, in order. */
export function parseLabIndex(json: unknown): { ids: string[]; errors: string[] } {
  const r = new Reader();
  const o = r.obj(json, 'index', ['labs']);
  if (!o) return { ids: [], errors: r.errors };
  const ids = r.strings(o, 'labs', 'index', 1, 100);
  ids.forEach((id, i) => {
    if (id && !LAB_ID.test(id)) r.fail(`index.labs[${i}]`, `must be a lab's name, letters, digits and dashes (got "${id}")`);
  });
  return { ids: ids.filter((id) => LAB_ID.test(id)), errors: r.errors };
}

/** The page's link for a step: the first run's keys, the page's, then one `compare` per further run. */
export function setupSearch(setup: LabSetup): string {
  const q = new URLSearchParams(setup.runs[0] ?? '');
  for (const [k, v] of new URLSearchParams(setup.page)) q.append(k, v);
  for (const run of setup.runs.slice(1)) q.append('compare', run);
  const s = q.toString().replace(/%2C/g, ',');
  return s ? `?${s}` : '';
}
