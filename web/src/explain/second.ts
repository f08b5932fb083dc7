// "Why was this second slow?": one second of a run told in plain words from the engine's sample
// columns. Columns are found by name, so a column this page does not know yet (a new engine's)
// is still listed with its value, and known ones are explained when present.

import { rowOf, rowsWithin, type ColumnStore } from '../data/columns';
import { formatInt, formatMicros, format1, format2, formatPercent } from '../format';

export interface Finding {
  /** 'cause': something that slows the host; 'state': what the drive was doing; 'note': other. */
  kind: 'cause' | 'state' | 'note';
  text: string;
}

export interface SecondStory {
  second: number;
  /** One sentence: this second against the seconds around it. */
  headline: string;
  findings: Finding[];
  /** Every column of the second, by a readable name (the engine's name beside it). */
  values: { field: string; label: string; value: string }[];
}

/** Readable names and formats of the columns the page knows (engine's and derived). */
const COLUMNS: Readonly<Record<string, { label: string; format(v: number): string }>> = {
  iops: { label: 'IOs completed', format: formatInt },
  mb_s: { label: 'Throughput (MB/s)', format: format1 },
  mean_latency_us: { label: 'Mean latency', format: formatMicros },
  max_latency_us: { label: 'Worst latency', format: formatMicros },
  gc_moves: { label: 'Pages GC copied (4 KB)', format: formatInt },
  erases: { label: 'Blocks erased', format: formatInt },
  free_blocks: { label: 'Free blocks (all dies)', format: formatInt },
  free_blocks_per_die: { label: 'Free blocks per die', format: format1 },
  host_writes: { label: 'Host writes (4 KB units)', format: format1 },
  nand_writes: { label: 'NAND writes (4 KB units)', format: format1 },
  wa_second: { label: 'Write amplification, this second', format: format2 },
  write_amplification: { label: 'Write amplification, since the start', format: format2 },
  host_cpu_cores: { label: 'Host CPU cores busy', format: format2 },
  buffer_units: { label: 'Write buffer (4 KB units)', format: formatInt },
  buffer_percent: { label: 'Write buffer in use', format: (v) => formatPercent(v / 100) },
  write_buffering: { label: 'Buffering writes', format: yesNo },
  capacitors_healthy: { label: 'Capacitors healthy', format: yesNo },
  smart_flag: { label: 'SMART warning raised', format: yesNo },
  acknowledged_writes_lost: { label: 'Acknowledged writes lost', format: formatInt },
  map_hit_rate: { label: 'Map lookups answered without a flash read', format: formatPercent },
  map_hmb_hit_rate: { label: 'Map lookups answered by the host memory buffer', format: formatPercent },
  slc_free_gb: { label: 'Room left in the SLC cache', format: (v) => `${format1(v)} GB` },
  slc_data_gb: { label: 'Data in SLC waiting to be folded', format: (v) => `${format1(v)} GB` },
  fold_mb_s: { label: 'Folded from SLC into TLC/QLC', format: (v) => `${format1(v)} MB/s` },
  host_to_slc: { label: 'Host data written into the SLC cache', format: formatPercent },
  slc_blocks: { label: 'Blocks in SLC mode', format: formatInt },
  die_fold: { label: 'Die time spent folding', format: formatPercent },
  temperature_c: { label: 'Temperature', format: (v) => `${format1(v)} °C` },
  throttle_step: { label: 'Throttle step (0: none)', format: formatInt },
  gc_active_dies: { label: 'Dies collecting garbage', format: formatInt },
  gc_boost: { label: 'Drive-wide clean-up running', format: yesNo },
  erase_count_min: { label: 'Least-erased block (erases)', format: formatInt },
  erase_count_max: { label: 'Most-erased block (erases)', format: formatInt },
  retired_blocks: { label: 'Worn-out blocks retired', format: formatInt },
  read_only: { label: 'Worn out (read-only)', format: yesNo },
  rmw_reads: { label: 'Read-modify-write reads', format: formatInt },
  host_write_amplification: { label: 'Host write amplification, since the start', format: format2 },
  total_write_amplification: { label: 'Total write amplification (host × drive)', format: format2 },
  app_mb_s: { label: 'The app’s own writes', format: (v) => `${format1(v)} MB/s` },
  cleaner_mb_s: { label: 'Host cleaner’s copies', format: (v) => `${format1(v)} MB/s` },
  zone_resets: { label: 'Zones reset', format: formatInt },
  open_zones: { label: 'Open zones', format: formatInt },
  active_zones: { label: 'Active zones', format: formatInt },
  full_zones: { label: 'Full zones', format: formatInt },
  second_covered: { label: 'Share of the second the run covered', format: formatPercent },
};

/**
 * Where data was placed (issue 21): a host zone store's cleaner copying live data, or a drive
 * taking placement handles whose GC found only empty blocks.
 */
