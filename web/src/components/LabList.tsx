// The labs a class can open (labs/index.json lists their ids; each lab file gives its title),
// each a link to ?lab=ID with how far this browser has got in it. A modal dialog opened from
// the header. A lab file that cannot be read is listed with the reason.

import { useEffect, useRef, useState } from 'react';
import { fetchLab, fetchLabIndex, labStore } from '../hooks/useLab';
import { loadProgress, tally } from '../labs/progress';
import type { Lab } from '../labs/schema';
import { LAB_KEY } from '../settings/pageDefaults';

type Entry = { id: string; lab: Lab } | { id: string; error: string };

/** "3 of 9 checkpoints met" from the progress this browser keeps, or null before the lab is started. */
function savedProgress(lab: Lab): string | null {
  const t = tally(lab, loadProgress(lab, labStore()));
  return t.met + t.answered === 0 ? null : `${t.met} of ${t.checkpoints} checkpoints met`;
}

export function LabList({ open, onClose, current }: { open: boolean; onClose(): void; current: string | null }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [entries, setEntries] = useState<{ list: Entry[]; error: string | null } | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      void fetchLabIndex().then(async (index) => {
        // Listed by title and summary: any seed of a seeded lab will do.
        const list = await Promise.all(index.ids.map(async (id): Promise<Entry> => ({ id, ...(await fetchLab(id, 0)) })));
        setEntries({ list, error: index.error });
      });
    }
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="lab-list" aria-labelledby="lab-list-title" onClose={onClose} data-testid="lab-list">
      <div className="lab-list-head">
        <h2 id="lab-list-title">Labs</h2>
        <button type="button" onClick={onClose} aria-label="Close the list of labs" data-testid="lab-list-close">
          ×
        </button>
      </div>
      <p className="hint">
        Guided experiments with questions and checkpoints that read the simulator’s results. Answers stay in this browser; save them as a
        file to hand in.
      </p>
      {entries === null && <p className="hint">Loading the labs…</p>}
      {entries?.error && (
        <p className="field-error" role="alert">
          {entries.error}
        </p>
      )}
      <ul>
        {entries?.list.map((e) =>
          'lab' in e ? (
            <li key={e.id}>
              <a
                href={`?${LAB_KEY}=${encodeURIComponent(e.id)}`}
                aria-current={e.id === current ? 'page' : undefined}
                data-testid={`lab-link-${e.id}`}
              >
                {e.lab.title}
              </a>
              <span className="lab-list-meta">
                {' '}
                · about {e.lab.minutes} min · {e.lab.steps.length} {e.lab.steps.length === 1 ? 'step' : 'steps'}
                {savedProgress(e.lab) ? ` · ${savedProgress(e.lab)}` : ''}
              </span>
              <p className="hint">{e.lab.summary}</p>
            </li>
          ) : (
            <li key={e.id} className="field-error">
              {e.error}
            </li>
          ),
        )}
      </ul>
    </dialog>
  );
}
