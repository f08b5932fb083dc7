// The experiment picked (one of the articles' methods, or none: the live run) and its settings,
// to and from the URL, and the engine's experiment request built from them and a run's settings
// (drive, spare area, seed and the design's drive parameters). Ranges are the engine's
// (engine/core/src/experiment/mod.rs); the engine checks them again and has the last word.

import type { ExperimentInfo, ExperimentRequest } from '../engine/experimentProtocol';
import type { SimConfig } from '../engine/protocol';
import { parseListText, parseNumberText, type Parsed } from './urlState';
import {
  PLACEMENT_PAGE,
  parseDriveWritesText,
  parseHostsText,
  parseLayoutsText,
  parseOpPercentsText,
  type PlacementChoice,
} from './placementExperiment';
import {
  RECOVERY_ENGINE,
  checkRecovery,
  readNamesText,
  readNumberText,
  readNumbersText,
  recoveryOf,
  type RecoveryChoice,
} from './recoveryExperiment';

export type Precondition = 'article' | 'fill';

export interface ExperimentSettings {
  /** The experiment's id; null: the live run, second by second. */
  id: string | null;
  /** Simulated seconds per point, ramp seconds, queue depths, spans: null = the experiment's own. */
  seconds: number | null;
  ramp: number | null;
  qds: readonly number[] | null;
  spans: readonly number[] | null;
  precondition: Precondition;
  /** What the bandwidth chart plots: MB/s or IOPS. */
  plot: 'mb_s' | 'iops';
  /** The placement experiment's hosts, layouts, over-provisionings and drive writes. */
  placement: PlacementChoice;
  /** The recovery experiments' rests, writes and states. */
  recovery: RecoveryChoice;
}

export const NO_EXPERIMENT: ExperimentSettings = {
  id: null,
  seconds: null,
  ramp: null,
  qds: null,
  spans: null,
  precondition: 'article',
  plot: 'mb_s',
  placement: PLACEMENT_PAGE,
  recovery: RECOVERY_ENGINE,
};

export const EXPERIMENT_LIMITS = {
  seconds: { min: 1, max: 86_400 },
  queueDepth: { min: 1, max: 65_536 },
  queueDepths: { min: 1, max: 32 },
  span: { min: 0.01, max: 1 },
  spans: { min: 1, max: 16 },
} as const;

/** The spans the engine tests when none are given (a full drive, 7/8 and 3/4 of it). */
export const DEFAULT_SPANS = [1, 0.875, 0.75] as const;

/** URL keys, one per setting. */
export const EXPERIMENT_KEYS = {
  id: 'experiment',
  seconds: 'exp_seconds',
  ramp: 'exp_ramp',
  qds: 'exp_qd',
  spans: 'exp_spans',
  precondition: 'exp_pre',
  plot: 'exp_plot',
  hosts: 'exp_hosts',
  layouts: 'exp_layouts',
  opPercents: 'exp_op',
  driveWrites: 'exp_dw',
  rests: 'exp_rests',
  writeGb: 'exp_write_gb',
  thenGb: 'exp_then_gb',
  dirtySeconds: 'exp_dirty_s',
  states: 'exp_states',
} as const;

/** How an experiment's table is drawn, read from its columns (so a new experiment is drawn too). */
export type ExperimentKind = 'queue-depth' | 'span' | 'seconds' | 'fill' | 'recovery' | 'placement' | 'other';

export function experimentKind(columns: readonly string[]): ExperimentKind {
  if (columns.includes('layout') && columns.includes('host') && columns.includes('total_write_amplification')) return 'placement';
  if (columns.includes('queue_depth') && (columns.includes('iops') || columns.includes('mb_s'))) return 'queue-depth';
  if (columns.includes('second') && columns.includes('iops')) return 'seconds';
  if (columns.includes('gb_written') && columns.includes('mb_s')) return 'fill';
  if (columns.includes('rest_s') && columns.includes('mb_s')) return 'recovery';
  if (columns.includes('span') && columns.includes('spare_percent')) return 'span';
  return 'other';
}

/** Which settings an experiment takes. */
export function settingsOf(info: ExperimentInfo): {
  ramp: boolean;
  qds: boolean;
  spans: boolean;
  precondition: boolean;
  placement: boolean;
  /** Which recovery experiment's settings it takes, if one. */
  recovery: 'idle' | 'dirty' | null;
} {
  const kind = experimentKind(info.columns);
  return {
    ramp: kind === 'queue-depth' || kind === 'other',
    qds: kind === 'queue-depth' || kind === 'other',
    spans: kind === 'span',
    precondition: kind === 'queue-depth',
    placement: kind === 'placement',
    recovery: kind === 'recovery' ? recoveryOf(info.columns) : null,
  };
}

