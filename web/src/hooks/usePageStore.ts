// The page's store as React state: one store for the component's life, read through its snapshot.

import { useEffect, useState, useSyncExternalStore } from 'react';
import { PageStore, type StoreOptions } from '../store/store';
import type { PageState } from '../store/state';

/**
 * `load`: whether to load the engine yet (the app waits until it has drawn itself); `init` puts
 * the first runs on the new store, before its first snapshot is read.
 */
export function usePageStore(
  options: StoreOptions,
  load = true,
  init?: (store: PageStore) => void,
): { store: PageStore; state: PageState } {
  const [store] = useState(() => {
    const s = new PageStore(options);
    init?.(s);
    return s;
  });
  useEffect(() => () => store.dispose(), [store]);
  useEffect(() => {
    if (load) store.open();
  }, [store, load]);
  const state = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return { store, state };
}
