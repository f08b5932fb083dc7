import { describe, expect, it } from 'vitest';
import { ColumnStore } from '../data/columns';
import type { RunResult } from './checkpoints';
import { evaluatePredict, outcome } from './predict';
import { loadProgress, progressKey, savedSeed, saveProgress, NO_PROGRESS, type KeyValueStore, type LabProgress } from './progress';
import { handIn, handInMarkdown } from './report';
import { parseLab, type Lab, type PredictCheck } from './schema';
import { drawParameters, mulberry32, parseSeed } from './seeds';

/** A finished run with these per-second IOPS (second 0, 1, ...). */
function run(iops: number[], started = true): RunResult {
  const store = new ColumnStore(['second', 'iops']);
  store.appendColumnMajor(['second', 'iops'], iops.length, Float64Array.from([...iops.map((_, i) => i), ...iops]));
  return { seconds: store, started, finished: started, secondsDone: iops.length, powerCuts: [], experiment: null };
}

const mean = (r: number, from_s = 0) => ({ of: 'seconds' as const, run: r, field: 'iops', stat: 'mean' as const, from_s, to_s: null });
const NUMBER: PredictCheck = { kind: 'predict', answer: mean(1), unit: 'IOPS', close: 0.2 };
const CHOICE: PredictCheck = { kind: 'predict', among: [mean(1), mean(2)], pick: 'highest', choices: ['the S3700', 'the 840 Pro'] };

/** A seeded lab: its span drawn from four values, written into a run and a checkpoint's text. */
function seededLab(): Record<string, unknown> {
  return {
    schema: 1,
    id: 'demo',
    title: 'Demo',
    summary: 'A seeded lab.',
    minutes: 10,
    goal: 'Predict.',
    seeded: { span: [1, 0.9, 0.8, 0.7], share: { min: 0.1, max: 0.5, step: 0.1 } },
    steps: [
      {
        id: 'one',
        title: 'At span {span}',
        do: 'Predict, then press Start.',
        setup: { runs: ['seconds=40&span={span}'] },
        observe: ['The dots.'],
        checkpoints: [
          {
            id: 'p',
            text: 'IOPS at span {span}?',
            check: { kind: 'predict', answer: { run: 1, field: 'iops', stat: 'mean' }, unit: 'IOPS' },
          },
        ],
        questions: [],
      },
    ],
  };
}

function parsed(json: unknown, seed = 0): Lab {
  const p = parseLab(json, 'demo', seed);
  if (p.errors) throw new Error(p.errors.join('; '));
  return p.lab;
}

describe('seeds', () => {
  it('mulberry32 gives the same sequence for the same seed, another for another seed', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(mulberry32(43)()).not.toBe(first[0]);
    for (const x of first) expect(x >= 0 && x < 1).toBe(true);
  });

  it('draws every value of a list over seeds, and range values on the step, rounded', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed++) {
      const v = drawParameters({ span: { choices: [1, 0.9, 0.8, 0.7] }, share: { min: 0.1, max: 0.5, step: 0.1 } }, seed);
      seen.add(`span ${v.span}`).add(`share ${v.share}`);
    }
    expect([...seen].sort()).toEqual(
      ['span 1', 'span 0.9', 'span 0.8', 'span 0.7', 'share 0.1', 'share 0.2', 'share 0.3', 'share 0.4', 'share 0.5'].sort(),
    );
  });

  it('a seeded lab: the same seed gives the same runs and text, the values written where the lab says', () => {
    const spans = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const l = parsed(seededLab(), seed);
      expect(parsed(seededLab(), seed)).toEqual(l);
      expect(l.seed).toBe(seed);
      expect(l.steps[0].setup.runs[0]).toBe(`seconds=40&span=${l.parameters.span}`);
      expect(l.steps[0].title).toBe(`At span ${l.parameters.span}`);
      expect(l.steps[0].checkpoints[0].text).toBe(`IOPS at span ${l.parameters.span}?`);
      spans.add(String(l.parameters.span));
    }
    expect(spans.size).toBe(4);
    // A lab without `seeded` has no seed.
    const plain = seededLab();
    delete plain.seeded;
    (plain.steps as { setup: { runs: string[] } }[])[0].setup.runs = ['seconds=40'];
    (plain.steps as { title: string }[])[0].title = 'Plain';
    (plain.steps as { checkpoints: { text: string }[] }[])[0].checkpoints[0].text = 'IOPS?';
    expect(parsed(plain, 5)).toMatchObject({ seed: null, parameters: {} });
  });

  it('names a bad parameter, a placeholder the lab does not declare and a bad link seed', () => {
    const l = seededLab();
    l.seeded = { span: [1], Qd: { min: 4, max: 2, step: 1 } };
    (l.steps as { do: string }[])[0].do = 'Press Start at {depth}.';
    const errors = parseLab(l, 'demo').errors!;
    expect(errors).toContain('lab.seeded.span: must be a list of 2 to 20 numbers or strings (got [1])');
    expect(errors).toContain('lab.seeded.Qd: a parameter’s name must be lower-case letters, digits and _, starting with a letter');
    expect(errors).toContain('lab.seeded.Qd.max: must be above min (4) (got 2)');
    expect(errors).toContain('steps[0].do: {depth} is not a seeded parameter of the lab (seeded: Qd)');
    expect(parseSeed('4821')).toBe(4821);
    expect(parseSeed('48x')).toEqual({ error: 'must be a whole number from 0 to 4,294,967,295 (got "48x")' });
  });
});

