// The page's handle on the engine: one EngineClient, one ColumnStore of samples, and the small
// bits of state the controls and readout show. Samples go straight into the store (columns);
// only the latest values and the engine state go through React.

import { useEffect, useMemo, useRef, useState } from 'react';
import { ColumnStore } from '../charts/columns';
import { EngineClient } from '../engine/client';
import type { DrivePreset, EngineState, RunSummary, SimConfig } from '../engine/protocol';

export interface Latest {
  secondsDone: number;
  memoryBytes: number;
  /** Values of the last completed second, by field name. */
  last: Record<string, number>;
  /** Simulated seconds per wall-clock second over the last slice. */
  speed: number;
}

export interface EngineHandle {
  state: EngineState;
  presets: readonly DrivePreset[];
  fields: readonly string[];
  store: ColumnStore;
  /** Config of the run whose samples are in the store. */
  run: SimConfig | null;
  latest: Latest;
  summary: RunSummary | null;
  setupMs: number | null;
  error: string | null;
  /** Start was pressed and the worker is erasing and filling the drive (no `started` yet). */
  starting: boolean;
  clearError(): void;
  start(config: SimConfig): void;
  pause(): void;
  resume(): void;
  reset(): void;
}

const EMPTY_LATEST: Latest = { secondsDone: 0, memoryBytes: 0, last: {}, speed: NaN };

export function useEngine(): EngineHandle {
  const store = useMemo(() => new ColumnStore(), []);
  const clientRef = useRef<EngineClient | null>(null);
  /** False after Reset until the next run starts: drops the last slices still in flight. */
  const acceptingRef = useRef(false);
  const [state, setState] = useState<EngineState>('loading');
  const [presets, setPresets] = useState<readonly DrivePreset[]>([]);
  const [fields, setFields] = useState<readonly string[]>([]);
  const [run, setRun] = useState<SimConfig | null>(null);
  const [latest, setLatest] = useState<Latest>(EMPTY_LATEST);
  const [summary, setSummary] = useState<RunSummary | null>(null);
  const [setupMs, setSetupMs] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  useEffect(() => {
    const client = new EngineClient();
    clientRef.current = client;
    const lastRow = () => {
      const last: Record<string, number> = {};
      for (const f of store.fields) last[f] = store.last(f);
      return last;
    };
    const unsubscribe = client.subscribe((msg) => {
      switch (msg.type) {
        case 'ready':
          setPresets(msg.presets);
          setFields(msg.fields);
          store.reset(msg.fields);
          break;
        case 'state':
          setState(msg.state);
          if (msg.state === 'error' || msg.state === 'loading') setStarting(false);
          break;
        case 'started':
          acceptingRef.current = true;
          setStarting(false);
          store.reset(client.fields);
          setRun(msg.config);
          setSummary(null);
          setError(null);
          setSetupMs(msg.setup_ms);
          setLatest({ ...EMPTY_LATEST, memoryBytes: msg.memory_bytes });
          break;
        case 'samples':
          if (!acceptingRef.current) break;
          store.appendColumnMajor(msg.fields, msg.n, new Float64Array(msg.buffer));
          break;
        case 'progress': {
          if (!acceptingRef.current) break;
          const last = lastRow();
          setLatest((old) => {
            const dSim = msg.seconds_done - old.secondsDone;
            const speed = msg.slice_ms > 0 && dSim >= 0 ? (dSim * 1000) / msg.slice_ms : old.speed;
            return { secondsDone: msg.seconds_done, memoryBytes: msg.memory_bytes, last, speed };
          });
          break;
        }
        case 'finished':
          if (!acceptingRef.current) break;
          setSummary(msg.summary);
          break;
        case 'error':
          setError(msg.message);
          setStarting(false);
          break;
      }
    });
    return () => {
      unsubscribe();
      client.dispose();
      clientRef.current = null;
    };
  }, [store]);

  return {
    state,
    presets,
    fields,
    store,
    run,
    latest,
    summary,
    setupMs,
    error,
    starting,
    clearError: () => setError(null),
    start: (config) => {
      setError(null);
      setStarting(true);
      clientRef.current?.start(config);
    },
    pause: () => clientRef.current?.pause(),
    resume: () => clientRef.current?.resume(),
    reset: () => {
      acceptingRef.current = false;
      setStarting(false);
      clientRef.current?.reset();
      store.reset();
      setRun(null);
      setSummary(null);
      setLatest(EMPTY_LATEST);
    },
  };
}
