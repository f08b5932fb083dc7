import { describe, expect, it } from 'vitest';
import { parseLab, parseLabIndex, setupSearch } from './schema';

/** A small valid lab; each test breaks one part of it. */
function lab(): Record<string, unknown> {
  return {
    schema: 1,
    id: 'demo',
    title: 'Demo',
    summary: 'A lab for the tests.',
    minutes: 10,
    goal: 'Check the reader.',
    background: ['One paragraph.'],
    steps: [
      {
        id: 'one',
        title: 'First',
        do: 'Press Start.',
        setup: { runs: ['seconds=60', 'seconds=60&span=0.5'], page: 'view=steady-log&charts=free' },
        observe: ['The dots.'],
        checkpoints: [
          { id: 'done', text: 'It finished', check: { kind: 'finished', run: 2 } },
          {
            id: 'wa',
            text: 'WA above 2',
            check: { kind: 'compare', left: { run: 1, field: 'write_amplification', stat: 'last' }, op: '>', right: 2 },
          },
          {
            id: 'ratio',
            text: 'Run 2 faster',
            check: {
              kind: 'compare',
              left: { of: 'seconds', run: 2, field: 'iops', stat: 'mean', from_s: 30 },
              op: '>=',
              right: { of: 'seconds', run: 1, field: 'iops', stat: 'mean', from_s: 30 },
              times: 1.3,
            },
          },
          { id: 'steady', text: 'Steady', check: { kind: 'steady', run: 1, field: 'iops', window_s: 20, within: 0.05, before_s: 60 } },
        ],
        questions: [{ id: 'q1', text: 'Why?', answer: 'Because.' }],
      },
    ],
  };
}

type Step = Record<string, unknown> & { checkpoints: Record<string, unknown>[]; setup: Record<string, unknown> };
const step0 = (l: Record<string, unknown>) => (l.steps as Step[])[0];

