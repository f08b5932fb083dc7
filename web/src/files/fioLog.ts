// A real drive's fio log, read into per-second columns the charts draw beside a simulated run.
// fio writes one line per sample: `time_ms, value, ddir, bs[, offset][, priority[, issue_time]]`
// (the write_iops_log / write_lat_log / write_bw_log format: fio 2 wrote the first four, fio 3
// adds the priority, log_offset the offset, log_issue_time the issue time), and with
// `log_window_value=both` the window's maximum after its mean: `time_ms, mean, max, ddir, ...`.
// Which quantity the values are comes from the file name fio gives it (`*_iops.N.log`,
// `*_lat.N.log`, `*_clat.N.log`, `*_bw.N.log`).

import { format1 } from '../format';

export type FioLogKind = 'iops' | 'lat' | 'bw';

export interface FioLog {
  kind: FioLogKind;
  /** Columns named as the engine's samples: second, then iops and mb_s, or mean_latency_us. */
  fields: string[];
  columns: Float64Array[];
  /** Lines read, and a note about how the file was read (shown to the user). */
  lines: number;
  note: string;
}

export type FioParse = { log: FioLog; error?: undefined } | { error: string };

/** Longest log the page reads: a day of seconds at one sample per millisecond would be absurd. */
export const MAX_FIO_BYTES = 64 << 20;
const MAX_SECONDS = 7 * 86_400;

export function fioKind(fileName: string): { kind: FioLogKind; guessed: boolean } {
  const n = fileName.toLowerCase();
  if (/_(c|s)?lat(\.|_|$)/.test(n)) return { kind: 'lat', guessed: false };
  if (/_bw(\.|_|$)/.test(n)) return { kind: 'bw', guessed: false };
  if (/_iops(\.|_|$)/.test(n)) return { kind: 'iops', guessed: false };
  return { kind: 'iops', guessed: true };
}

const FORMAT = '"time_ms, value, ddir, bs[, offset][, priority[, issue_time]]" with numbers';

const isDirection = (p: string | undefined) => p === '0' || p === '1' || p === '2';

/** Whether the log has `log_window_value=both`'s extra column (the window's maximum) after the
 * value: every line has six numbers or more, the fourth a direction and the third (the maximum)
 * no less than the second (the mean), and some line's third is no direction. */
function hasWindowMax(rows: string[]): boolean {
  let maxNotDirection = false;
  for (const row of rows) {
    const line = row.trim();
    if (line === '' || line.startsWith('#')) continue;
    const parts = line.split(',').map((p) => p.trim());
    if (parts.length < 6 || !isDirection(parts[3]) || !(Number(parts[2]) >= Number(parts[1]))) return false;
    maxNotDirection ||= !isDirection(parts[2]);
  }
  return maxNotDirection;
}

/** fio's histogram logs (write_hist_log with log_hist_msec): `time, ddir, bs`, then a count per
 * latency bin (1216 with fio's defaults), named `*_clat_hist.N.log`. */
const HISTOGRAM_MIN_COLUMNS = 16;

/** Whether an IOPS or bandwidth log holds one line per I/O, as fio writes it without
 * log_avg_msec: every line carries its I/O's block size (an averaged window's line carries 0,
 * stat.c __add_stat_to_log), and an IOPS log's value is 1 (add_iops_sample; a bandwidth log's is
 * the I/O's own rate, add_bw_sample). */
function isPerIoLog(rows: string[], kind: FioLogKind, extra: number): boolean {
  if (kind === 'lat') return false;
  return rows.every((row) => {
    const line = row.trim();
    if (line === '' || line.startsWith('#')) return true;
    const parts = line.split(',');
    return Number(parts[3 + extra]) > 0 && (kind === 'bw' || Number(parts[1]) === 1);
  });
}

/** The time between an averaged log's samples, ms: the median gap between its distinct times
 * (log_avg_msec; fio's windows end a millisecond or so late each time: 1010, 2011, 3012 ms). */
