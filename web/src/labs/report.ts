// A student's lab as a file to hand in: their answers and which checkpoints the engine's results
// met (with what was measured and when), as Markdown to read or JSON to collect. The answer key
// is never in it.

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
  checkpoints_met: number;
  checkpoints: number;
  steps: {
    id: string;
    title: string;
    /** The page's settings for the step's runs (append to the page's address). */
    setup: string;
    checkpoints: { id: string; text: string; met: boolean; measured: string | null; at: string | null }[];
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
    checkpoints_met: t.met,
    checkpoints: t.checkpoints,
    steps: lab.steps.map((s) => ({
      id: s.id,
      title: s.title,
      setup: setupSearch(s.setup),
      checkpoints: s.checkpoints.map((c) => {
        const met = progress.met[c.id];
        return { id: c.id, text: c.text, met: !!met, measured: met?.detail ?? null, at: met?.at ?? null };
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
    `- Checkpoints met: ${h.checkpoints_met} of ${h.checkpoints}`,
  ];
  h.steps.forEach((s, i) => {
    out.push('', `## Step ${i + 1}: ${s.title}`, '', `Setup: \`${s.setup}\``, '', '### Checkpoints', '');
    for (const c of s.checkpoints) out.push(`- [${c.met ? 'x' : ' '}] ${c.text}${c.met ? ` (measured ${c.measured}, ${c.at})` : ''}`);
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
