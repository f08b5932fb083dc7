// The page's handle on the engine: one EngineClient, one ColumnStore of samples, and the small
// bits of state the controls and readout show. Samples go straight into the store (columns);
// only the latest values and the engine state go through React.

import { useEffect, useMemo, useRef, useState } from 'react';
import { ColumnStore } from '../charts/columns';
import { DERIVED_FIELDS, withDerivedColumns, type DeriveContext } from '../charts/derived';
import { EngineClient } from '../engine/client';
import type {
  DrivePreset,
  EngineState,
  PowerCut,
  Problem,
  RunSummary,
  SimConfig,
  WorkloadInfo,
} from '../engine/protocol';

export interface Latest {
  secondsDone: number;
  memoryBytes: number;
  /** Values of the last completed second, by field name. */
  last: Record<string, number>;
  /** Simulated seconds per wall-clock second over the last slice. */
  speed: number;
}

/** The run whose samples are in the store. */
export interface RunInfo {
  config: SimConfig;
  /** Its drive after the request's overrides: path -> value. */
  parameters: Readonly<Record<string, unknown>>;
}

/** An error from the engine; `field` when it names a request field or parameter path. */
export interface EngineError {
  message: string;
  field?: string;
}

export interface EngineHandle {
  state: EngineState;
  presets: readonly DrivePreset[];
  workloads: readonly WorkloadInfo[];
  /** Run-request field -> default, for every field this engine accepts. */
  requestFields: Readonly<Record<string, unknown>>;
  /** Columns in the store: the engine's sample fields and the page's derived ones. */
  fields: readonly string[];
  store: ColumnStore;
  run: RunInfo | null;
  powerCuts: readonly PowerCut[];
  latest: Latest;
  summary: RunSummary | null;
  setupMs: number | null;
  error: EngineError | null;
  /** Start was pressed and the worker is erasing and filling the drive (no `started` yet). */
  starting: boolean;
  clearError(): void;
  start(config: SimConfig): void;
  /** The engine's objection to a request (null: it would run), without running it. */
  check(config: SimConfig): Promise<Problem | null>;
  pause(): void;
  resume(): void;
  reset(): void;
}

const EMPTY_LATEST: Latest = { secondsDone: 0, memoryBytes: 0, last: {}, speed: NaN };

function deriveContext(parameters: Readonly<Record<string, unknown>>): DeriveContext {
  const n = (path: string) => (typeof parameters[path] === 'number' ? (parameters[path] as number) : NaN);
  return { dies: n('geometry.dies'), writeBufferBytes: n('controller.write_buffer_bytes') };
}

export function useEngine(): EngineHandle {
  const store = useMemo(() => new ColumnStore(), []);
  const clientRef = useRef<EngineClient | null>(null);
  /** False after Reset until the next run starts: drops the last slices still in flight. */
  const acceptingRef = useRef(false);
  const [state, setState] = useState<EngineState>('loading');
  const [presets, setPresets] = useState<readonly DrivePreset[]>([]);
  const [workloads, setWorkloads] = useState<readonly WorkloadInfo[]>([]);
  const [requestFields, setRequestFields] = useState<Readonly<Record<string, unknown>>>({});
  const [fields, setFields] = useState<readonly string[]>([]);
  const [run, setRun] = useState<RunInfo | null>(null);
  const [powerCuts, setPowerCuts] = useState<readonly PowerCut[]>([]);
  /** What the derived columns of the running run need (set on `started`). */
  const deriveRef = useRef<DeriveContext>({ dies: NaN, writeBufferBytes: NaN });
  const [latest, setLatest] = useState<Latest>(EMPTY_LATEST);
  const [summary, setSummary] = useState<RunSummary | null>(null);
  const [setupMs, setSetupMs] = useState<number | null>(null);
  const [error, setError] = useState<EngineError | null>(null);
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
        case 'ready': {
          const all = [...msg.fields, ...DERIVED_FIELDS];
          setPresets(msg.presets);
          setWorkloads(msg.workloads);
          setRequestFields(msg.request_fields);
          setFields(all);
          store.reset(all);
          break;
        }
        case 'state':
          setState(msg.state);
          if (msg.state === 'error' || msg.state === 'loading') setStarting(false);
          break;
        case 'started':
          acceptingRef.current = true;
          setStarting(false);
          store.reset([...client.fields, ...DERIVED_FIELDS]);
          deriveRef.current = deriveContext(msg.parameters);
          setRun({ config: msg.config, parameters: msg.parameters });
          setPowerCuts([]);
          setSummary(null);
          setError(null);
          setSetupMs(msg.setup_ms);
          setLatest({ ...EMPTY_LATEST, memoryBytes: msg.memory_bytes });
          break;
        case 'samples': {
          if (!acceptingRef.current) break;
          const batch = withDerivedColumns(msg.fields, msg.n, new Float64Array(msg.buffer), deriveRef.current);
          store.appendColumnMajor(batch.fields, msg.n, batch.data);
          break;
        }
        case 'power_cuts':
          if (acceptingRef.current) setPowerCuts(msg.cuts);
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
          setError({ message: msg.message, field: msg.field });
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

  // Stable across renders, so components and effects that take them are not redone per sample.
  const actions = useMemo<Pick<EngineHandle, 'clearError' | 'start' | 'check' | 'pause' | 'resume' | 'reset'>>(
    () => ({
      clearError: () => setError(null),
      start: (config) => {
        setError(null);
        setStarting(true);
        clientRef.current?.start(config);
      },
      check: (config) => clientRef.current?.check(config) ?? Promise.resolve(null),
      pause: () => clientRef.current?.pause(),
      resume: () => clientRef.current?.resume(),
      reset: () => {
        acceptingRef.current = false;
        setStarting(false);
        clientRef.current?.reset();
        store.reset();
        setRun(null);
        setPowerCuts([]);
        setSummary(null);
        setLatest(EMPTY_LATEST);
      },
    }),
    [store],
  );

  return {
    state,
    presets,
    workloads,
    requestFields,
    fields,
    store,
    run,
    powerCuts,
    latest,
    summary,
    setupMs,
    error,
    starting,
    ...actions,
  };
}