function sampleGapMs(rows: string[]): number {
  const times = new Set<number>();
  for (const row of rows.slice(0, 20_000)) {
    const t = Number(row.split(',')[0]);
    if (row.trim() !== '' && !row.trim().startsWith('#') && Number.isFinite(t)) times.add(t);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const gaps = sorted.slice(1).map((t, i) => t - sorted[i]);
  return gaps.length > 0 ? gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)] : 1000;
}

/** Where a log's times count from, ms: 0, or with log_unix_epoch=1 (times since 1970, fio's HOWTO)
 * the start of its first sample's window: a first time past the days the page reads is no
 * zero-based time. A per-I/O log's first I/O starts it. */
function timeBaseMs(rows: string[], gapMs: number): number {
  let first = Infinity;
  for (const row of rows) {
    const t = Number(row.split(',')[0]);
    if (row.trim() !== '' && !row.trim().startsWith('#') && t < first) first = t;
  }
  return first > MAX_SECONDS * 1000 && Number.isFinite(first) ? first - gapMs : 0;
}

export function parseFioLog(fileName: string, text: string): FioParse {
  const { kind, guessed } = fioKind(fileName);
  // Per second and direction: sum of values, count and bytes (averaged, then directions combined).
  const sums = new Map<number, number[]>();
  let maxSecond = -1;
  let lines = 0;
  let blockBytes = 0;
  const rows = text.split(/\r?\n/);
  // The columns after the value move one on when each line also holds the window's maximum.
  const extra = hasWindowMax(rows) ? 1 : 0;
  // A per-I/O log counts its lines and their bytes a second; an averaged one means its rates.
  const perIo = isPerIoLog(rows, kind, extra);
  const gapMs = perIo ? 0 : sampleGapMs(rows);
  const baseMs = timeBaseMs(rows, gapMs);
  for (let i = 0; i < rows.length; i++) {
    const line = rows[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const parts = line.split(',').map((p) => p.trim());
    const where = `${fileName}, line ${i + 1}`;
    if (parts.length >= HISTOGRAM_MIN_COLUMNS) {
      return {
        error: `${where}: is a latency histogram log (write_hist_log: time, direction, block size, then ${parts.length - 3} bin counts); the page reads fio's latency, IOPS and bandwidth logs (write_lat_log's *_clat.N.log, write_iops_log, write_bw_log)`,
      };
    }
    // fio writes the priority in hexadecimal with log_prio (0x2004), as Number reads it.
    if (parts.length < 4 + extra || parts.length > 7 + extra || parts.some((p) => p === '' || !Number.isFinite(Number(p)))) {
      const other = otherOutput(text);
      if (other) return { error: `${fileName}: is ${other}; the page reads fio's logs (write_iops_log, write_lat_log, write_bw_log)` };
      return { error: `${where}: expected ${FORMAT} (got "${clip(line)}")` };
    }
    const [stamp, value] = parts.slice(0, 2).map(Number);
    const t = stamp - baseMs;
    const [ddir, bs] = parts.slice(2 + extra, 4 + extra).map(Number);
    if (t < 0) return { error: `${where}: the time must be 0 ms or later (got ${t})` };
    if (value < 0) return { error: `${where}: the value must be 0 or more (got ${value})` };
    if (![0, 1, 2].includes(ddir))
      return { error: `${where}: the direction must be 0 (read), 1 (write) or 2 (trim) (got ${parts[2 + extra]})` };
    // fio stamps an averaged sample at the end of the window it covers, a little late (1010 ms
    // is the first second's), so it goes in the second of the window's middle; a per-I/O one when
    // its I/O completed (1000 ms is the second second).
    const second = perIo ? Math.floor(t / 1000) : Math.max(0, Math.floor((t - gapMs / 2) / 1000));
    if (second > MAX_SECONDS) return { error: `${where}: ${t} ms is past the ${MAX_SECONDS / 86_400} days the page reads` };
    const slot = sums.get(second) ?? [0, 0, 0, 0, 0, 0, 0, 0, 0];
    slot[ddir * 3] += value;
    slot[ddir * 3 + 1] += 1;
    slot[ddir * 3 + 2] += bs;
    sums.set(second, slot);
    if (second > maxSecond) maxSecond = second;
    if (bs > 0) blockBytes = bs;
    lines++;
  }
  if (lines === 0) return { error: `${fileName}: has no samples (expected lines of ${FORMAT})` };

  const n = maxSecond + 1;
  const second = new Float64Array(n);
  const a = new Float64Array(n).fill(NaN);
  const b = new Float64Array(n).fill(NaN);
  for (let s = 0; s < n; s++) {
    second[s] = s;
    const slot = sums.get(s);
    if (!slot) {
      // A second in a per-I/O log with no line is one in which no I/O completed.
      if (perIo) a[s] = b[s] = 0;
      continue;
    }
    let total = 0;
    let directions = 0;
    let ios = 0;
    let bytes = 0;
    for (let d = 0; d < 3; d++) {
      if (slot[d * 3 + 1] === 0) continue;
      total += slot[d * 3] / slot[d * 3 + 1];
      directions++;
      ios += slot[d * 3 + 1];
      bytes += slot[d * 3 + 2];
    }
    if (perIo) {
      // The I/Os that completed in the second and their bytes: a per-I/O bandwidth line's value
      // is that one I/O's rate, which says nothing of the second's.
      a[s] = ios;
      b[s] = bytes / 1e6;
    } else if (kind === 'iops') {
      a[s] = total;
      b[s] = blockBytes > 0 ? (total * blockBytes) / 1e6 : NaN;
    } else if (kind === 'bw') {
      // KiB/s, as fio logs bandwidth.
      a[s] = blockBytes > 0 ? (total * 1024) / blockBytes : NaN;
      b[s] = (total * 1024) / 1e6;
    } else {
      // Nanoseconds, fio 3's unit for latency logs; the mean over directions.
      a[s] = total / directions / 1000;
    }
  }
  const epochNote = baseMs > 0 ? ', stamped from the Unix epoch (log_unix_epoch=1): read from its first sample' : '';
  const perIoNote = perIo ? ', one line per I/O (no log_avg_msec): the I/Os and bytes completed in each second' : '';
  const named = guessed
    ? ' (its name does not say, so it was read as an IOPS log; fio names them *_iops.N.log, *_lat.N.log, *_bw.N.log)'
    : '';
  const log: FioLog =
    kind === 'lat'
      ? { kind, fields: ['second', 'mean_latency_us'], columns: [second, a], lines, note: `latency of ${n} s${epochNote}${named}` }
      : {
          kind,
          fields: ['second', 'iops', 'mb_s'],
          columns: [second, a, b],
          lines,
          note: `${kind === 'bw' ? 'bandwidth' : 'IOPS'} of ${n} s${perIoNote}${epochNote}${named}`,
        };
  return { log };
}

/** What else fio writes, told by its first lines: its JSON, terse or normal output (a file of
 * results, not of samples over time). */
function otherOutput(text: string): string | null {
  const head = text.slice(0, 4096);
  // A terse line may follow the normal output's job lines (fio --minimal on a terminal).
  const terse = /^(\d+);fio-/m.exec(head);
  if (terse) return `fio's terse output (--minimal, version ${terse[1]}): one line of results per job, no samples over time`;
  if (head.trimStart().startsWith('{')) return "fio's JSON output (--output-format=json or json+): results, no samples over time";
  if (/^\S.*: \(g=\d+\): rw=/m.test(head)) return "fio's normal output: results, no samples over time";
  return null;
}

function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** A dropped or picked file read as a fio log, or why it cannot be (naming the file). */
export async function readFioLog(file: Pick<File, 'name' | 'size' | 'text'>): Promise<FioParse> {
  if (file.size > MAX_FIO_BYTES) {
    return { error: `${file.name}: is ${format1(file.size / 2 ** 20)} MiB; the page reads fio logs up to ${MAX_FIO_BYTES / 2 ** 20} MiB` };
  }
  let text: string;
  try {
    text = await file.text();
  } catch {
    return { error: `${file.name}: could not be read` };
  }
  return parseFioLog(file.name, text);
}
