// The small panels under the IOPS chart, as data: what each draws and when it is worth showing.
// They share the IOPS chart's time axis, so a dip lines up with its cause.

import { formatCount, formatMicros, numberFormat } from '../format';
import type { ViewSpec } from './views';

export interface SeriesSpec {
  field: string;
  kind: 'dots' | 'line';
  color: string;
  label: string;
}

/** Shades the seconds in which `field` equals `value` (a state: clean-up, write-through). */
export interface BandSpec {
  field: string;
  value: 0 | 1;
  color: string;
  label: string;
}

/** A horizontal reference line, e.g. the free-block level at which GC starts. */
export interface RefLine {
  value: number;
  label: string;
}

/**
 * A published figure over the seconds it was measured on: a band from `lo` to `hi` (an article's
 * slowest and fastest second), or a line where they are equal (a datasheet's mean).
 */
export interface FigureMark {
  from: number;
  to: number;
  lo: number;
  hi: number;
  label: string;
  /** A figure that is not a level (the article's dip period): its words over the window, no band. */
  note?: boolean;
}

/** The run a panel is drawn for: its drive (after overrides) and request. */
export interface PanelContext {
  parameters: Readonly<Record<string, unknown>>;
  workload: string;
  /** The workload writes (panels about GC and write amplification mean nothing otherwise). */
  writes: boolean;
  /** Some writes cover only part of a 4 KiB map unit (smaller or unaligned requests). */
  partialWrites: boolean;
  idle: boolean;
  powerCuts: boolean;
  /** Override paths the user set by hand. */
  overridden: readonly string[];
  /** The workload writes through the host's zone store (its cleaner's copies are host writes). */
  zoneStore?: boolean;
}

/** A zoned drive: its preset (or the user) gives the `[zoned]` section. */
const isZoned = (ctx: PanelContext) => ctx.parameters['zoned.zone_bytes'] !== undefined;

export interface PanelSpec {
  id: string;
  title: string;
  /** One sentence: what to look for. */
  explain: string;
  y: ViewSpec['y'];
  /** Tick labels. */
  format(v: number): string;
  /** A value read under the pointer, when it needs a unit. */
  value?(v: number): string;
  series: readonly SeriesSpec[];
  bands?: readonly BandSpec[];
  refs?(ctx: PanelContext): RefLine[];
  /** A fixed top for the y axis, e.g. to keep the steady state legible under a fresh-drive peak. */
  top?(ctx: PanelContext): number | undefined;
  relevant(ctx: PanelContext): boolean;
}

const num = (ctx: PanelContext, path: string): number => {
  const v = ctx.parameters[path];
  return typeof v === 'number' ? v : NaN;
};
const list = (ctx: PanelContext, path: string): number[] => {
  const v = ctx.parameters[path];
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
};
const exact = numberFormat({ maximumFractionDigits: 2 });
const plain = (v: number) => String(Number(v.toFixed(2)));
const percent = (v: number) => `${Number((v * 100).toFixed(0))}%`;

/** A drive with an SLC cache: its preset (or the user) gives the `[slc_cache]` section. */
const hasSlcCache = (ctx: PanelContext) => ctx.parameters['slc_cache.when_full'] !== undefined;

const CLEAN_UP: BandSpec = { field: 'gc_boost', value: 1, color: 'var(--band-cleanup)', label: 'drive-wide clean-up' };

