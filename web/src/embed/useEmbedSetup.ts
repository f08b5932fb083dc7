// The embed's setup over the page store: its runs and experiment are the store's, its names are
// checked against the engine once it is known (the embed is "ready" then), and a new setup (the
// reader's pickers, a host page's `config`) starts the chart over unless only its view changed.

import { useCallback, useEffect, useRef, useState } from 'react';
import { CHART_KEYS } from '../store/state';
import type { PageStore } from '../store/store';
import { checkEmbed, setupRuns, type EmbedSetup, type ParsedEmbed } from './embedState';

/** The setup's runs and experiment without the chart's view (which changes no run). */
function runsKey(setup: EmbedSetup): string {
  const viewless = setupRuns(setup).map((s) =>
    Object.fromEntries(Object.entries(s).filter(([k]) => !(CHART_KEYS as readonly string[]).includes(k))),
  );
  return JSON.stringify([viewless, setup.experiment]);
}

/** Puts a setup's runs and experiment on the store (every result is cleared). */
export function putSetup(store: PageStore, setup: EmbedSetup): void {
  store.setRuns(setupRuns(setup), 0, setup.experiment);
}

export function useEmbedSetup(store: PageStore, initial: ParsedEmbed) {
  const [setup, setSetup] = useState<EmbedSetup>(initial.setup);
  /** The setup as last applied, for commands between renders (a host's messages come in bursts). */
  const current = useRef(setup);
  const [urlErrors, setUrlErrors] = useState<string[]>(initial.errors);
  const [ready, setReady] = useState(false);

  // Once the engine says what it knows, the names in the URL are checked; then the embed is ready.
  useEffect(() => {
    let live = true;
    void store.catalogReady().then((catalog) => {
      if (!live) return;
      const checked = checkEmbed(current.current, catalog);
      if (checked.errors.length > 0) {
        current.current = checked.setup;
        setSetup(checked.setup);
        putSetup(store, checked.setup);
        setUrlErrors((e) => [...e, ...checked.errors]);
      }
      setReady(true);
    });
    return () => {
      live = false;
    };
  }, [store]);

  /** A new setup: the runs start over if they (or the experiment) changed, else the view changes. */
  const applySetup = useCallback(
    (next: EmbedSetup) => {
      const changed = runsKey(next) !== runsKey(current.current);
      current.current = next;
      setSetup(next);
      if (changed) putSetup(store, next);
      else store.edit(Object.fromEntries(CHART_KEYS.map((k) => [k, next.settings[k]])));
    },
    [store],
  );

  return { setup, current, ready, urlErrors, clearUrlErrors: useCallback(() => setUrlErrors([]), []), applySetup };
}
