// A student's lab as a file to hand in: their answers and which checkpoints the engine's results
// met (with what was measured and when), each prediction with the run's answer and the error, and
// a seeded lab's seed, as Markdown to read or JSON to collect. The answer key is never in it.

import { outcome, type Outcome } from './predict';
import type { LabProgress } from './progress';
import { tally } from './progress';
import { setupSearch, type Lab } from './schema';

export interface HandIn {
  lab: string;
  title: string;
  student: string;
  /** ISO 8601. */
  exported_at: string;
  /** The page the lab was done on (its address, with ?lab=). */
  link: string;
  /** A seeded lab's seed and the values drawn from it (null without). */
  seed: number | null;
  parameters: Record<string, number | string>;
  checkpoints_met: number;
  checkpoints: number;
  steps: {
    id: string;
    title: string;
    /** The page's settings for the step's runs (append to the page's address). */
    setup: string;
    checkpoints: {
      id: string;
      text: string;
      met: boolean;
      measured: string | null;
      at: string | null;
      /** A predict checkpoint's: what the student predicted (null before) and, once run, the answer and error. */
      prediction?: { predicted: number | string | null; locked_at: string | null; outcome: Outcome | null };
    }[];
    questions: { id: string; text: string; answer: string }[];
  }[];
}

export function handIn(lab: Lab, progress: LabProgress, now: Date, link: string): HandIn {
  const t = tally(lab, progress);
  return {
    lab: lab.id,
    title: lab.title,
    student: progress.student.trim(),
    exported_at: now.toISOString(),
    link,
    seed: lab.seed,
    parameters: lab.parameters,
    checkpoints_met: t.met,
    checkpoints: t.checkpoints,
    steps: lab.steps.map((s) => ({
      id: s.id,
      title: s.title,
      setup: setupSearch(s.setup),
      checkpoints: s.checkpoints.map((c) => {
        const met = progress.met[c.id];
        const row = { id: c.id, text: c.text, met: !!met, measured: met?.detail ?? null, at: met?.at ?? null };
        if (c.check.kind !== 'predict') return row;
        const p = progress.predictions[c.id];
        const answered = p !== undefined && met?.answer !== undefined;
        return {
          ...row,
          prediction: {
            predicted: p?.value ?? null,
            locked_at: p?.at ?? null,
            outcome: answered ? outcome(c.check, p.value, met.answer!) : null,
          },
        };
      }),
      questions: s.questions.map((q) => ({ id: q.id, text: q.text, answer: (progress.answers[q.id] ?? '').trim() })),
    })),
  };
}

export function handInJson(h: HandIn): string {
  return `${JSON.stringify(h, null, 2)}\n`;
}

/** Markdown quoting: every line of an answer as a block quote, so it cannot become a heading. */
function quote(text: string): string {
  return text === ''
    ? '> (no answer)'
    : text
        .split('\n')
        .map((l) => `> ${l}`.trimEnd())
        .join('\n');
}

export function handInMarkdown(h: HandIn): string {
  const out = [
    `# Lab: ${h.title}`,
    '',
    `- Student: ${h.student || '(no name given)'}`,
    `- Saved: ${h.exported_at}`,
    `- Lab: ${h.link}`,
    ...(h.seed === null
      ? []
      : [
          `- Seed: ${h.seed} (${Object.entries(h.parameters)
            .map(([k, v]) => `${k} = ${v}`)
            .join(', ')})`,
        ]),
    `- Checkpoints met: ${h.checkpoints_met} of ${h.checkpoints}`,
  ];
  h.steps.forEach((s, i) => {
    out.push('', `## Step ${i + 1}: ${s.title}`, '', `Setup: \`${s.setup}\``, '', '### Checkpoints', '');
    for (const c of s.checkpoints) {
      const predicted = c.prediction && !c.met ? ` (predicted ${c.prediction.predicted ?? 'nothing yet'})` : '';
      out.push(`- [${c.met ? 'x' : ' '}] ${c.text}${c.met ? ` (${c.prediction ? '' : 'measured '}${c.measured}, ${c.at})` : predicted}`);
    }
    if (s.questions.length > 0) {
      out.push('', '### Questions');
      s.questions.forEach((q, j) => out.push('', `**${i + 1}.${j + 1} ${q.text}**`, '', quote(q.answer)));
    }
  });
  return `${out.join('\n')}\n`;
}

/** A file name for the hand-in: lab-cliff-ada-lovelace.md */
export function handInFileName(h: HandIn, ext: 'md' | 'json'): string {
  const who = h.student
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `lab-${h.lab}${who ? `-${who}` : ''}.${ext}`;
}
