// An embed runs only while it can be seen: its runs pause when it scrolls out of view and resume
// when it is back (unless the reader or the host page paused them meanwhile), and with autoplay
// the first start waits until it is in view.

import { useCallback, useEffect, useRef } from 'react';
import type { PageActivity } from '../store/selectors';
import type { PageStore } from '../store/store';

export function usePlayWhenSeen(store: PageStore, o: { visible: boolean; activity: PageActivity; ready: boolean; autoplay: boolean }) {
  const { visible, activity, ready, autoplay } = o;
  /** Runs paused because the embed went off screen (they resume when it is back). */
  const pausedOffscreen = useRef(false);
  const running = activity === 'running';
  const paused = activity === 'paused';

  useEffect(() => {
    if (!visible && running) {
      pausedOffscreen.current = true;
      store.pause();
    } else if (visible && paused && pausedOffscreen.current) {
      pausedOffscreen.current = false;
      store.resume();
    }
  }, [visible, running, paused, store]);

  const autoplayed = useRef(false);
  useEffect(() => {
    if (!ready || !visible || !autoplay || autoplayed.current) return;
    autoplayed.current = true;
    void store.start();
  }, [ready, visible, autoplay, store]);

  /** A command from the reader or the host page: what it does stands, off screen or not. */
  return useCallback(() => {
    pausedOffscreen.current = false;
  }, []);
}
