// The embed's conversation with its host page: each message maps to the store command the
// embed's own button sends (messages.ts names them), and what the page shows goes back as events:
// ready, state, progress, every second or row as a sample, errors (once each) and height.

import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import type { PageActivity } from '../store/selectors';
import type { PageState } from '../store/state';
import type { PageStore } from '../store/store';
import type { HostBridge } from './bridge';
import { applyConfig, embedSearch, type EmbedSetup } from './embedState';
import type { HostMessage } from './messages';

/** "drive: unknown drive ..." -> the key and the rest, for an error event. */
export function splitError(text: string): { field: string; message: string } {
  const at = text.indexOf(': ');
  return at > 0 ? { field: text.slice(0, at), message: text.slice(at + 2) } : { field: 'setup', message: text };
}

export interface BridgeContext {
  bridge: HostBridge;
  store: PageStore;
  state: PageState;
  activity: PageActivity;
  visible: boolean;
  ready: boolean;
  urlErrors: readonly string[];
  /** The setup as last applied (read when a message arrives). */
  setup: RefObject<EmbedSetup>;
  applySetup(next: EmbedSetup): void;
  /** A command from the host page or the reader: runs paused off screen stay as they are now. */
  commanded(): void;
  root: RefObject<HTMLElement | null>;
}

/** Sends one host message's command to the store; a refused one is told to the host page. */
function dispatch(m: HostMessage, c: BridgeContext): void {
  const { bridge, store } = c;
  const report = (field: string, message: string) =>
    bridge.post({ type: 'error', field, message, ...(m.ref !== undefined ? { ref: m.ref } : {}) });
  const refused = (r: { field: string; message: string } | null) => r && report(r.field, r.message);
  switch (m.type) {
    case 'hello':
      bridge.post({ type: 'ready', setup: embedSearch(c.setup.current), state: c.activity });
      return;
    case 'config': {
      const catalog = store.getSnapshot().catalog;
      if (!catalog) return;
      const applied = applyConfig(c.setup.current, m.settings, catalog);
      if (applied.errors.length > 0) {
        for (const e of applied.errors) {
          const { field, message } = splitError(e);
          report(field, message);
        }
        return;
      }
      c.applySetup(applied.setup);
      return;
    }
    case 'start':
      c.commanded();
      void store.start().then(refused);
      return;
    case 'pause':
      c.commanded();
      store.pause();
      return;
    case 'resume':
      c.commanded();
      store.resume();
      return;
    case 'step': {
      const r = store.step();
      if (!r) c.commanded();
      refused(r);
      return;
    }
    case 'reset':
      c.commanded();
      store.clear();
      return;
    case 'seek':
      refused(store.seek(m.second));
      return;
  }
}

export function useHostBridge(c: BridgeContext): void {
  const { bridge, store, state, ready, activity, visible } = c;
  const context = useRef(c);
  useLayoutEffect(() => {
    context.current = c;
  });

  // Ready: answer messages (those that came early first), and say what the URL got wrong (once:
  // the URL does not change, and its names were checked against the engine before `ready`).
  useEffect(() => {
    if (!ready) return;
    const now = context.current;
    bridge.post({ type: 'ready', setup: embedSearch(now.setup.current), state: now.activity });
    for (const e of now.urlErrors) bridge.post({ type: 'error', ...splitError(e) });
    bridge.open((m) => dispatch(m, context.current));
    return () => bridge.hold();
  }, [ready, bridge]);

  useEffect(() => {
    if (ready) bridge.post({ type: 'state', state: activity, visible });
  }, [ready, activity, visible, bridge]);

  // Each live run's progress, and each experiment's rows as samples and its points as progress.
  const expMode = state.experiment.id !== null;
  const sims = state.runs.filter((r) => r.kind === 'sim' && r.setup !== null);
  const posted = useRef(new Map<number, number>());
  const rowsSent = useRef(new Map<number, number>());
  useEffect(() => {
    if (!ready) return;
    sims.forEach((r, i) => {
      if (!expMode) {
        if (!r.ran) posted.current.delete(r.id);
        if (!r.ran || posted.current.get(r.id) === r.secondsDone) return;
        posted.current.set(r.id, r.secondsDone);
        bridge.post({ type: 'progress', run: i + 1, done: r.secondsDone, total: r.ran.config.seconds, unit: 'second' });
        return;
      }
      const e = state.experiments.get(r.id);
      if (!e?.table) return;
      const sent = rowsSent.current.get(e.key) ?? 0;
      const rows = e.table.rows;
      for (let k = sent > rows.length ? 0 : sent; k < rows.length; k++) {
        const values = Object.fromEntries(e.table.columns.map((col, j) => [col, rows[k][j]]));
        bridge.post({ type: 'sample', run: i + 1, point: k, values });
      }
      if (rows.length !== sent) {
        rowsSent.current.set(e.key, rows.length);
        if (e.progress)
          bridge.post({ type: 'progress', run: i + 1, done: e.progress.points_done, total: e.progress.points, unit: 'point' });
      }
    });
  });

  // Every second of every live run as a sample event, read from the run's store as it fills.
  const storesKey = sims.map((r) => r.id).join(',');
  useEffect(() => {
    if (!ready || !bridge.connected) return;
    const list = store.getSnapshot().runs.filter((r) => r.kind === 'sim');
    const unsubscribes = list.map((r, i) => {
      let sent = r.store.length;
      const columns = r.store;
      const flush = () => {
        if (columns.length < sent) sent = 0;
        if (!columns.has('second')) return;
        const fields = columns.fields;
        const data = fields.map((f) => columns.column(f));
        for (; sent < columns.length; sent++) {
          const values: Record<string, number> = {};
          fields.forEach((f, k) => (values[f] = data[k][sent]));
          bridge.post({ type: 'sample', run: i + 1, second: values.second, values });
        }
      };
      return columns.subscribe(flush);
    });
    return () => unsubscribes.forEach((u) => u());
  }, [ready, storesKey, store, bridge]);

  // Engine errors, once each.
  const errors = [
    ...sims.filter((r) => r.error).map((r) => r.error!),
    ...sims.flatMap((r) => {
      const e = state.experiments.get(r.id)?.error;
      return e ? [e] : [];
    }),
  ];
  const errorsKey = errors.map((e) => `${e.field ?? ''}\u0000${e.message}`).join('\u0001');
  const errorsPosted = useRef(new Set<string>());
  useEffect(() => {
    if (!ready) return;
    const now = new Set(errorsKey ? errorsKey.split('\u0001') : []);
    for (const e of now) {
      if (errorsPosted.current.has(e)) continue;
      const [field, message] = e.split('\u0000');
      bridge.post({ type: 'error', field: field || 'engine', message });
    }
    errorsPosted.current = now;
  }, [ready, errorsKey, bridge]);

  // The content's height, so the host page can size the frame to it.
  const root = c.root;
  useLayoutEffect(() => {
    const el = root.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let last = 0;
    const ro = new ResizeObserver(() => {
      const height = Math.ceil(el.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        bridge.post({ type: 'height', height });
      }
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [bridge, root]);
}
