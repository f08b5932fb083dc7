// A student's progress through a lab, kept in this browser's localStorage (no server): the open
// step, the step whose runs are on the page, their name, their answers, the checkpoints they have
// met (kept once met, with what was measured), their predictions (locked before the run), the
// seed of a seeded lab and whether the answer key is shown.

import type { Lab } from './schema';

export interface MetCheckpoint {
  /** When it was met (ISO 8601). */
  at: string;
  /** What was measured ("16 s < 60"). */
  detail: string;
  /** A predict checkpoint's answer, as the run gave it. */
  answer?: number | string;
}

/** A prediction, locked before the step's runs started: a number or the choice picked. */
export interface Prediction {
  value: number | string;
  /** When it was locked (ISO 8601). */
  at: string;
}

export interface LabProgress {
  /** The step shown, an index into lab.steps. */
  step: number;
  /** The step whose runs the page holds (its Set up was pressed), or null. */
  setUp: number | null;
  student: string;
  /** Question id -> the student's answer. */
  answers: Record<string, string>;
  /** Checkpoint id -> when it was met. */
  met: Record<string, MetCheckpoint>;
  /** Predict checkpoint id -> the student's prediction. */
  predictions: Record<string, Prediction>;
  /** The seed a seeded lab was drawn from (the progress belongs to it), else null. */
  seed: number | null;
  showKey: boolean;
}

export const NO_PROGRESS: LabProgress = {
  step: 0,
  setUp: null,
  student: '',
  answers: {},
  met: {},
  predictions: {},
  seed: null,
  showKey: false,
};

export function progressKey(labId: string): string {
  return `ssdlab.lab.${labId}`;
}

/** Storage that may be missing or refuse (private windows, storage turned off): reads and writes just fail quietly. */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * The saved progress of a lab, keeping only what still fits the lab (a lab file edited since may
 * have dropped a step, a checkpoint or a question). A seeded lab opened with another seed starts
 * afresh (keeping the name): its numbers are not the ones answered.
 */
export function loadProgress(lab: Lab, store: KeyValueStore | null): LabProgress {
  let raw: unknown;
  try {
    const text = store?.getItem(progressKey(lab.id));
    raw = text ? JSON.parse(text) : null;
  } catch {
    raw = null;
  }
  const fresh = { ...NO_PROGRESS, seed: lab.seed };
  if (typeof raw !== 'object' || raw === null) return fresh;
  const o = raw as Record<string, unknown>;
  if ((o.seed ?? null) !== lab.seed) return { ...fresh, student: typeof o.student === 'string' ? o.student : '' };
  const steps = lab.steps.length;
  const index = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < steps ? v : null);
  const questions = new Set(lab.steps.flatMap((s) => s.questions.map((q) => q.id)));
  const checkpoints = new Set(lab.steps.flatMap((s) => s.checkpoints.map((c) => c.id)));
  const answers: Record<string, string> = {};
  if (typeof o.answers === 'object' && o.answers !== null) {
    for (const [k, v] of Object.entries(o.answers)) if (questions.has(k) && typeof v === 'string') answers[k] = v;
  }
  const met: Record<string, MetCheckpoint> = {};
  if (typeof o.met === 'object' && o.met !== null) {
    for (const [k, v] of Object.entries(o.met)) {
      const m = v as Partial<MetCheckpoint> | null;
      if (checkpoints.has(k) && typeof m?.at === 'string' && typeof m.detail === 'string')
        met[k] = { at: m.at, detail: m.detail, ...(isValue(m.answer) ? { answer: m.answer } : {}) };
    }
  }
  const predictions: Record<string, Prediction> = {};
  if (typeof o.predictions === 'object' && o.predictions !== null) {
    for (const [k, v] of Object.entries(o.predictions)) {
      const p = v as Partial<Prediction> | null;
      if (checkpoints.has(k) && typeof p?.at === 'string' && isValue(p.value)) predictions[k] = { value: p.value, at: p.at };
    }
  }
  return {
    step: index(o.step) ?? 0,
    setUp: index(o.setUp),
    student: typeof o.student === 'string' ? o.student : '',
    answers,
    met,
    predictions,
    seed: lab.seed,
    showKey: o.showKey === true,
  };
}

const isValue = (v: unknown): v is number | string => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

export function saveProgress(labId: string, progress: LabProgress, store: KeyValueStore | null): void {
  try {
    store?.setItem(progressKey(labId), JSON.stringify(progress));
  } catch {
    // Full or refused: the page keeps the progress until it is closed.
  }
}

export function clearProgress(labId: string, store: KeyValueStore | null): void {
  try {
    store?.removeItem(progressKey(labId));
  } catch {
    // Refused: nothing was kept either.
  }
}

/** Checkpoints met and questions answered, of the whole lab. */
export function tally(lab: Lab, progress: LabProgress): { met: number; checkpoints: number; answered: number; questions: number } {
  const checkpoints = lab.steps.flatMap((s) => s.checkpoints);
  const questions = lab.steps.flatMap((s) => s.questions);
  return {
    met: checkpoints.filter((c) => progress.met[c.id]).length,
    checkpoints: checkpoints.length,
    answered: questions.filter((q) => (progress.answers[q.id] ?? '').trim() !== '').length,
    questions: questions.length,
  };
}

/** The seed a seeded lab's saved progress belongs to, if any: reopened, the lab is drawn with it again. */
export function savedSeed(labId: string, store: KeyValueStore | null): number | null {
  try {
    const seed = (JSON.parse(store?.getItem(progressKey(labId)) ?? 'null') as { seed?: unknown } | null)?.seed;
    return typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 ? seed : null;
  } catch {
    return null;
  }
}