function placementFindings(v: (field: string) => number, ctx: StoryContext): Finding[] {
  const out: Finding[] = [];
  const cleaner = v('cleaner_mb_s');
  if (cleaner > 0) {
    out.push({
      kind: 'cause',
      text: `The host was cleaning zones: ${format1(cleaner)} MB/s of its writes were copies of live data out of the zones it resets (beside ${format1(v('app_mb_s'))} MB/s of the app’s own).`,
    });
  }
  // Blocks erased, nothing copied and a write amplification of 1.00: every victim was already empty.
  const tagged = ctx.parameters['placement.handles'] !== undefined;
  if (tagged && v('gc_moves') === 0 && v('erases') > 0 && v('host_writes') > 0 && Math.abs(v('wa_second') - 1) < 0.005) {
    out.push({
      kind: 'state',
      text: 'Every block GC took was empty: data died together (each placement handle’s blocks held data rewritten at the same pace).',
    });
  }
  return out;
}

/**
 * Where the second's writes went on a drive with an SLC cache: into the cache (fast SLC-mode
 * programs), or, the cache full, straight into TLC/QLC or behind folding that makes room.
 */
function slcFindings(v: (field: string) => number, ctx: StoryContext): Finding[] {
  const native = typeof ctx.parameters['nand.cell'] === 'string' ? String(ctx.parameters['nand.cell']).toUpperCase() : 'TLC/QLC';
  const toSlc = v('host_to_slc');
  const fold = v('fold_mb_s');
  const folding = fold > 0 ? ` The drive folded ${format1(fold)} MB/s of cached data into ${native} blocks this second.` : '';
  if (toSlc >= 0.5) {
    return [
      {
        kind: 'state',
        text: `${formatPercent(toSlc)} of the data written this second went into the SLC cache (blocks run one bit a cell, the fastest programs); ${format1(v('slc_free_gb'))} GB of room was left.${folding}`,
      },
    ];
  }
  const full = v('slc_free_gb') < 0.5;
  const where =
    toSlc > 0
      ? `only ${formatPercent(toSlc)} of the writes went into SLC, the rest straight to ${native}`
      : `writes went straight to ${native}`;
  return [
    {
      kind: 'cause',
      text: `${full ? 'The SLC cache was full: ' : 'The SLC cache was not taking writes: '}${where}, whose programs take several times longer.${folding}${
        fold > 0 ? ' Folding reads SLC data back and programs it again on the same dies.' : ''
      }`,
    },
  ];
}

/** The firmware was throttling: over a temperature threshold it caps the host's writes until it cools. */
function throttleFinding(step: number, temperature: number, ctx: StoryContext): Finding {
  const at = (path: string) => {
    const list = ctx.parameters[path];
    return Array.isArray(list) && typeof list[step - 1] === 'number' ? (list[step - 1] as number) : NaN;
  };
  const above = at('thermal.throttle_above_c');
  const cap = at('thermal.throttle_mb_s');
  const hysteresis = typeof ctx.parameters['thermal.hysteresis_c'] === 'number' ? (ctx.parameters['thermal.hysteresis_c'] as number) : NaN;
  return {
    kind: 'cause',
    text:
      `The drive was throttling: at ${format1(temperature)} °C it had passed its throttle point` +
      (Number.isFinite(above) ? ` (${format1(above)} °C)` : '') +
      `, so the firmware slowed its writes${Number.isFinite(cap) ? ` to ${formatInt(cap)} MB/s` : ''} until it cools` +
      (Number.isFinite(above) && Number.isFinite(hysteresis) ? ` below ${format1(above - hysteresis)} °C` : '') +
      '. Better cooling (a heatsink, a fan) keeps it under that point.',
  };
}

function yesNo(v: number): string {
  return v > 0 ? 'yes' : 'no';
}

/** Latency percentile columns a newer engine may add: p99_latency_us, latency_p99_9_us, ... */
const PERCENTILE = /^(?:p(\d+(?:[._]\d+)?)_latency_us|latency_p(\d+(?:[._]\d+)?)_us)$/;

export function columnLabel(field: string): string {
  const known = COLUMNS[field];
  if (known) return known.label;
  const p = PERCENTILE.exec(field);
  if (p) return `${(p[1] ?? p[2]).replace('_', '.')}th percentile latency`;
  return field.replace(/_/g, ' ');
}

function columnFormat(field: string): (v: number) => string {
  if (COLUMNS[field]) return COLUMNS[field].format;
  if (PERCENTILE.test(field) || field.endsWith('_us')) return formatMicros;
  return format2;
}

/** Seconds either side compared with (the "typical" second). */
const AROUND_S = 60;

function median(values: number[]): number {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : NaN;
}

