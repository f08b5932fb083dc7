// The lab as a printed worksheet: every step with what to do, what to look for, checkpoints to
// tick and room for the answers (or the student's answers, when they have written them). The
// answer key is printed only while it is shown on screen. Hidden on screen; the print
// stylesheet shows it alone.

import type { LabProgress } from '../labs/progress';
import type { Lab } from '../labs/schema';

export function LabWorksheet({ lab, progress, link }: { lab: Lab; progress: LabProgress; link: string }) {
  return (
    <article className="lab-worksheet" data-testid="lab-worksheet">
      <header>
        <p className="ws-kicker">SSD Lab · lab worksheet · about {lab.minutes} minutes</p>
        <h1>{lab.title}</h1>
        <p className="ws-fill">
          Name: <span className="ws-line">{progress.student}</span> Date: <span className="ws-line short" />
        </p>
        <p>
          <strong>Goal:</strong> {lab.goal}
        </p>
        {lab.background.map((p, i) => (
          <p key={i}>{p}</p>
        ))}
        <p className="ws-link">
          Open the lab at <code>{link}</code>; each step’s <em>Set up</em> button puts its runs on the page.
          {lab.seed !== null && ` Seed ${lab.seed}.`}
        </p>
      </header>
      {lab.steps.map((s, i) => (
        <section key={s.id} className="ws-step">
          <h2>
            Step {i + 1}: {s.title}
          </h2>
          <p>{s.do}</p>
          <h3>Look for</h3>
          <ul>
            {s.observe.map((o, j) => (
              <li key={j}>{o}</li>
            ))}
          </ul>
          <h3>Checkpoints</h3>
          <ul className="ws-checks">
            {s.checkpoints.map((c) => {
              const met = progress.met[c.id];
              const predicted = progress.predictions[c.id]?.value;
              return (
                <li key={c.id}>
                  <span className="ws-box">{met ? '☑' : '☐'}</span> {c.text}
                  {c.check.kind === 'predict' && !met && (
                    <span className="ws-measured">
                      {' '}
                      My prediction: {predicted ?? <span className="ws-line short" />} {'answer' in c.check ? c.check.unit : ''}
                    </span>
                  )}
                  {met && <span className="ws-measured"> ({met.detail})</span>}
                </li>
              );
            })}
          </ul>
          {s.questions.length > 0 && <h3>Questions</h3>}
          {s.questions.map((q, j) => {
            const answer = (progress.answers[q.id] ?? '').trim();
            return (
              <div key={q.id} className="ws-question">
                <p className="ws-q">
                  {i + 1}.{j + 1} {q.text}
                </p>
                {answer ? <p className="ws-answer">{answer}</p> : <div className="ws-blank" />}
                {progress.showKey && (
                  <p className="ws-key">
                    <strong>Answer key:</strong> {q.answer}
                  </p>
                )}
              </div>
            );
          })}
        </section>
      ))}
    </article>
  );
}
