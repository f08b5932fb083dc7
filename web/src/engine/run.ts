// One run on the page: what the page shows of it (`Run`), and its slot in the run set: its
// worker's client and how that worker's messages change the run (engine/runs.ts holds the set).

import { ColumnStore } from '../data/columns';
import { DERIVED_FIELDS, withDerivedColumns, type DeriveContext } from '../data/derived';
import { InsideStore } from '../data/inside';
import type { EngineClient } from './client';
import type { Evidence } from './evidence';
import type { EngineState, PowerCut, RunSummary, SimConfig, WorkerToPage } from './protocol';
import { fillsAtOnce, shareOf } from './share';

/** One colour per run slot, told apart by people with the common colour-vision deficiencies. */
const RUN_COLORS = ['var(--run-1)', 'var(--run-2)', 'var(--run-3)', 'var(--run-4)'] as const;

export interface EngineError {
  message: string;
  field?: string;
}

export interface Run<S> {
  id: number;
  kind: 'sim' | 'log';
  /** Index into RUN_COLORS. */
  slot: number;
  color: string;
  /** The setup the settings panel edits for this run (sim runs). */
  setup: S | null;
  /** The request and setup its results come from (null until a start is accepted). */
  ran: { config: SimConfig; setup: S } | null;
  /** For a log: its file name. */
  fileName: string | null;
  state: EngineState;
  /** Start pressed; the worker is erasing and filling the drive. */
  starting: boolean;
  /** The run's drive after its overrides: path -> value. */
  parameters: Readonly<Record<string, unknown>>;
  store: ColumnStore;
  /** Inside the drive, second by second, and the run's latency histogram. */
  inside: InsideStore;
  secondsDone: number;
  memoryBytes: number;
  /** Values of the last completed second, by field. */
  last: Readonly<Record<string, number>>;
  /** Simulated seconds per wall-clock second (recent, or the whole run once finished). */
  speed: number;
  summary: RunSummary | null;
  setupMs: number | null;
  powerCuts: readonly PowerCut[];
  /** Power cuts asked for during the run (Cut power now), by when they happen, s. */
  cutsAsked: readonly number[];
  /** The capacitor switch: false once failed during the run (until the next start). */
  capacitorsHealthy: boolean;
  /** The published figures for its drive; with this run's verdicts once it has finished (RunSet asks). */
  evidence: readonly Evidence[];
  error: EngineError | null;
}

/** Seconds of wall time the speed readout averages over. */
const SPEED_WINDOW_MS = 3000;

export interface Slot<S> {
  run: Run<S>;
  client: EngineClient | null;
  unsubscribe: (() => void) | null;
  /** Drops messages of a run that was reset or replaced until the next `started`. */
  accepting: boolean;
  pendingSetup: S | null;
  /** A start waiting for a fill to end before its own (share.ts `fillsAtOnce`); `paused`: Pause
   * was pressed meanwhile, so the run pauses once started, as it would have without the wait. */
  queued: { config: SimConfig; paused: boolean } | null;
  derive: DeriveContext;
  /** Wall-clock points (ms, simulated seconds) for the speed, and the running wall time. */
  pace: { t: number; s: number }[];
  wallMs: number;
  lastTick: number;
}

/** A run not started yet, its store with the engine's columns when they are known. */
export function newSlot<S>(
  id: number,
  kind: 'sim' | 'log',
  slot: number,
  setup: S | null,
  fileName: string | null,
  sampleFields: readonly string[] | undefined,
): Slot<S> {
  const fields = sampleFields ? [...sampleFields, ...DERIVED_FIELDS] : [];
  return {
    run: {
      id,
      kind,
      slot,
      color: RUN_COLORS[slot],
      setup,
      ran: null,
      fileName,
      state: 'idle',
      starting: false,
      parameters: {},
      store: new ColumnStore(fields),
      inside: new InsideStore(),
      secondsDone: 0,
      memoryBytes: 0,
      last: {},
      speed: NaN,
      summary: null,
      setupMs: null,
      powerCuts: [],
      cutsAsked: [],
      capacitorsHealthy: true,
      evidence: [],
      error: null,
    },
    client: null,
    unsubscribe: null,
    accepting: false,
    pendingSetup: null,
    queued: null,
    derive: { dies: NaN, writeBufferBytes: NaN },
    pace: [],
    wallMs: 0,
    lastTick: 0,
  };
}

/** What the page must hear of a message: at once, with the next batch of progress, or nothing. */
export type Heard = 'changed' | 'soon' | 'unchanged';