describe('the predict checkpoint in a lab file', () => {
  it('reads a number (close defaults to 10 %) and a choice', () => {
    const l = parsed(seededLab());
    expect(l.steps[0].checkpoints[0].check).toEqual({ kind: 'predict', answer: mean(1), unit: 'IOPS', close: 0.1 });
    const c = seededLab();
    (c.steps as { checkpoints: unknown[] }[])[0].checkpoints = [
      {
        id: 'w',
        text: 'Which?',
        check: {
          kind: 'predict',
          among: [
            { run: 1, field: 'iops', stat: 'mean' },
            { run: 1, field: 'iops', stat: 'max' },
          ],
          pick: 'lowest',
          choices: ['a', 'b'],
        },
      },
    ];
    expect(parsed(c).steps[0].checkpoints[0].check).toMatchObject({ kind: 'predict', pick: 'lowest', choices: ['a', 'b'] });
  });

  it('names each mistake by its path and what it accepts', () => {
    const bad = (check: unknown) => {
      const l = seededLab();
      (l.steps as { checkpoints: { check: unknown }[] }[])[0].checkpoints[0].check = check;
      return parseLab(l, 'demo').errors ?? [];
    };
    const at = 'steps[0].checkpoints[0].check';
    expect(bad({ kind: 'predict', unit: 'IOPS' })).toContain(
      `${at}: needs either answer (a number to predict) or among with pick and choices (an option to pick)`,
    );
    expect(bad({ kind: 'predict', answer: mean(1), unit: 'IOPS', close: 2, pick: 'highest' })).toEqual(
      expect.arrayContaining([
        `${at}.close: must be a number from 0.001 to 1 (got 2)`,
        `${at}.pick: belongs to a choice; a number to predict has answer, unit and close`,
      ]),
    );
    expect(bad({ kind: 'predict', answer: mean(1), unit: 'IOPS', among: [mean(1), mean(1)] })).toContain(
      `${at}: needs either answer (a number to predict) or among with pick and choices (an option to pick), not both`,
    );
    expect(bad({ kind: 'predict', answer: mean(1) })).toContain(`${at}.unit: must be a non-empty string (got nothing)`);
    expect(bad({ kind: 'predict', among: [mean(1), mean(1)], pick: 'most', choices: ['a', 'b', 'c'], unit: 's' })).toEqual(
      expect.arrayContaining([
        `${at}.pick: must be one of highest, lowest (got "most")`,
        `${at}.choices: must name one choice for each quantity of among (2) (got 3)`,
        `${at}.unit: belongs to a number; a choice has among, pick and choices`,
      ]),
    );
    expect(bad({ kind: 'predict', among: [mean(3), mean(1)], pick: 'highest', choices: ['a', 'b'] })).toContain(
      `${at}.among[0].run: must be a whole number from 1 to 1 (got 3)`,
    );
  });
});

