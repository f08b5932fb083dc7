// The open lab beside the chart: its goal, the step being done (what to do, a button that puts
// the step's runs on the page, what to look for, its checkpoints read live from the results, its
// questions), the teacher's answer key (hidden until asked for), and the hand-in, print and
// close buttons. Checkpoints met are kept with what was measured, so a reload keeps them. A step
// with predict checkpoints asks for the predictions first (LabPredict); a seeded lab shows its
// seed, so a teacher can reproduce a student's numbers.

import { useEffect, useEffectEvent, useId, useState } from 'react';
import { download } from '../charts/export';
import type { CheckResult, LabResults } from '../labs/checkpoints';
import { evaluateCheckpoint } from '../labs/predict';
import { NO_PROGRESS, tally, type LabProgress } from '../labs/progress';
import { handIn, handInFileName, handInJson, handInMarkdown } from '../labs/report';
import type { Checkpoint, Lab, PredictCheck } from '../labs/schema';
import { LabPredict } from './LabPredict';

export interface LabPanelProps {
  lab: Lab;
  progress: LabProgress;
  onProgress(change: (p: LabProgress) => LabProgress): void;
  /** The runs on the page, read by the checkpoints. */
  results: LabResults;
  /** Null when a step can be set up; else why not yet. */
  setupBlocked: string | null;
  /** Puts a step's runs on the page. */
  onSetUp(step: number): void;
  /** What the page could not use of the step's setup (names from a lab file the engine does not know). */
  setupProblems: readonly string[];
  onClose(): void;
  /** The page's address for this lab (?lab=ID), for the hand-in. */
  link: string;
}

const STATUS_WORDS: Record<CheckResult['status'], string> = { met: 'Met', 'not-met': 'Not met', waiting: 'Waiting' };