// ---- checking typed values ---------------------------------------------------------------------

export const LABELS = {
  seconds: 'Seconds per point',
  ramp: 'Ramp',
  qds: 'Queue depths',
  spans: 'Spans',
} as const;

/** An experiment's default seconds per point; a fill's (0: until the drive is written) at most the limit. */
export function mostSeconds(info: ExperimentInfo): number {
  return info.seconds || EXPERIMENT_LIMITS.seconds.max;
}

export function parseSecondsText(text: string): Parsed<number> {
  const { min, max } = EXPERIMENT_LIMITS.seconds;
  return parseNumberText(LABELS.seconds, text, min, max, true);
}

/** The ramp must leave at least one measured second of each point. */
export function parseRampText(text: string, seconds: number): Parsed<number> {
  return parseNumberText(LABELS.ramp, text, 0, Math.max(0, seconds - 1), true);
}

export function parseQdsText(text: string): Parsed<number[]> {
  const { min, max } = EXPERIMENT_LIMITS.queueDepth;
  return parseListText(LABELS.qds, text, (t) => parseNumberText(LABELS.qds, t, min, max, true), EXPERIMENT_LIMITS.queueDepths);
}

export function parseSpansText(text: string): Parsed<number[]> {
  const { min, max } = EXPERIMENT_LIMITS.span;
  return parseListText(LABELS.spans, text, (t) => parseNumberText(LABELS.spans, t, min, max, false), EXPERIMENT_LIMITS.spans);
}

export const formatList = (v: readonly number[]) => v.join(',');

// ---- URL ---------------------------------------------------------------------------------------

export interface ParsedExperiment {
  settings: ExperimentSettings;
  errors: string[];
}

/** Reads the experiment keys of a query string; a bad value is named and left at its default. */
export function parseExperiment(search: string): ParsedExperiment {
  const q = new URLSearchParams(search);
  const errors: string[] = [];
  const s: ExperimentSettings = { ...NO_EXPERIMENT };
  const K = EXPERIMENT_KEYS;
  const id = q.get(K.id);
  if (id !== null) {
    if (id.trim() === '') errors.push(`${K.id}: must not be empty`);
    else s.id = id;
  }
  const take = <T>(key: string, raw: string | null, parse: (t: string) => Parsed<T>, set: (v: T) => void) => {
    if (raw === null) return;
    const p = parse(raw);
    if (p.error !== undefined) errors.push(`${key}: ${p.error.replace(/^[^:]*: /, '')}`);
    else set(p.value);
  };
  take(K.seconds, q.get(K.seconds), parseSecondsText, (v) => (s.seconds = v));
  take(
    K.ramp,
    q.get(K.ramp),
    (t) => parseNumberText(LABELS.ramp, t, 0, EXPERIMENT_LIMITS.seconds.max - 1, true),
    (v) => (s.ramp = v),
  );
  take(K.qds, q.get(K.qds), parseQdsText, (v) => (s.qds = v));
  take(K.spans, q.get(K.spans), parseSpansText, (v) => (s.spans = v));
  const pre = q.get(K.precondition);
  if (pre !== null) {
    if (pre === 'article' || pre === 'fill') s.precondition = pre;
    else errors.push(`${K.precondition}: must be one of article, fill (got "${pre}")`);
  }
  const plot = q.get(K.plot);
  if (plot !== null) {
    if (plot === 'mb_s' || plot === 'iops') s.plot = plot;
    else errors.push(`${K.plot}: must be one of mb_s, iops (got "${plot}")`);
  }
  const pl = { ...s.placement };
  take(K.hosts, q.get(K.hosts), parseHostsText, (v) => (pl.hosts = v));
  take(K.layouts, q.get(K.layouts), parseLayoutsText, (v) => (pl.layouts = v));
  take(K.opPercents, q.get(K.opPercents), parseOpPercentsText, (v) => (pl.opPercents = v));
  take(K.driveWrites, q.get(K.driveWrites), parseDriveWritesText, (v) => (pl.driveWrites = v));
  s.placement = pl;
  // Read as numbers and names: their ranges and the states are the engine's (checkExperiment).
  const rc = { ...s.recovery };
  take(K.rests, q.get(K.rests), readNumbersText, (v) => (rc.rests = v));
  take(K.writeGb, q.get(K.writeGb), readNumberText, (v) => (rc.writeGb = v));
  take(K.thenGb, q.get(K.thenGb), readNumberText, (v) => (rc.thenGb = v));
  take(K.dirtySeconds, q.get(K.dirtySeconds), readNumberText, (v) => (rc.dirtySeconds = v));
  take(K.states, q.get(K.states), readNamesText, (v) => (rc.states = v));
  s.recovery = rc;
  return { settings: s, errors };
}