describe('predict, then run', () => {
  it('reads nothing of the answer before a prediction is locked', () => {
    expect(evaluatePredict(NUMBER, [run([10, 20])], undefined)).toEqual({
      status: 'waiting',
      detail: 'predict first: the run started before a prediction was locked; set the step up again, predict, then run it',
    });
    expect(evaluatePredict(NUMBER, [run([], false)], undefined).detail).toBe('predict first: lock your prediction, then run the step');
  });

  it('a number: the answer beside the prediction, with the error absolute and in %', () => {
    expect(evaluatePredict(NUMBER, [run([], false)], 20_000)).toEqual({ status: 'waiting', detail: 'waiting for run 1 to start' });
    expect(evaluatePredict(NUMBER, [run([20_000, 30_000])], 20_000)).toEqual({
      status: 'met',
      detail: 'predicted 20,000 IOPS · the run: 25,000 IOPS · error −5,000 IOPS (−20.0 %): close (within ±20 %)',
      answer: 25_000,
    });
    expect(outcome(NUMBER, 40_000, 25_000)).toEqual({
      predicted: 40_000,
      answer: 25_000,
      unit: 'IOPS',
      error: 15_000,
      error_percent: 60,
      close: false,
    });
  });

  it('a choice: the run’s answer is the choice whose quantity is highest (or lowest)', () => {
    const results = [run([100, 100]), run([300, 300])];
    expect(evaluatePredict(CHOICE, results, 'the S3700')).toEqual({
      status: 'met',
      detail: 'picked “the S3700” · the run: “the 840 Pro” · wrong (the S3700: 100, the 840 Pro: 300)',
      answer: 'the 840 Pro',
    });
    expect(evaluatePredict({ ...CHOICE, pick: 'lowest' }, results, 'the S3700').answer).toBe('the S3700');
  });
});

describe('progress and hand-in of a seeded lab with predictions', () => {
  const memory = (): KeyValueStore => {
    const data = new Map<string, string>();
    return { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
  };
  const lab = parsed(seededLab(), 7);
  const progress: LabProgress = {
    ...NO_PROGRESS,
    student: 'Ada',
    seed: 7,
    predictions: { p: { value: 20_000, at: '2026-11-26T10:00:00.000Z' } },
    met: { p: { at: '2026-11-26T10:01:00.000Z', detail: 'predicted ...', answer: 25_000 } },
  };

  it('keeps the predictions and the seed; another seed starts afresh, keeping the name', () => {
    const store = memory();
    saveProgress('demo', progress, store);
    expect(savedSeed('demo', store)).toBe(7);
    expect(loadProgress(lab, store)).toEqual(progress);
    expect(loadProgress(parsed(seededLab(), 8), store)).toEqual({ ...NO_PROGRESS, seed: 8, student: 'Ada' });
    store.setItem(
      progressKey('demo'),
      JSON.stringify({ ...progress, predictions: { p: { value: null, at: 'x' }, gone: { value: 1, at: 'x' } } }),
    );
    expect(loadProgress(lab, store).predictions).toEqual({});
  });

  it('the hand-in has the seed, the prediction, the answer and the error', () => {
    const h = handIn(lab, progress, new Date('2026-11-26T11:00:00Z'), 'http://x/?lab=demo&lab_seed=7');
    expect(h).toMatchObject({ seed: 7, parameters: lab.parameters });
    expect(h.steps[0].checkpoints[0].prediction).toEqual({
      predicted: 20_000,
      locked_at: '2026-11-26T10:00:00.000Z',
      outcome: { predicted: 20_000, answer: 25_000, unit: 'IOPS', error: -5_000, error_percent: -20, close: false },
    });
    const md = handInMarkdown(h);
    expect(md).toContain(`- Seed: 7 (span = ${lab.parameters.span}, share = ${lab.parameters.share})`);
    expect(md).toContain('- [x] IOPS at span');
    const before = handIn(lab, { ...progress, met: {} }, new Date(), '');
    expect(before.steps[0].checkpoints[0].prediction).toEqual({ predicted: 20_000, locked_at: '2026-11-26T10:00:00.000Z', outcome: null });
    expect(handInMarkdown(before)).toContain('(predicted 20000)');
  });
});
