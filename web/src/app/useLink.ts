// The app's link, its addition on top of the store: the URL's runs and experiment become the
// page's at load, their names are checked against the engine once it has said what it knows,
// every change is written back to the URL (so the page can be shared), and a lab step's link
// replaces the page's runs.

import { useCallback, useEffect, useState } from 'react';
import type { Catalog } from '../engine/runs';
import { checkExperiment, experimentSearch, joinSearch, parseExperiment } from '../settings/experimentState';
import { DEFAULTS, VOCABULARY } from '../settings/pageDefaults';
import { checkAgainstEngine, linkSearch, parseLink, type RunSettings } from '../settings/urlState';
import type { PageStore } from '../store/store';
import type { PageState } from '../store/state';

/** A link's runs and experiment, checked against the engine when it is known. */
function readLink(search: string, catalog: Catalog | null) {
  const parsed = parseLink(search, DEFAULTS, VOCABULARY);
  const exp = parseExperiment(search);
  const errors = [...parsed.errors, ...exp.errors];
  const checked = catalog ? checkLink([parsed.settings, ...parsed.compare], exp.settings, catalog) : null;
  return {
    runs: checked?.runs ?? [parsed.settings, ...parsed.compare],
    edit: parsed.edit,
    experiment: checked?.experiment ?? exp.settings,
    errors: [...errors, ...(checked?.errors ?? [])],
  };
}

/** Unknown drive, workload and experiment names replaced, and each named. */
function checkLink(runs: readonly RunSettings[], experiment: ReturnType<typeof parseExperiment>['settings'], catalog: Catalog) {
  const errors: string[] = [];
  const checked = runs.map((s, i) => {
    const c = checkAgainstEngine(s, DEFAULTS, catalog);
    errors.push(...c.errors.map((e) => (i === 0 ? e : `compare (run ${i + 1}) ${e}`)));
    return c.settings;
  });
  const exp = checkExperiment(experiment, catalog.experiments);
  return { runs: checked, experiment: exp.settings, errors: [...errors, ...exp.errors] };
}

/** Puts the URL's runs on a new store (its initializer: before the first render). */
export function seedFromUrl(store: PageStore): void {
  const link = readLink(window.location.search, null);
  store.setRuns(link.runs, link.edit, link.experiment);
}

/** The search string for the page as it is (`labSearch`: the open lab's `?lab=ID`, kept first). */
function pageSearch(state: PageState, labSearch: string): string {
  const sims = state.runs.filter((r) => r.kind === 'sim' && r.setup !== null);
  if (sims.length === 0) return window.location.search;
  const edit = Math.max(
    0,
    sims.findIndex((r) => r.id === state.focusId),
  );
  const [first, ...rest] = sims.map((r) => r.setup!);
  return joinSearch(
    joinSearch(labSearch, new URLSearchParams(linkSearch({ ...first, ...state.chart }, rest, DEFAULTS, edit))),
    experimentSearch(state.experiment),
  );
}

/** Keeps the URL in step with every run's settings, the chart's view and the experiment. */
export function useUrlWriter(state: PageState, labSearch: string): void {
  const search = pageSearch(state, labSearch);
  useEffect(() => {
    if (search === window.location.search) return;
    // Not in the task of the click that changed a setting: replacing the URL takes a few ms.
    const timer = window.setTimeout(() =>
      window.history.replaceState(null, '', `${window.location.pathname}${search}${window.location.hash}`),
    );
    return () => window.clearTimeout(timer);
  }, [search]);
}

export function useLink(store: PageStore) {
  const [urlErrors, setUrlErrors] = useState<string[]>(() => readLink(window.location.search, null).errors);

  // Once the engine says what it knows, the link's names are checked (once).
  useEffect(() => {
    let current = true;
    void store.catalogReady().then((catalog) => {
      if (!current) return;
      const s = store.getSnapshot();
      const sims = s.runs.filter((r) => r.kind === 'sim' && r.setup !== null);
      const checked = checkLink(
        sims.map((r) => r.setup!),
        s.experiment,
        catalog,
      );
      sims.forEach((r, i) => store.replaceSetup(r.id, checked.runs[i]));
      if (checked.experiment !== s.experiment) store.setExperiment(checked.experiment);
      if (checked.errors.length > 0) setUrlErrors((e) => [...e, ...checked.errors]);
    });
    return () => {
      current = false;
    };
  }, [store]);

  /** Replaces the page's runs and experiment with a link's; returns what it could not use. */
  const applyLink = useCallback(
    (linkSearchText: string): string[] => {
      const link = readLink(linkSearchText, store.getSnapshot().catalog);
      store.setRuns(link.runs, link.edit, link.experiment);
      return link.errors;
    },
    [store],
  );

  return { urlErrors, clearUrlErrors: useCallback(() => setUrlErrors([]), []), applyLink };
}