/**
 * Checks the link's experiment against the engine's list, the ramp against the seconds and the
 * recoveries' settings against the engine's ranges and states: an unknown experiment is named
 * and dropped (the page shows the live run), a bad setting named and left at its default.
 */
export function checkExperiment(s: ExperimentSettings, known: readonly ExperimentInfo[]): ParsedExperiment {
  const errors: string[] = [];
  let next = s;
  if (s.id !== null && known.length > 0 && !known.some((e) => e.id === s.id)) {
    errors.push(`${EXPERIMENT_KEYS.id}: unknown experiment "${s.id}" (known: ${known.map((e) => e.id).join(', ')})`);
    next = { ...next, id: null };
  }
  const info = known.find((e) => e.id === next.id);
  if (info && next.ramp !== null) {
    const seconds = next.seconds ?? mostSeconds(info);
    const p = parseRampText(String(next.ramp), seconds);
    if (p.error !== undefined) {
      errors.push(`${EXPERIMENT_KEYS.ramp}: ${p.error.replace(/^[^:]*: /, '')}`);
      next = { ...next, ramp: null };
    }
  }
  // Every experiment lists the same rules; the picked one's, else the first's.
  const rules = info ?? known[0];
  if (rules) {
    const rc = checkRecovery(next.recovery, rules, (field) => EXPERIMENT_KEYS[field]);
    if (rc.errors.length > 0) next = { ...next, recovery: rc.choice };
    errors.push(...rc.errors);
  }
  return { settings: next, errors };
}

/** The experiment's keys for a link (only what differs from the defaults). */
export function experimentSearch(s: ExperimentSettings): URLSearchParams {
  const q = new URLSearchParams();
  const K = EXPERIMENT_KEYS;
  if (s.id === null) return q;
  q.set(K.id, s.id);
  if (s.seconds !== null) q.set(K.seconds, String(s.seconds));
  if (s.ramp !== null) q.set(K.ramp, String(s.ramp));
  if (s.qds !== null) q.set(K.qds, formatList(s.qds));
  if (s.spans !== null) q.set(K.spans, formatList(s.spans));
  if (s.precondition !== NO_EXPERIMENT.precondition) q.set(K.precondition, s.precondition);
  if (s.plot !== NO_EXPERIMENT.plot) q.set(K.plot, s.plot);
  const pl = s.placement;
  const page = NO_EXPERIMENT.placement;
  if (pl.hosts.join() !== page.hosts.join()) q.set(K.hosts, pl.hosts.join(','));
  if (pl.layouts.join() !== page.layouts.join()) q.set(K.layouts, pl.layouts.join(','));
  if (pl.opPercents.join() !== page.opPercents.join()) q.set(K.opPercents, formatList(pl.opPercents));
  if (pl.driveWrites !== page.driveWrites) q.set(K.driveWrites, String(pl.driveWrites));
  const rc = s.recovery;
  if (rc.rests !== null) q.set(K.rests, formatList(rc.rests));
  if (rc.writeGb !== null) q.set(K.writeGb, String(rc.writeGb));
  if (rc.thenGb !== null) q.set(K.thenGb, String(rc.thenGb));
  if (rc.dirtySeconds !== null) q.set(K.dirtySeconds, String(rc.dirtySeconds));
  if (rc.states !== null) q.set(K.states, rc.states.join(','));
  return q;
}

/** Two query strings as one ("?a=1" and {b: 2} -> "?a=1&b=2"). */
export function joinSearch(search: string, more: URLSearchParams): string {
  const q = new URLSearchParams(search);
  for (const [k, v] of more) q.append(k, v);
  const s = q.toString().replace(/%2C/g, ',');
  return s ? `?${s}` : '';
}

// ---- the engine's request ----------------------------------------------------------------------

/**
 * The experiment request for one run's settings: its drive, spare area (span), seed and drive
 * parameters (the design options' and the advanced overrides), with the experiment's settings
 * that this experiment takes and the user changed.
 */