/** A message from run `s`'s worker (`client`; not `ready`, which is the set's) into its run. */
export function onRunMessage<S>(s: Slot<S>, client: EngineClient, msg: WorkerToPage, now: () => number): Heard {
  const r = s.run;
  switch (msg.type) {
    case 'state': {
      const t = now();
      if (msg.state === 'running') {
        s.lastTick = t;
        s.pace = [{ t, s: r.secondsDone }];
      }
      s.run = { ...r, state: msg.state, starting: msg.state === 'error' || msg.state === 'loading' ? false : r.starting };
      break;
    }
    case 'started': {
      s.accepting = true;
      s.derive = deriveContext(msg.parameters);
      r.store.reset([...client.fields, ...DERIVED_FIELDS]);
      r.inside.reset(msg.inside_layout);
      const t = now();
      s.pace = [{ t, s: 0 }];
      s.wallMs = 0;
      s.lastTick = t;
      s.run = {
        ...r,
        ran: { config: msg.config, setup: s.pendingSetup ?? r.setup! },
        starting: false,
        parameters: msg.parameters,
        secondsDone: 0,
        memoryBytes: msg.memory_bytes,
        last: {},
        speed: NaN,
        summary: null,
        setupMs: msg.setup_ms,
        powerCuts: [],
        cutsAsked: [],
        capacitorsHealthy: true,
        evidence: [],
        error: null,
      };
      break;
    }
    case 'samples': {
      if (!s.accepting) return 'unchanged';
      const data = new Float64Array(msg.buffer);
      const batch = withDerivedColumns(msg.fields, msg.n, data, s.derive);
      r.store.appendColumnMajor(batch.fields, msg.n, batch.data);
      const first = msg.fields.indexOf('second');
      r.inside.append(
        first >= 0 ? data[first * msg.n] : r.store.length - msg.n,
        msg.n,
        new Float32Array(msg.inside),
        new Float64Array(msg.latency),
      );
      return 'unchanged'; // the charts follow the stores; React need not hear of it
    }
    case 'cut_asked':
      if (!s.accepting || msg.at_s < 0) return 'unchanged';
      s.run = { ...r, cutsAsked: [...r.cutsAsked, msg.at_s] };
      break;
    case 'power_cuts':
      if (!s.accepting) return 'unchanged';
      s.run = { ...r, powerCuts: msg.cuts };
      break;
    case 'progress': {
      if (!s.accepting) return 'unchanged';
      const t = now();
      if (r.state === 'running') s.wallMs += t - s.lastTick;
      s.lastTick = t;
      s.pace.push({ t, s: msg.seconds_done });
      while (s.pace.length > 2 && t - s.pace[1].t >= SPEED_WINDOW_MS) s.pace.shift();
      const first = s.pace[0];
      const speed = t - first.t > 250 ? ((msg.seconds_done - first.s) * 1000) / (t - first.t) : r.speed;
      const last: Record<string, number> = {};
      for (const f of r.store.fields) last[f] = r.store.last(f);
      s.run = { ...r, secondsDone: msg.seconds_done, memoryBytes: msg.memory_bytes, last, speed };
      return 'soon';
    }
    case 'finished':
      if (!s.accepting) return 'unchanged';
      s.run = {
        ...r,
        summary: msg.summary,
        speed: s.wallMs > 0 ? (msg.summary.seconds_done * 1000) / s.wallMs : r.speed,
      };
      break;
    case 'error':
      s.run = { ...r, error: { message: msg.message, field: msg.field }, starting: false };
      break;
    default:
      return 'unchanged';
  }
  return 'changed';
}

function deriveContext(parameters: Readonly<Record<string, unknown>>): DeriveContext {
  const n = (path: string) => (typeof parameters[path] === 'number' ? (parameters[path] as number) : NaN);
  return { dies: n('geometry.dies'), writeBufferBytes: n('controller.write_buffer_bytes') };
}

/** The run's worker is erasing and filling its drive (its start sent, not yet running). */
const isFilling = <S>(s: Slot<S>) => s.client !== null && s.run.starting && s.queued === null;

/** Sends queued starts while fewer runs than `fillsAtOnce` erase and fill (a fill is not paced). */
export function startQueued<S>(slots: readonly Slot<S>[], cores: number): void {
  let filling = slots.filter(isFilling).length;
  for (const s of slots) {
    if (filling >= fillsAtOnce(cores)) return;
    if (s.queued === null || !s.client) continue;
    s.client.start(s.queued.config);
    if (s.queued.paused) s.client.pause();
    s.queued = null;
    filling++;
  }
}

/** Pauses or resumes the run; a start still queued keeps it for when it is sent. */
export function setPaused<S>(s: Slot<S> | undefined, paused: boolean): void {
  if (s?.queued) s.queued.paused = paused;
  else if (paused) s?.client?.pause();
  else s?.client?.resume();
}

/** Each computing run's engine's share of a core, the fills under way taking theirs first. */
export function engineShare<S>(slots: readonly Slot<S>[], cores: number): number {
  const filling = slots.filter(isFilling).length;
  const computing = slots.filter((s) => s.client && !s.run.starting && s.run.state === 'running').length;
  return shareOf(computing, cores, filling);
}
