// The page's runs as React state: one RunSet for the page's life, read through a snapshot that
// changes when a run's state or latest numbers do (not with every sample).

import { useEffect, useState, useSyncExternalStore } from 'react';
import { createEngineWorker } from '../engine/client';
import { RunSet, type RunsSnapshot } from '../engine/runs';

/**
 * `catalogFromRuns`: one worker per run and none besides (see RunSet). `load`: whether to load
 * the engine yet (the page waits until it has drawn itself: the worker's start competes with the
 * first layout for the CPU).
 */
export function useRuns<S>(catalogFromRuns = false, load = true): { runs: RunSet<S>; snap: RunsSnapshot<S> } {
  const [runs] = useState(() => new RunSet<S>(createEngineWorker, undefined, catalogFromRuns));
  useEffect(() => () => runs.dispose(), [runs]);
  useEffect(() => {
    if (load) runs.open();
  }, [runs, load]);
  const snap = useSyncExternalStore(runs.subscribe, runs.snapshot);
  return { runs, snap };
}