export function LabPanel({ lab, progress, onProgress, results, setupBlocked, onSetUp, setupProblems, onClose, link }: LabPanelProps) {
  const ids = useId();
  const index = Math.min(progress.step, lab.steps.length - 1);
  const step = lab.steps[index];
  const live = progress.setUp === index;
  const checks = step.checkpoints.map((c): CheckResult => {
    const met = progress.met[c.id];
    if (met) return { status: 'met', detail: met.detail };
    if (!live) return { status: 'waiting', detail: `set up step ${index + 1}, then run it` };
    return evaluateCheckpoint(c.check, results, progress.predictions[c.id]?.value);
  });
  const predicts = step.checkpoints.filter((c): c is Checkpoint & { check: PredictCheck } => c.check.kind === 'predict');
  const started = live && results.some((r) => r.started);

  // Keep each checkpoint once it is met, with what was measured and when.
  const newlyMet = step.checkpoints.filter((c, i) => !progress.met[c.id] && checks[i].status === 'met');
  const newlyKey = newlyMet.map((c) => c.id).join(',');
  const [announce, setAnnounce] = useState('');
  const [announcedKey, setAnnouncedKey] = useState('');
  if (newlyKey !== announcedKey) {
    setAnnouncedKey(newlyKey);
    if (newlyKey !== '') setAnnounce(`Checkpoint met: ${newlyMet.map((c) => c.text).join('; ')}`);
  }
  const keepNewlyMet = useEffectEvent(() => {
    const at = new Date().toISOString();
    const details = Object.fromEntries(
      newlyMet.map((c) => {
        const { detail, answer } = checks[step.checkpoints.indexOf(c)];
        return [c.id, { at, detail, ...(answer === undefined ? {} : { answer }) }];
      }),
    );
    onProgress((p) => ({ ...p, met: { ...p.met, ...details } }));
  });
  // Saved once per set of newly met checkpoints (newlyKey names exactly them), not every render.
  useEffect(() => {
    if (newlyKey !== '') keepNewlyMet();
  }, [newlyKey]);

  const t = tally(lab, progress);
  const runsExperiment = new URLSearchParams(step.setup.page).has('experiment');
  const runButton = runsExperiment ? 'Run experiment' : step.setup.runs.length > 1 ? `Start ${step.setup.runs.length} runs` : 'Start';
  const goTo = (i: number) => onProgress((p) => ({ ...p, step: i }));
  const [confirmClear, setConfirmClear] = useState(false);

  const save = (kind: 'md' | 'json') => {
    const h = handIn(lab, progress, new Date(), link);
    if (kind === 'md') download(handInMarkdown(h), handInFileName(h, 'md'), 'text/markdown');
    else download(handInJson(h), handInFileName(h, 'json'), 'application/json');
  };

  return (
    <section className="lab" aria-labelledby={`${ids}-title`} data-testid="lab" data-lab={lab.id}>
      <p className="lab-kicker">Lab · about {lab.minutes} minutes</p>
      <h2 id={`${ids}-title`} className="lab-title">
        {lab.title}
      </h2>
      <p className="lab-goal">
        <strong>Goal:</strong> {lab.goal}
      </p>
      {lab.background.length > 0 && (
        <details className="lab-background" open={index === 0 && t.met === 0}>
          <summary>Background</summary>
          {lab.background.map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </details>
      )}
      {lab.seed !== null && (
        <p className="lab-seed" data-testid="lab-seed" data-seed={lab.seed}>
          Your numbers come from seed <strong>{lab.seed}</strong> (
          {Object.entries(lab.parameters)
            .map(([k, v]) => `${k} = ${v}`)
            .join(', ')}
          ): this lab’s link keeps it, so your teacher sees the same runs.
        </p>
      )}
      <label className="field lab-student">
        <span className="field-label">Your name</span>
        <input
          type="text"
          value={progress.student}
          autoComplete="name"
          onChange={(e) => {
            const student = e.target.value;
            onProgress((p) => ({ ...p, student }));
          }}
          data-testid="lab-student"
        />
      </label>

      <nav aria-label="Steps of the lab">
        <ol className="lab-steps">
          {lab.steps.map((s, i) => {
            const done = s.checkpoints.every((c) => progress.met[c.id]);
            return (
              <li key={s.id}>
                <button
                  type="button"
                  className={i === index ? 'lab-step-link current' : 'lab-step-link'}
                  aria-current={i === index ? 'step' : undefined}
                  onClick={() => goTo(i)}
                  data-testid={`lab-step-${i + 1}`}
                >
                  <span className="lab-step-n">{i + 1}</span> {s.title}
                  {done && <span className="lab-done">✓ done</span>}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      <div className="lab-step" data-testid="lab-step" data-step={index + 1}>
        <h3>
          Step {index + 1} of {lab.steps.length}: {step.title}
        </h3>
        <p>{step.do}</p>
        {predicts.length > 0 && (
          <div className="lab-predicts" data-testid="lab-predicts">
            <h4>Predict first</h4>
            {predicts.map((c) => (
              <LabPredict
                key={c.id}
                checkpoint={c}
                prediction={progress.predictions[c.id]}
                canLock={!started}
                onLock={(value) =>
                  onProgress((p) => ({ ...p, predictions: { ...p.predictions, [c.id]: { value, at: new Date().toISOString() } } }))
                }
              />
            ))}
          </div>
        )}
        <div className="lab-setup">
          <button
            type="button"
            className={live ? '' : 'primary'}
            disabled={setupBlocked !== null}
            onClick={() => onSetUp(index)}
            data-testid="lab-setup"
          >
            {live ? `Set up step ${index + 1} again` : `Set up step ${index + 1}`}
          </button>
          <p className="hint" data-testid="lab-setup-hint">
            {setupBlocked ??
              (live
                ? `Set up: ${step.setup.runs.length === 1 ? 'the run is' : `${step.setup.runs.length} runs are`} on the page. Now press “${runButton}” above the chart.`
                : `Puts this step’s ${step.setup.runs.length === 1 ? 'run' : `${step.setup.runs.length} runs`} on the page, replacing what is there.`)}
          </p>
          {live && setupProblems.length > 0 && (
            <ul className="field-error" role="alert" data-testid="lab-setup-problems">
              {setupProblems.map((m, i) => (
                <li key={i}>{m}</li>
              ))}
            </ul>
          )}
        </div>

        <h4>Look for</h4>
        <ul className="lab-observe">
          {step.observe.map((o, i) => (
            <li key={i}>{o}</li>
          ))}
        </ul>

        <h4>Checkpoints</h4>
        <ul className="lab-checks" data-testid="lab-checks">
          {step.checkpoints.map((c, i) => (
            <li key={c.id} className={`lab-check ${checks[i].status}`} data-testid={`lab-check-${c.id}`} data-status={checks[i].status}>
              <span className="lab-check-mark" aria-hidden="true">
                {checks[i].status === 'met' ? '✓' : checks[i].status === 'not-met' ? '✗' : '…'}
              </span>
              <span>
                <span className="sr-only">{STATUS_WORDS[checks[i].status]}: </span>
                {c.text}
                <span className="lab-check-detail" data-testid={`lab-check-${c.id}-detail`}>
                  {checks[i].detail}
                </span>
              </span>
            </li>
          ))}
        </ul>
        <p className="sr-only" aria-live="polite">
          {announce}
        </p>

        {step.questions.length > 0 && <h4>Questions</h4>}
        {step.questions.map((q, i) => (
          <div className="lab-question" key={q.id}>
            <label htmlFor={`${ids}-${q.id}`}>
              {index + 1}.{i + 1} {q.text}
            </label>
            <textarea
              id={`${ids}-${q.id}`}
              rows={3}
              value={progress.answers[q.id] ?? ''}
              onChange={(e) => {
                const text = e.target.value;
                onProgress((p) => ({ ...p, answers: { ...p.answers, [q.id]: text } }));
              }}
              data-testid={`lab-answer-${q.id}`}
            />
            {progress.showKey && (
              <p className="lab-key" data-testid={`lab-key-${q.id}`}>
                <strong>Answer key:</strong> {q.answer}
              </p>
            )}
          </div>
        ))}

        <div className="lab-nav">
          <button type="button" disabled={index === 0} onClick={() => goTo(index - 1)} data-testid="lab-prev">
            Previous step
          </button>
          <button type="button" disabled={index === lab.steps.length - 1} onClick={() => goTo(index + 1)} data-testid="lab-next">
            Next step
          </button>
        </div>
      </div>

      <div className="lab-tools">
        <p className="lab-tally" data-testid="lab-tally">
          {t.met} of {t.checkpoints} checkpoints met · {t.answered} of {t.questions} questions answered
        </p>
        <div className="lab-buttons">
          <button type="button" onClick={() => save('md')} data-testid="lab-save-md">
            Save answers (Markdown)
          </button>
          <button type="button" onClick={() => save('json')} data-testid="lab-save-json">
            Save answers (JSON)
          </button>
          <button type="button" onClick={() => window.print()} data-testid="lab-print">
            Print worksheet
          </button>
        </div>
        <label className="lab-key-toggle">
          <input
            type="checkbox"
            checked={progress.showKey}
            onChange={(e) => {
              const showKey = e.target.checked;
              onProgress((p) => ({ ...p, showKey }));
            }}
            data-testid="lab-key-toggle"
          />
          Show the answer key (for teachers; printed only when shown)
        </label>
        <div className="lab-buttons">
          {confirmClear ? (
            <>
              <span className="hint">Clear every answer and checkpoint of this lab?</span>
              <button
                type="button"
                onClick={() => {
                  onProgress((p) => ({ ...NO_PROGRESS, student: p.student, seed: p.seed }));
                  setConfirmClear(false);
                }}
                data-testid="lab-clear-yes"
              >
                Yes, start over
              </button>
              <button type="button" onClick={() => setConfirmClear(false)}>
                Keep them
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirmClear(true)} data-testid="lab-clear">
              Start over
            </button>
          )}
          <button type="button" onClick={onClose} data-testid="lab-close">
            Close the lab
          </button>
        </div>
      </div>
    </section>
  );
}

/** On a narrow screen the lab follows the chart: a line at the top says where the class is and leads there. */
export function LabBar({ lab, progress }: { lab: Lab; progress: LabProgress }) {
  const t = tally(lab, progress);
  return (
    <p className="lab-bar" data-testid="lab-bar">
      <span>
        <strong>Lab:</strong> {lab.title} · step {Math.min(progress.step, lab.steps.length - 1) + 1} of {lab.steps.length} · {t.met} of{' '}
        {t.checkpoints} checkpoints met
      </span>{' '}
      <a href="#settings">Go to the lab</a>
    </p>
  );
}