export function experimentRequest(s: ExperimentSettings, info: ExperimentInfo, run: SimConfig): ExperimentRequest {
  const takes = settingsOf(info);
  const rc = s.recovery;
  return {
    experiment: info.id,
    drive: run.drive,
    ...(run.set && Object.keys(run.set).length > 0 ? { set: run.set } : {}),
    seed: run.seed,
    span: run.span,
    ...(s.seconds !== null ? { seconds: s.seconds } : {}),
    ...(takes.ramp && s.ramp !== null ? { ramp_seconds: s.ramp } : {}),
    ...(takes.qds && s.qds !== null ? { queue_depths: [...s.qds] } : {}),
    ...(takes.spans && s.spans !== null ? { spans: [...s.spans] } : {}),
    ...(takes.precondition ? { precondition: s.precondition } : {}),
    // Always sent: the page's first run is smaller than the engine's default set.
    ...(takes.placement
      ? {
          hosts: [...s.placement.hosts],
          layouts: [...s.placement.layouts],
          op_percents: [...s.placement.opPercents],
          drive_writes: s.placement.driveWrites,
        }
      : {}),
    ...(takes.recovery !== null && rc.rests !== null ? { rest_seconds: [...rc.rests] } : {}),
    ...(takes.recovery === 'idle' && rc.writeGb !== null ? { write_gb: rc.writeGb } : {}),
    ...(takes.recovery === 'idle' && rc.thenGb !== null ? { then_gb: rc.thenGb } : {}),
    ...(takes.recovery === 'dirty' && rc.dirtySeconds !== null ? { dirty_seconds: rc.dirtySeconds } : {}),
    ...(takes.recovery === 'dirty' && rc.states !== null ? { states: [...rc.states] } : {}),
  };
}

/** The `ssdlab sweep` arguments that print the same table as a request. */
export function sweepArgs(r: ExperimentRequest): string[] {
  const args = [r.experiment, '--drive', r.drive];
  if (r.seconds !== undefined) args.push('--seconds', String(r.seconds));
  if (r.ramp_seconds !== undefined) args.push('--ramp-seconds', String(r.ramp_seconds));
  if (r.queue_depths !== undefined) args.push('--queue-depths', r.queue_depths.join(','));
  if (r.spans !== undefined) args.push('--spans', r.spans.join(','));
  if (r.span !== undefined && r.span !== 1) args.push('--span', String(r.span));
  if (r.seed !== undefined && r.seed !== 1) args.push('--seed', String(r.seed));
  if (r.precondition !== undefined && r.precondition !== 'article') args.push('--precondition', r.precondition);
  if (r.hosts !== undefined) args.push('--hosts', r.hosts.join(','));
  if (r.layouts !== undefined) args.push('--layouts', r.layouts.join(','));
  if (r.op_percents !== undefined) args.push('--op-percents', r.op_percents.join(','));
  if (r.drive_writes !== undefined) args.push('--drive-writes', String(r.drive_writes));
  if (r.write_gb !== undefined) args.push('--write-gb', String(r.write_gb));
  if (r.rest_seconds !== undefined) args.push('--rest-seconds', r.rest_seconds.join(','));
  if (r.then_gb !== undefined) args.push('--then-gb', String(r.then_gb));
  if (r.dirty_seconds !== undefined) args.push('--dirty-seconds', String(r.dirty_seconds));
  if (r.states !== undefined) args.push('--states', r.states.join(','));
  for (const [path, v] of Object.entries(r.set ?? {})) args.push('--set', `${path}=${String(v)}`);
  return args;
}

/** Where the engine's objection to an experiment request belongs: a setting of the picker, or elsewhere. */
export type ExperimentPlace =
  | 'seconds'
  | 'ramp'
  | 'qds'
  | 'spans'
  | 'precondition'
  | 'hosts'
  | 'layouts'
  | 'op'
  | 'dw'
  | 'rests'
  | 'writeGb'
  | 'thenGb'
  | 'dirtySeconds'
  | 'states';

export function experimentPlace(field: string): ExperimentPlace | null {
  if (field === 'seconds') return 'seconds';
  if (field === 'ramp_seconds') return 'ramp';
  if (field.startsWith('queue_depths')) return 'qds';
  if (field.startsWith('spans')) return 'spans';
  if (field === 'precondition') return 'precondition';
  if (field.startsWith('hosts')) return 'hosts';
  if (field.startsWith('layouts')) return 'layouts';
  if (field.startsWith('op_percents')) return 'op';
  if (field === 'drive_writes') return 'dw';
  if (field.startsWith('rest_seconds')) return 'rests';
  if (field === 'write_gb') return 'writeGb';
  if (field === 'then_gb') return 'thenGb';
  if (field === 'dirty_seconds') return 'dirtySeconds';
  if (field.startsWith('states')) return 'states';
  return null;
}