export const PANELS: readonly PanelSpec[] = [
  {
    id: 'wa',
    title: 'Write amplification',
    explain: 'NAND pages written per page the host wrote: garbage collection’s copying shows up here.',
    // A second with little host IO and a bulk clean-up can reach 100+; keep the usual range legible.
    y: { kind: 'linear', robust: true },
    format: plain,
    series: [
      { field: 'wa_second', kind: 'dots', color: 'var(--c-violet-light)', label: 'this second' },
      { field: 'write_amplification', kind: 'line', color: 'var(--c-violet-dark)', label: 'since the start' },
    ],
    relevant: (ctx) => ctx.writes,
  },
  {
    id: 'free',
    title: 'Free blocks per die',
    explain: 'The pool garbage collection refills; the lines are the levels it acts at.',
    y: { kind: 'linear' },
    format: plain,
    series: [{ field: 'free_blocks_per_die', kind: 'line', color: 'var(--c-green)', label: 'free blocks per die' }],
    bands: [CLEAN_UP],
    refs: (ctx) => {
      const lazy = ctx.parameters['gc.pacing'] === 'lazy';
      const refs: RefLine[] = [{ value: num(ctx, 'gc.start_free_blocks'), label: lazy ? 'bulk cleaning stops' : 'GC starts' }];
      if (lazy) refs.push({ value: num(ctx, 'gc.min_free_blocks'), label: 'host waits' });
      else {
        refs.push({ value: num(ctx, 'gc.boost_below_free_blocks'), label: 'clean-up starts' });
        refs.push({ value: num(ctx, 'gc.boost_until_free_blocks'), label: 'clean-up ends' });
      }
      if (ctx.idle) refs.push({ value: num(ctx, 'gc.background_free_blocks'), label: 'background GC target' });
      return refs.filter((r) => Number.isFinite(r.value));
    },
    // Room above the highest level; a fresh drive's hundreds of free blocks run off the top.
    top: (ctx) => {
      const levels = [num(ctx, 'gc.start_free_blocks'), num(ctx, 'gc.boost_until_free_blocks')];
      if (ctx.idle) levels.push(num(ctx, 'gc.background_free_blocks'));
      const highest = Math.max(...levels.filter(Number.isFinite));
      return highest > 0 ? Math.ceil((highest * 1.5) / 10) * 10 : undefined;
    },
    relevant: (ctx) => ctx.writes,
  },
  {
    id: 'gc',
    title: 'Garbage collection',
    explain: '4 KB pages GC copied out of victim blocks each second: steady when paced, in bursts when lazy.',
    // Bulk and background clean-ups copy in one second what pacing spreads over many.
    y: { kind: 'linear', robust: true },
    format: formatCount,
    series: [{ field: 'gc_moves', kind: 'dots', color: 'var(--c-amber)', label: 'pages copied' }],
    bands: [CLEAN_UP],
    relevant: (ctx) => ctx.writes && (ctx.parameters['gc.pacing'] === 'lazy' || ctx.parameters['gc.victim'] !== 'greedy' || ctx.idle),
  },
  {
    id: 'latency',
    title: 'Latency',
    explain: 'From the host issuing a command to the drive acknowledging it.',
    y: { kind: 'log' },
    format: formatMicros,
    value: (v) => `${exact.format(v)} µs`,
    series: [
      { field: 'mean_latency_us', kind: 'dots', color: 'var(--series-1)', label: 'mean' },
      { field: 'max_latency_us', kind: 'dots', color: 'var(--c-blue-light)', label: 'worst' },
    ],
    relevant: () => true,
  },
  {
    id: 'buffer',
    title: 'Write buffer',
    explain: 'How full the write buffer is; shaded where the drive writes through or flags its capacitors.',
    y: { kind: 'linear', max: 100 },
    format: (v) => `${v}%`,
    value: (v) => `${exact.format(v)}%`,
    series: [{ field: 'buffer_percent', kind: 'line', color: 'var(--c-teal)', label: 'buffer in use' }],
    bands: [
      { field: 'write_buffering', value: 0, color: 'var(--band-grey)', label: 'write-through' },
      { field: 'smart_flag', value: 1, color: 'var(--band-red)', label: 'SMART flag: capacitors failed' },
    ],
    relevant: (ctx) => ctx.powerCuts || ctx.parameters['power.capacitors'] === false || num(ctx, 'power.capacitor_fails_at_s') > 0,
  },
  {
    id: 'wear',
    title: 'Erase counts',
    explain: 'The least- and most-erased blocks: wear levelling keeps them close.',
    y: { kind: 'linear' },
    format: plain,
    series: [
      { field: 'erase_count_max', kind: 'line', color: 'var(--c-red)', label: 'most erased block' },
      { field: 'erase_count_min', kind: 'line', color: 'var(--c-grey)', label: 'least erased block' },
    ],
    relevant: (ctx) =>
      ctx.writes &&
      (ctx.workload === 'hot-cold' ||
        ctx.parameters['gc.victim'] !== 'greedy' ||
        ctx.overridden.some((p) => p.startsWith('wear.') || p.startsWith('endurance.'))),
  },
  {
    id: 'rmw',
    title: 'Read-modify-write',
    explain: 'Writes covering only part of a 4 KB map unit: NAND reads of the rest of the unit before it can be rewritten.',
    y: { kind: 'linear' },
    format: formatCount,
    series: [{ field: 'rmw_reads', kind: 'dots', color: 'var(--c-brown)', label: 'units read per second' }],
    relevant: (ctx) => ctx.writes && ctx.partialWrites,
  },
  {
    id: 'map',
    title: 'Map hit rate',
    explain:
      'Share of lookups that found their map entry in the controller’s memory (or in the host memory buffer, on a drive that uses one); every miss reads NAND first.',
    y: { kind: 'linear', max: 1 },
    format: percent,
    value: (v) => `${exact.format(v * 100)}%`,
    series: [{ field: 'map_hit_rate', kind: 'line', color: 'var(--c-violet)', label: 'hits' }],
    relevant: (ctx) => ctx.parameters['map.scheme'] !== undefined && ctx.parameters['map.scheme'] !== 'flat',
  },
  {
    id: 'map-hmb',
    title: 'Host memory buffer',
    explain: 'Share of map lookups answered from the host’s memory (a DRAM-less drive’s map cache, a PCIe round trip away).',
    y: { kind: 'linear', max: 1 },
    format: percent,
    value: (v) => `${exact.format(v * 100)}%`,
    series: [{ field: 'map_hmb_hit_rate', kind: 'line', color: 'var(--c-teal)', label: 'answered by the HMB' }],
    relevant: (ctx) => Number(ctx.parameters['map.hmb_bytes'] ?? 0) > 0,
  },
  {
    id: 'slc',
    title: 'SLC cache',
    explain:
      'How much more the SLC cache can take, and the data in it still to be folded into TLC/QLC: writes are fast while there is room, and slow once it is full.',
    y: { kind: 'linear' },
    format: plain,
    value: (v) => `${exact.format(v)} GB`,
    series: [
      { field: 'slc_free_gb', kind: 'line', color: 'var(--c-green)', label: 'room left (GB)' },
      { field: 'slc_data_gb', kind: 'line', color: 'var(--c-amber)', label: 'waiting to be folded (GB)' },
    ],
    relevant: (ctx) => ctx.writes && hasSlcCache(ctx),
  },
  {
    id: 'fold',
    title: 'Folding',
    explain: 'Data the drive copied each second from SLC-mode blocks into TLC/QLC blocks: work that competes with the host’s writes.',
    y: { kind: 'linear', robust: true },
    format: formatCount,
    value: (v) => `${exact.format(v)} MB/s`,
    series: [{ field: 'fold_mb_s', kind: 'dots', color: 'var(--c-pink)', label: 'folded (MB/s)' }],
    relevant: (ctx) => ctx.writes && hasSlcCache(ctx),
  },
  {
    id: 'heat',
    title: 'Temperature',
    explain:
      'The drive’s temperature: the work of its dies heats it, its cooling takes the heat away; shaded where the firmware throttles.',
    y: { kind: 'linear' },
    format: plain,
    value: (v) => `${exact.format(v)} °C`,
    series: [{ field: 'temperature_c', kind: 'line', color: 'var(--c-red)', label: 'temperature (°C)' }],
    bands: [{ field: 'throttle_step', value: 1, color: 'var(--band-red)', label: 'throttling' }],
    refs: (ctx) => list(ctx, 'thermal.throttle_above_c').map((c) => ({ value: c, label: `throttles above ${c} °C` })),
    relevant: (ctx) => ctx.parameters['thermal.cooling'] !== undefined,
  },
  {
    id: 'host-wa',
    title: 'Host write amplification',
    explain:
      'Writes the host sent per write of the app’s own (the zone store’s cleaner copies live data out of the zones it resets), and times the drive’s own: the total (one line while the drive’s own is 1).',
    y: { kind: 'linear', robust: true },
    format: plain,
    series: [
      { field: 'host_write_amplification', kind: 'line', color: 'var(--c-violet-dark)', label: 'host, since the start' },
      { field: 'total_write_amplification', kind: 'line', color: 'var(--c-pink)', label: 'host × drive' },
    ],
    relevant: (ctx) => ctx.zoneStore === true,
  },
  {
    id: 'cleaner',
    title: 'Host cleaner',
    explain: 'The app’s own writes and the cleaner’s copies each second: the copies take part of what the drive can write.',
    y: { kind: 'linear', robust: true },
    format: formatCount,
    value: (v) => `${exact.format(v)} MB/s`,
    series: [
      { field: 'app_mb_s', kind: 'dots', color: 'var(--c-teal)', label: 'app (MB/s)' },
      { field: 'cleaner_mb_s', kind: 'dots', color: 'var(--c-amber)', label: 'cleaner copies (MB/s)' },
    ],
    relevant: (ctx) => ctx.zoneStore === true,
  },
  {
    id: 'zones',
    title: 'Zones',
    explain: 'Zones open, active and full at the end of each second, and the zones reset in it (each reset frees a whole zone).',
    y: { kind: 'linear' },
    format: formatCount,
    series: [
      { field: 'full_zones', kind: 'line', color: 'var(--c-teal)', label: 'full' },
      { field: 'active_zones', kind: 'line', color: 'var(--c-violet)', label: 'active' },
      { field: 'open_zones', kind: 'line', color: 'var(--c-green)', label: 'open' },
      { field: 'zone_resets', kind: 'dots', color: 'var(--c-red)', label: 'resets per second' },
    ],
    relevant: isZoned,
  },
];

export const PANEL_IDS: readonly string[] = PANELS.map((p) => p.id);

/** The panels to draw: the user's pick, else those relevant to the run. */
export function choosePanels(chosen: readonly string[] | null, ctx: PanelContext): PanelSpec[] {
  return chosen === null ? PANELS.filter((p) => p.relevant(ctx)) : PANELS.filter((p) => chosen.includes(p.id));
}
