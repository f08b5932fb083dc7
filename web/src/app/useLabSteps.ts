// The open lab, the app's other addition on top of the store: its steps put runs on the page as a
// link would, and its checkpoints read their results.

import { useCallback, useEffect, useRef, useState } from 'react';
import { setupSearch, useLab } from '../hooks/useLab';
import { LAB_KEY, LAB_SEED_KEY } from '../settings/pageDefaults';

/** The lab a link opens (`?lab=ID&lab_seed=N`), and whether the link has nothing else (a bare lab link). */
function labOfLink(): { id: string | null; seed: string | null; bare: boolean } {
  const q = new URLSearchParams(window.location.search);
  return { id: q.get(LAB_KEY), seed: q.get(LAB_SEED_KEY), bare: [...q.keys()].every((k) => k === LAB_KEY || k === LAB_SEED_KEY) };
}

export function useLabSteps(applyLink: (search: string) => string[], engineReady: boolean) {
  const [link] = useState(labOfLink);
  const [labId, setLabId] = useState(link.id);
  const labState = useLab(labId, labId === link.id ? link.seed : null);
  const { lab, update } = labState;
  const [asideTab, setAsideTab] = useState<'lab' | 'settings'>('lab');
  const [setupProblems, setSetupProblems] = useState<string[]>([]);

  const setUpStep = useCallback(
    (step: number) => {
      if (!lab) return;
      setSetupProblems(applyLink(setupSearch(lab.steps[step].setup)));
      update((p) => ({ ...p, step, setUp: step }));
    },
    [lab, applyLink, update],
  );

  // A lab opened by a bare link (?lab=ID) sets up the step it is at, once the engine is ready; a
  // link with settings (a reload) keeps them.
  const autoSetUp = useRef(link.bare);
  const step = labState.progress.step;
  useEffect(() => {
    if (!lab || !engineReady || !autoSetUp.current) return;
    autoSetUp.current = false;
    setUpStep(step);
  }, [lab, engineReady, setUpStep, step]);

  const close = useCallback(() => {
    setLabId(null);
    setAsideTab('settings');
  }, []);
  // A seeded lab's link carries its seed, so a teacher opening it sees the student's numbers.
  const seed = lab?.seed ?? null;
  const labSearch = labId ? `?${LAB_KEY}=${encodeURIComponent(labId)}${seed === null ? '' : `&${LAB_SEED_KEY}=${seed}`}` : '';
  const labLink = labId ? `${window.location.origin}${window.location.pathname}${labSearch}` : '';

  return { labId, labState, asideTab, setAsideTab, setupProblems, setUpStep, close, labSearch, labLink };
}
