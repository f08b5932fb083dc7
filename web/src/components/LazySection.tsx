// A view under the chart that is drawn (and its code fetched) only once opened, so the first
// load stays small and closed views cost nothing while a run streams.

import { Suspense, useState, type ReactNode } from 'react';

export function LazySection(props: { title: string; hint: string; testId: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="section view-section" onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={props.testId}>
      <summary>
        <span className="section-title">{props.title}</span>
        <span className="section-hint">{props.hint}</span>
      </summary>
      {open && (
        <div className="section-body">
          <Suspense fallback={<p className="hint">Loading…</p>}>{props.children}</Suspense>
        </div>
      )}
    </details>
  );
}
