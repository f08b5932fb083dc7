// The open lab: its file fetched from labs/ID.json (beside the page, so any sub-path works) and
// checked, and the student's progress, kept in localStorage as it changes.

import { useCallback, useEffect, useState } from 'react';
import { loadProgress, NO_PROGRESS, savedSeed, saveProgress, type KeyValueStore, type LabProgress } from '../labs/progress';
import type { Lab } from '../labs/schema';
import { LAB_KEY, LAB_SEED_KEY } from '../settings/pageDefaults';

/** localStorage, or null where the browser refuses it. */
export function labStore(): KeyValueStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The lab files' checker, fetched with the first lab (most visits open none): it is loaded
 * whenever a `Lab` exists, so `setupSearch` can use it at once.
 */
type Schema = typeof import('../labs/schema');
let schema: Schema | null = null;
async function loadSchema(): Promise<Schema> {
  return (schema ??= await import('../labs/schema'));
}
/** The link of a lab step's setup (`labs/schema`'s `setupSearch`); only once a lab is open. */
export function setupSearch(setup: Lab['steps'][number]['setup']): string {
  if (!schema) throw new Error('setupSearch: no lab has been loaded');
  return schema.setupSearch(setup);
}

function labUrl(file: string): string {
  return new URL(`labs/${file}`, document.baseURI).href;
}

/** The ids listed in labs/index.json, or why they could not be read. */
export async function fetchLabIndex(): Promise<{ ids: string[]; error: string | null }> {
  try {
    const res = await fetch(labUrl('index.json'), { cache: 'no-cache' });
    if (!res.ok) return { ids: [], error: `labs/index.json: the server answered ${res.status}` };
    const { parseLabIndex } = await loadSchema();
    const parsed = parseLabIndex(await res.json());
    return { ids: parsed.ids, error: parsed.errors.length > 0 ? `labs/index.json: ${parsed.errors.join('; ')}` : null };
  } catch (e) {
    return { ids: [], error: `labs/index.json: could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** A lab file, checked and drawn from `seed` when seeded, or why it cannot be opened (naming the file and the field). */
export async function fetchLab(id: string, seed: number): Promise<{ lab: Lab } | { error: string }> {
  const { LAB_ID, parseLab } = await loadSchema();
  if (!LAB_ID.test(id)) return { error: `${LAB_KEY}: must be a lab's name, letters, digits and dashes like cliff (got "${id}")` };
  const file = `labs/${id}.json`;
  let res: Response;
  try {
    res = await fetch(labUrl(`${id}.json`), { cache: 'no-cache' });
  } catch (e) {
    return { error: `${file}: could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
  // A missing file is a 404, or the app's own page on hosts that answer every path with it.
  if (res.status === 404 || (res.ok && (res.headers.get('content-type') ?? '').includes('text/html'))) {
    const index = await fetchLabIndex();
    const known = index.ids.join(', ');
    return { error: `${LAB_KEY}: no lab named "${id}"${known ? ` (known: ${known})` : ''}` };
  }
  if (!res.ok) return { error: `${file}: the server answered ${res.status}` };
  let json: unknown;
  try {
    json = JSON.parse(await res.text());
  } catch (e) {
    return { error: `${file}: is not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const parsed = parseLab(json, id, seed);
  return parsed.errors ? { error: `${file}: ${parsed.errors.join('; ')}` } : { lab: parsed.lab };
}

/** A seeded lab is drawn from the link's seed, else the seed its saved progress belongs to, else a new one. */
async function openLab(id: string, linkSeed: string | null): Promise<{ lab: Lab } | { error: string }> {
  // Fetched with the lab, like its checker: most visits open none.
  const { drawSeed, parseSeed } = await import('../labs/seeds');
  const seed = linkSeed === null ? (savedSeed(id, labStore()) ?? drawSeed()) : parseSeed(linkSeed);
  return typeof seed === 'number' ? fetchLab(id, seed) : { error: `${LAB_SEED_KEY}: ${seed.error}` };
}

export interface LabState {
  lab: Lab | null;
  /** Why the lab could not be opened (naming the file and the field). */
  error: string | null;
  progress: LabProgress;
  update(change: (p: LabProgress) => LabProgress): void;
}

/** The lab `id` (a seeded one drawn as `openLab` says) and the student's progress in it. */
export function useLab(id: string | null, linkSeed: string | null): LabState {
  const [lab, setLab] = useState<Lab | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<LabProgress>(NO_PROGRESS);
  // Another lab (or none): forget the last one while rendering, before its fetch starts.
  const [shownId, setShownId] = useState(id);
  if (id !== shownId) {
    setShownId(id);
    setLab(null);
    setError(null);
  }
  useEffect(() => {
    if (id === null) return;
    let current = true;
    void openLab(id, linkSeed).then((r) => {
      if (!current) return;
      if ('error' in r) {
        setError(r.error);
        return;
      }
      setProgress(loadProgress(r.lab, labStore()));
      setLab(r.lab);
    });
    return () => {
      current = false;
    };
  }, [id, linkSeed]);
  const update = useCallback(
    (change: (p: LabProgress) => LabProgress) => {
      setProgress((old) => {
        const next = change(old);
        if (lab && next !== old) saveProgress(lab.id, next, labStore());
        return next;
      });
    },
    [lab],
  );
  return { lab, error, progress, update };
}
