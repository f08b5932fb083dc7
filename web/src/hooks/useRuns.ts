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

/** A chart height that leaves room for the run controls in a short window (a phone, an embed). */
export function useChartHeight(max = 400, min = 240): number {
  const pick = () => Math.round(Math.min(max, Math.max(min, window.innerHeight * 0.5)));
  const [h, setH] = useState(pick);
  useEffect(() => {
    const on = () => setH(pick());
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}

/** Whether a media query matches, following changes (e.g. a phone turned sideways). */
export function useMediaQuery(query: string): boolean {
  const [match, setMatch] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = () => setMatch(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return match;
}
