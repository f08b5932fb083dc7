// "Why was this second slow?": the picked second of the run being edited, told in plain words
// (explain/second.ts), with every value of that second in a table.

import { useEffect, useRef } from 'react';
import type { ColumnStore } from '../data/columns';
import { explainSecond } from '../explain/second';

export interface WhyPanelProps {
  store: ColumnStore;
  /** Re-read when this changes (the store grows in place). */
  version: number;
  second: number;
  runName: string;
  parameters: Readonly<Record<string, unknown>>;
  onClose(): void;
  onMove(second: number): void;
}

export function WhyPanel(props: WhyPanelProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Take focus when opened from the chart, so a keyboard or screen-reader user lands on the answer.
  useEffect(() => {
    const h = heading.current;
    if (!h) return;
    h.focus({ preventScroll: true });
    h.scrollIntoView({ block: 'nearest' });
  }, [props.second]);
  const story = explainSecond(props.store, props.second, { parameters: props.parameters });
  return (
    <section className="why" aria-labelledby="why-title" data-testid="why-panel">
      <div className="why-head">
        <h3 id="why-title" ref={heading} tabIndex={-1}>
          Why was second {props.second} like this? <span className="why-run">{props.runName}</span>
        </h3>
        <div className="why-nav">
          <button type="button" className="link" onClick={() => props.onMove(props.second - 1)} data-testid="why-previous">
            <span aria-hidden="true">← </span>Second {props.second - 1}
          </button>
          <button type="button" className="link" onClick={() => props.onMove(props.second + 1)} data-testid="why-next">
            Second {props.second + 1}
            <span aria-hidden="true"> →</span>
          </button>
          <button type="button" className="dismiss" onClick={props.onClose} aria-label="Close the explanation">
            ×
          </button>
        </div>
      </div>
      {story ? (
        <>
          <p className="why-headline" data-testid="why-headline">
            {story.headline}
          </p>
          <ul className="why-findings">
            {story.findings.map((f, i) => (
              <li key={i} className={`finding finding-${f.kind}`}>
                <span className="finding-kind">{f.kind === 'cause' ? 'Cause' : f.kind === 'state' ? 'Drive state' : 'Note'}</span>
                {f.text}
              </li>
            ))}
          </ul>
          <details className="why-values">
            <summary>Every value of this second</summary>
            <table>
              <tbody>
                {story.values.map((v) => (
                  <tr key={v.field}>
                    <th scope="row">
                      {v.label} <code>{v.field}</code>
                    </th>
                    <td>{v.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      ) : (
        <p>Second {props.second} has not been simulated in this run.</p>
      )}
    </section>
  );
}
