// Every number format the page shows (and writes into exports), in one place.

/**
 * An en-US number format made on first use: the first one built loads the locale's data, which
 * at start-up would lengthen the script's first task by 10-15 ms on the shared test machine.
 */
export function numberFormat(options: Intl.NumberFormatOptions): { format(v: number): string } {
  let made: Intl.NumberFormat | null = null;
  return { format: (v: number) => (made ??= new Intl.NumberFormat('en-US', options)).format(v) };
}
const nf = (min: number, max: number) => numberFormat({ minimumFractionDigits: min, maximumFractionDigits: max });
const NF0 = nf(0, 0);
const NF1 = nf(0, 1);
const NF2 = nf(0, 2);
const NF2_FIXED = nf(2, 2);
const NF_PLAIN = nf(0, 3);

/**
 * Builds every format now, in an idle moment after the page has drawn itself: the first one
 * loads the locale's data (~10 ms), which otherwise fell into the task of the first Start click.
 */
export function warmFormats(): void {
  for (const f of [NF0, NF1, NF2, NF2_FIXED, NF_PLAIN]) f.format(0);
}

const finite = (v: number | undefined): v is number => v !== undefined && Number.isFinite(v);
/** Shown where a value is not known (yet). */
export const NONE = '–';

/** 12,345 (whole, with thousands separators). */
export const formatInt = (v: number | undefined): string => (finite(v) ? NF0.format(v) : NONE);
/** Up to one decimal: 12.5, 3. */
export const format1 = (v: number | undefined): string => (finite(v) ? NF1.format(v) : NONE);
/** Up to two decimals: 1.25, 0.5. */
export const format2 = (v: number | undefined): string => (finite(v) ? NF2.format(v) : NONE);
/**
 * As `v.toLocaleString('en-US')` writes it (up to three decimals: 1,000, 0.125), from one
 * format: toLocaleString builds a new one at each call, 1-2 ms each when a form's fields mount.
 */
export const formatPlain = (v: number): string => NF_PLAIN.format(v);
/** Exactly two decimals: 1.20 (write amplification). */
export const formatFixed2 = (v: number | undefined): string => (finite(v) ? NF2_FIXED.format(v) : NONE);

/** Tick labels in the articles' style: 1, 10, 100, 1K, 10K, 100K, 1M, 2.5K. */
export function formatCount(v: number): string {
  const a = Math.abs(v);
  const trim = (x: number) => String(Number(x.toFixed(1)));
  if (a >= 1e9) return `${trim(v / 1e9)}G`;
  if (a >= 1e6) return `${trim(v / 1e6)}M`;
  if (a >= 1e3) return `${trim(v / 1e3)}K`;
  return trim(v);
}

/** A request size: 4 KB, 1.5 KB, 512 B. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 && (bytes * 2) % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} B`;
}

/** Decimal units, as drive vendors quote them: 200 GB, 1.6 TB. */
export function formatVendorCapacity(bytes: number): string {
  const gb = bytes / 1e9;
  if (gb >= 1000) return `${trimNumber(gb / 1000, 2)} TB`;
  if (gb >= 100) return `${Math.round(gb)} GB`;
  if (gb >= 10) return `${trimNumber(gb, 1)} GB`;
  return `${trimNumber(gb, 2)} GB`;
}

/** Binary units for memory: 512 MiB, 1.2 GiB. */
export function formatMemory(bytes: number): string {
  if (!(bytes >= 0)) return NONE;
  const mib = bytes / 2 ** 20;
  if (mib >= 1024) return `${trimNumber(mib / 1024, 2)} GiB`;
  if (mib >= 10) return `${Math.round(mib)} MiB`;
  return `${trimNumber(mib, 1)} MiB`;
}

/** A fraction as a percentage: 27%, 7.5%. */
export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return NONE;
  const pct = fraction * 100;
  return Math.abs(pct) >= 10 ? `${Math.round(pct)}%` : `${trimNumber(pct, 1)}%`;
}

/** Microseconds on an axis: 250 µs, 1.5 ms, 2 s. */
export function formatMicros(v: number): string {
  if (v >= 1e6) return `${trimNumber(v / 1e6, 1)} s`;
  if (v >= 1000) return `${trimNumber(v / 1000, 1)} ms`;
  return `${trimNumber(v, 1)} µs`;
}

/** A wall-clock duration for "time left": 45 s, 3 min 20 s, 1 h 5 min. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return NONE;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/** Simulated seconds per wall-clock second: 12×, 0.5×. */
export function formatSpeed(v: number): string {
  if (!Number.isFinite(v) || v <= 0) return NONE;
  return `${v >= 10 ? NF0.format(v) : trimNumber(v, 1)}×`;
}

function trimNumber(v: number, decimals: number): string {
  return String(Number(v.toFixed(decimals)));
}

/**
 * A number as Rust's `format!("{}", f64)` writes it (the `ssdlab run --csv` columns): the
 * shortest digits that read back to the same value, never an exponent, integers without ".0",
 * NaN as "NaN", infinities as "inf" / "-inf", and negative zero as "-0".
 */
export function rustNumber(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const s = String(v); // JavaScript's shortest round-trip digits, as Rust's
  const e = s.indexOf('e');
  if (e < 0) return s;
  // Expand d.ddde±x into plain decimal notation.
  const negative = s.startsWith('-');
  const mantissa = s.slice(negative ? 1 : 0, e);
  const exponent = Number(s.slice(e + 1));
  const [whole, frac = ''] = mantissa.split('.');
  const digits = whole + frac;
  const point = whole.length + exponent;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${out}` : out;
}