export interface StoryContext {
  /** The run's drive: path -> value (for GC thresholds and die counts). */
  parameters: Readonly<Record<string, unknown>>;
}

export function explainSecond(store: ColumnStore, second: number, ctx: StoryContext): SecondStory | null {
  const row = rowOf(store, second);
  if (row < 0) return null;
  const has = (f: string) => store.has(f) && Number.isFinite(store.column(f)[row]);
  const v = (f: string) => (store.has(f) ? store.column(f)[row] : NaN);
  const p = (path: string) => (typeof ctx.parameters[path] === 'number' ? (ctx.parameters[path] as number) : NaN);
  const xs = store.column('second');
  const [lo, hi] = rowsWithin(xs, second - AROUND_S, second + AROUND_S);
  const around = (f: string) => {
    if (!store.has(f)) return NaN;
    const col = store.column(f);
    const out: number[] = [];
    for (let i = lo; i < hi; i++) if (i !== row) out.push(col[i]);
    return median(out);
  };

  const findings: Finding[] = [];
  const iops = v('iops');
  const typical = around('iops');
  let headline = `Second ${second}: ${formatInt(iops)} IOs completed.`;
  if (Number.isFinite(typical) && typical > 0 && Number.isFinite(iops)) {
    const change = iops / typical - 1;
    const rel =
      Math.abs(change) < 0.1
        ? `about the ${formatInt(typical)} typical of the seconds around it`
        : change < 0
          ? `${formatPercent(-change)} below the ${formatInt(typical)} typical of the seconds around it`
          : `${formatPercent(change)} above the ${formatInt(typical)} typical of the seconds around it`;
    headline = `Second ${second}: ${formatInt(iops)} IOs completed, ${rel}.`;
  }

  if (has('iops') && iops === 0) {
    findings.push({
      kind: 'cause',
      text: 'No host command finished in this second: every command in the queue was waiting for the drive (or the host was resting).',
    });
  }
  if (has('read_only') && v('read_only') > 0) {
    findings.push({ kind: 'cause', text: 'The drive had worn out: its blocks reached their erase limit, so it refuses writes.' });
  }

  const boostBelow = p('gc.boost_below_free_blocks');
  const boostUntil = p('gc.boost_until_free_blocks');
  const gcStart = p('gc.start_free_blocks');
  const minFree = p('gc.min_free_blocks');
  const lazy = ctx.parameters['gc.pacing'] === 'lazy';
  const freePerDie = v('free_blocks_per_die');
  if (has('gc_boost') && v('gc_boost') > 0) {
    findings.push({
      kind: 'cause',
      text:
        `The drive-wide clean-up was running: free blocks had fallen below ${format1(boostBelow)} per die, so every die ` +
        `cleaned harder (until ${format1(boostUntil)} are free) and host writes waited their turn.`,
    });
  }
  if (has('gc_moves') || has('erases')) {
    const moves = v('gc_moves');
    const usual = around('gc_moves');
    const host = v('host_writes');
    const perWrite = host > 0 ? ` (${format2(moves / host)} for every page the host wrote)` : '';
    const vs =
      usual > 0 && moves > usual * 1.5
        ? `, ${format1(moves / usual)} times the usual ${formatInt(usual)}`
        : usual > 0 && moves < usual * 0.5
          ? `, less than the usual ${formatInt(usual)}`
          : '';
    if (moves > 0 || v('erases') > 0) {
      findings.push({
        kind: usual > 0 && moves > usual * 1.5 ? 'cause' : 'state',
        text:
          `Garbage collection copied ${formatInt(moves)} still-valid 4 KB pages${perWrite}${vs}, and erased ${formatInt(v('erases'))} ` +
          `blocks. Every copy uses the same flash dies the host's writes need.`,
      });
    } else {
      findings.push({
        kind: 'state',
        text: 'Garbage collection copied nothing and erased nothing: the drive still had clean blocks to write into.',
      });
    }
  }
  if (Number.isFinite(freePerDie)) {
    const levels: string[] = [];
    if (Number.isFinite(gcStart)) levels.push(`GC starts below ${format1(gcStart)}`);
    if (!lazy && Number.isFinite(boostBelow)) levels.push(`the drive-wide clean-up below ${format1(boostBelow)}`);
    if (lazy && Number.isFinite(minFree)) levels.push(`the host must wait at ${format1(minFree)}`);
    const low = lazy ? freePerDie <= minFree : freePerDie < boostBelow;
    findings.push({
      kind: low ? 'cause' : 'state',
      text: `Free blocks were at ${format1(freePerDie)} per die (${formatInt(v('free_blocks'))} in all)${levels.length ? `; ${levels.join(', ')}` : ''}.`,
    });
  }
  if (has('gc_active_dies')) {
    const dies = p('geometry.dies');
    const active = v('gc_active_dies');
    if (active > 0)
      findings.push({
        kind: 'state',
        text: `GC was working on ${formatInt(active)}${Number.isFinite(dies) ? ` of ${formatInt(dies)}` : ''} dies at the end of the second.`,
      });
  }
  if (has('wa_second') && v('host_writes') > 0) {
    const wa = v('wa_second');
    findings.push({
      kind: wa > 2 * Math.max(1, around('wa_second')) ? 'cause' : 'state',
      text: `Each page the host wrote cost ${format2(wa)} pages of flash writes this second (write amplification).`,
    });
  }
  if (has('write_buffering') && v('write_buffering') === 0 && v('host_writes') > 0) {
    findings.push({
      kind: 'cause',
      text:
        'The drive was writing through: with no working capacitors it acknowledges a write only once it is on flash, so every write waited for a program.' +
        (v('smart_flag') > 0 ? ' Its SMART warning was up: a self-test had found the capacitors failed.' : ''),
    });
  }
  if (has('buffer_percent') && v('buffer_percent') >= 90) {
    findings.push({
      kind: 'state',
      text: `The write buffer was ${formatPercent(v('buffer_percent') / 100)} full: each new write waited for the flash to take an older one.`,
    });
  }
  if (has('host_to_slc') && v('host_writes') > 0) findings.push(...slcFindings(v, ctx));
  findings.push(...placementFindings(v, ctx));
  if (has('throttle_step') && v('throttle_step') > 0) findings.push(throttleFinding(v('throttle_step'), v('temperature_c'), ctx));
  if (has('map_hit_rate') && v('map_hit_rate') < 0.999) {
    findings.push({
      kind: v('map_hit_rate') < 0.9 ? 'cause' : 'state',
      text: `${formatPercent(1 - v('map_hit_rate'))} of map lookups missed the map cache (the controller’s memory${
        has('map_hmb_hit_rate') && v('map_hmb_hit_rate') > 0 ? ' and the host memory buffer' : ''
      }); each miss read a map page from flash first.`,
    });
  }
  if (has('map_hmb_hit_rate') && v('map_hmb_hit_rate') >= 0.01) {
    findings.push({
      kind: 'state',
      text: `${formatPercent(v('map_hmb_hit_rate'))} of map lookups were answered by the host memory buffer: the drive has no DRAM of its own and keeps part of its map in the host’s, a PCIe round trip away.`,
    });
  }
  if (has('rmw_reads') && v('rmw_reads') > 0) {
    findings.push({
      kind: 'cause',
      text: `${formatInt(v('rmw_reads'))} writes covered only part of a 4 KB map unit, so the drive read the rest of each unit before rewriting it (read-modify-write).`,
    });
  }
  if (has('acknowledged_writes_lost') && v('acknowledged_writes_lost') > 0) {
    findings.push({
      kind: 'cause',
      text: `A power cut lost ${formatInt(v('acknowledged_writes_lost'))} writes the host had been told were done.`,
    });
  }
  if (has('mean_latency_us') && has('max_latency_us') && v('mean_latency_us') > 0) {
    const ratio = v('max_latency_us') / v('mean_latency_us');
    findings.push({
      kind: ratio > 20 ? 'cause' : 'note',
      text: `Commands took ${formatMicros(v('mean_latency_us'))} on average; the slowest took ${formatMicros(v('max_latency_us'))}${ratio >= 2 ? ` (${format1(ratio)} times the mean)` : ''}.`,
    });
  }
  const percentiles = store.fields.filter((f) => PERCENTILE.test(f) && has(f));
  if (percentiles.length > 0) {
    findings.push({
      kind: 'note',
      text: `Latency percentiles: ${percentiles.map((f) => `${columnLabel(f).replace(' latency', '')} ${formatMicros(v(f))}`).join(', ')}.`,
    });
  }
  if (findings.every((f) => f.kind !== 'cause') && Number.isFinite(typical) && iops < typical * 0.9) {
    findings.unshift({
      kind: 'note',
      text: 'Nothing stands out in this second’s counters: the dip comes from commands that were already queued behind earlier clean-up work.',
    });
  }
  // A second that was not slow has no causes to find, only the drive's state.
  const slow = !(Number.isFinite(typical) && typical > 0) || iops < typical * 0.9;
  if (!slow) for (const f of findings) if (f.kind === 'cause') f.kind = 'state';
  // Causes first, then the drive's state, then the rest.
  const order = { cause: 0, state: 1, note: 2 } as const;
  findings.sort((a, b) => order[a.kind] - order[b.kind]);

  const values = store.fields
    .filter((f) => f !== 'second' && has(f))
    .map((f) => ({ field: f, label: columnLabel(f), value: columnFormat(f)(v(f)) }));
  return { second, headline, findings, values };
}
