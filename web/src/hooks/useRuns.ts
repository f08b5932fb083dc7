// The page's runs as React state: one RunSet for the page's life, read through a snapshot that
// changes when a run's state or latest numbers do (not with every sample).

import { useEffect, useState, useSyncExternalStore } from 'react';
import { RunSet, type RunsSnapshot } from '../engine/runs';

export function useRuns<S>(): { runs: RunSet<S>; snap: RunsSnapshot<S> } {
  const [runs] = useState(() => new RunSet<S>());
  useEffect(() => {
    runs.open();
    return () => runs.dispose();
  }, [runs]);
  const snap = useSyncExternalStore(runs.subscribe, runs.snapshot);
  return { runs, snap };
}
