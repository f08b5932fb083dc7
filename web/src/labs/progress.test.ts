import { describe, expect, it } from 'vitest';
import { clearProgress, loadProgress, progressKey, saveProgress, tally, type KeyValueStore, type LabProgress } from './progress';
import { handIn, handInFileName, handInJson, handInMarkdown } from './report';
import type { Lab } from './schema';

const LAB: Lab = {
  schema: 1,
  id: 'demo',
  title: 'Demo lab',
  summary: 's',
  minutes: 5,
  goal: 'g',
  background: [],
  steps: [
    {
      id: 'one',
      title: 'First step',
      do: 'd',
      setup: { runs: ['seconds=60'], page: '' },
      observe: ['o'],
      checkpoints: [
        { id: 'c1', text: 'IOPS fell', check: { kind: 'finished', run: 1 } },
        { id: 'c2', text: 'WA rose', check: { kind: 'finished', run: 1 } },
      ],
      questions: [
        { id: 'q1', text: 'Why?', answer: 'The teacher knows.' },
        { id: 'q2', text: 'How much?', answer: 'Twice.' },
      ],
    },
  ],
  seed: null,
  parameters: {},
};

function memory(): KeyValueStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const PROGRESS: LabProgress = {
  step: 0,
  setUp: 0,
  student: 'Ada Lovelace',
  answers: { q1: 'Free blocks ran out.\n# not a heading' },
  met: { c1: { at: '2026-11-23T14:00:00.000Z', detail: '16 s < 60' } },
  predictions: {},
  seed: null,
  showKey: true,
};

describe('progress', () => {
  it('survives a save and a load', () => {
    const store = memory();
    saveProgress('demo', PROGRESS, store);
    expect(store.data.has(progressKey('demo'))).toBe(true);
    expect(loadProgress(LAB, store)).toEqual(PROGRESS);
    clearProgress('demo', store);
    expect(loadProgress(LAB, store).met).toEqual({});
  });

  it('keeps only what still fits an edited lab, and starts over on what it cannot read', () => {
    const store = memory();
    store.setItem(
      progressKey('demo'),
      JSON.stringify({
        step: 7,
        setUp: 'x',
        answers: { q1: 'kept', gone: 'dropped', q2: 5 },
        met: { c2: { at: 't', detail: 'd' }, old: { at: 't', detail: 'd' } },
      }),
    );
    expect(loadProgress(LAB, store)).toEqual({
      step: 0,
      setUp: null,
      student: '',
      answers: { q1: 'kept' },
      met: { c2: { at: 't', detail: 'd' } },
      predictions: {},
      seed: null,
      showKey: false,
    });
    store.setItem(progressKey('demo'), '{not json');
    expect(loadProgress(LAB, store).answers).toEqual({});
    expect(loadProgress(LAB, null).step).toBe(0);
  });

  it('a store that refuses to write loses nothing on the page', () => {
    const refusing: KeyValueStore = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {},
    };
    expect(() => saveProgress('demo', PROGRESS, refusing)).not.toThrow();
  });

  it('tallies checkpoints met and questions answered', () => {
    expect(tally(LAB, PROGRESS)).toEqual({ met: 1, checkpoints: 2, answered: 1, questions: 2 });
  });
});

describe('the hand-in', () => {
  const h = handIn(LAB, PROGRESS, new Date('2026-11-23T15:00:00Z'), 'http://school.example/ssdlab/?lab=demo');

  it('holds the answers and each checkpoint with what was measured, never the answer key', () => {
    const json = JSON.parse(handInJson(h));
    expect(json).toMatchObject({
      lab: 'demo',
      student: 'Ada Lovelace',
      exported_at: '2026-11-23T15:00:00.000Z',
      checkpoints_met: 1,
      checkpoints: 2,
    });
    expect(json.steps[0].checkpoints).toEqual([
      { id: 'c1', text: 'IOPS fell', met: true, measured: '16 s < 60', at: '2026-11-23T14:00:00.000Z' },
      { id: 'c2', text: 'WA rose', met: false, measured: null, at: null },
    ]);
    expect(json.steps[0].questions[1]).toEqual({ id: 'q2', text: 'How much?', answer: '' });
    expect(handInJson(h)).not.toContain('The teacher knows');
  });

  it('as Markdown: ticked checkpoints, each answer quoted so it cannot become a heading', () => {
    const md = handInMarkdown(h);
    expect(md).toContain('# Lab: Demo lab');
    expect(md).toContain('- Student: Ada Lovelace');
    expect(md).toContain('- Checkpoints met: 1 of 2');
    expect(md).toContain('- [x] IOPS fell (measured 16 s < 60, 2026-11-23T14:00:00.000Z)');
    expect(md).toContain('- [ ] WA rose');
    expect(md).toContain('**1.1 Why?**\n\n> Free blocks ran out.\n> # not a heading');
    expect(md).toContain('**1.2 How much?**\n\n> (no answer)');
    expect(md).not.toContain('The teacher knows');
  });

  it('is named after the lab and the student', () => {
    expect(handInFileName(h, 'md')).toBe('lab-demo-ada-lovelace.md');
    expect(handInFileName({ ...h, student: '' }, 'json')).toBe('lab-demo.json');
  });
});