describe('parseLab', () => {
  it('reads a valid lab with its defaults filled in', () => {
    const parsed = parseLab(lab(), 'demo');
    if (parsed.errors) throw new Error(parsed.errors.join('; '));
    const l = parsed.lab;
    expect(l.steps[0].setup.runs).toHaveLength(2);
    expect(l.steps[0].checkpoints[1].check).toEqual({
      kind: 'compare',
      left: { of: 'seconds', run: 1, field: 'write_amplification', stat: 'last', from_s: 0, to_s: null },
      op: '>',
      right: 2,
      times: 1,
    });
    expect(l.steps[0].checkpoints[3].check).toMatchObject({ kind: 'steady', window_s: 20, within: 0.05, from_s: 0, before_s: 60 });
  });

  it('names every bad field by its path and what it accepts', () => {
    const l = lab();
    l.schema = 2;
    l.minutes = 0;
    const s = step0(l);
    s.checkpoints[1].check = { kind: 'compare', left: { run: 1, field: 'iops', stat: 'average' }, op: '=>', right: 2 };
    s.checkpoints[0].check = { kind: 'finished', run: 3 };
    s.checkpoints[3].check = { kind: 'steady', run: 1, field: 'iops', window_s: 1, within: 0.05 };
    const errors = parseLab(l, 'demo').errors!;
    expect(errors).toContain('schema: must be 1, the lab format this page reads (got 2)');
    expect(errors).toContain('lab.minutes: must be a whole number from 1 to 600 (got 0)');
    expect(errors).toContain(
      'steps[0].checkpoints[1].check.left.stat: must be one of mean, min, max, first, last, median, sum, spread (got "average")',
    );
    expect(errors).toContain('steps[0].checkpoints[1].check.op: must be one of >, >=, <, <=, == (got "=>")');
    expect(errors).toContain('steps[0].checkpoints[0].check.run: must be a whole number from 1 to 2 (got 3)');
    expect(errors).toContain('steps[0].checkpoints[3].check.window_s: must be a whole number from 2 to 3,600 (got 1)');
  });

  it('refuses unknown fields (a typo would otherwise be ignored), unknown kinds and sources', () => {
    const l = lab();
    const s = step0(l);
    s.checkpoints[0] = { id: 'done', text: 'x', chek: {} };
    s.checkpoints[1].check = { kind: 'greater', run: 1 };
    s.checkpoints[2].check = { kind: 'compare', left: { of: 'minutes', run: 1 }, op: '>', right: 'ten' };
    const errors = parseLab(l, 'demo').errors!;
    expect(errors).toContain('steps[0].checkpoints[0].chek: unknown field (known: id, text, check)');
    expect(errors).toContain('steps[0].checkpoints[1].check.kind: must be one of finished, compare, steady, predict (got "greater")');
    expect(errors).toContain('steps[0].checkpoints[2].check.left.of: must be one of seconds, fall, table, cuts (got "minutes")');
    expect(errors).toContain(
      'steps[0].checkpoints[2].check.right: must be a number or an object naming a quantity (of: seconds, fall, table, cuts) (got "ten")',
    );
  });

  it('checks the setup as the page reads a link, and keeps run and page keys apart', () => {
    const l = lab();
    step0(l).setup = {
      runs: ['seconds=0&view=steady-log', 'compare=seconds%3D5&pacing=slow'],
      page: 'experiment=four-corners&exp_qd=0&drive=x',
    };
    const errors = parseLab(l, 'demo').errors!;
    expect(errors).toContain('steps[0].setup.runs[0]: seconds: must be a whole number from 1 to 86,400 (got "0")');
    expect(errors).toContain('steps[0].setup.runs[0]: view is a setting of the page: put it in steps[0].setup.page');
    expect(errors).toContain('steps[0].setup.runs[1]: compare is not a setting of one run (list each run in steps[0].setup.runs)');
    expect(errors.some((e) => e.startsWith('steps[0].setup.runs[1]: pacing: must be one of'))).toBe(true);
    expect(errors.some((e) => e.startsWith('steps[0].setup.page: drive: not a setting of the page'))).toBe(true);
    expect(errors).toContain('steps[0].setup.page: exp_qd: each must be a whole number from 1 to 65,536 (got 0)');
  });

  it('needs the file name as id, and ids of its own for every step, checkpoint and question', () => {
    const l = lab();
    l.steps = [step0(l), { ...step0(l) }];
    expect(parseLab(l, 'other').errors).toContain('lab.id: must be the file\'s name, "other" (got "demo")');
    const errors = parseLab(l, 'demo').errors!;
    expect(errors).toContain('steps[1].id: "one" is already the id of steps[0]; each step needs its own');
    expect(errors).toContain(
      'steps[1].checkpoints[0].id: "done" is already the id of steps[0].checkpoints[0]; each checkpoint needs its own',
    );
    expect(errors).toContain('steps[1].questions[0].id: "q1" is already the id of steps[0].questions[0]; each question needs its own');
  });

  it('refuses what is not a lab at all', () => {
    expect(parseLab([1, 2], 'demo').errors).toEqual(['lab: must be an object (got [1,2])']);
    expect(parseLab({ schema: 1 }, 'demo').errors).toContain('lab.steps: must be a list of 1 to 20 entries (got nothing)');
  });
});

describe('parseLabIndex', () => {
  it('reads the ids and names a bad one', () => {
    expect(parseLabIndex({ labs: ['cliff', 'spare'] })).toEqual({ ids: ['cliff', 'spare'], errors: [] });
    const bad = parseLabIndex({ labs: ['cliff', '../secret'] });
    expect(bad.ids).toEqual(['cliff']);
    expect(bad.errors).toEqual(['index.labs[1]: must be a lab\'s name, letters, digits and dashes (got "../secret")']);
  });
});

describe('setupSearch', () => {
  it('makes the page’s link: the first run, the page keys, then each further run as compare', () => {
    const search = setupSearch({ runs: ['seconds=60', 'drive=p400e-400&seconds=60'], page: 'view=steady-log' });
    const q = new URLSearchParams(search);
    expect(q.get('seconds')).toBe('60');
    expect(q.get('view')).toBe('steady-log');
    expect(q.getAll('compare')).toEqual(['drive=p400e-400&seconds=60']);
  });
});
