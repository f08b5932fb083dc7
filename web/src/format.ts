// Every number format the page shows (and writes into exports), in one place.

/**
 * An en-US number format (thousands separators, between `minimumFractionDigits` and
 * `maximumFractionDigits` decimals), written out here rather than by Intl.NumberFormat: the first
 * Intl format a page builds loads the locale's data in one 10-80 ms task, the longest of a cold
 * visit after the first render. Like V8's Intl it rounds the shortest decimal that reads back as
 * the number (String(v)) half away from zero (format.test.ts compares the two); values past 1e21,
 * which String() writes with an exponent, go to Intl.
 */
export function numberFormat(options: { minimumFractionDigits?: number; maximumFractionDigits: number }): { format(v: number): string } {
  const min = options.minimumFractionDigits ?? 0;
  const max = options.maximumFractionDigits;
  let intl: Intl.NumberFormat | null = null;
  return {
    format(v: number): string {
      if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '∞' : '-∞';
      const text = String(Math.abs(v));
      if (Math.abs(v) >= 1e21)
        return (intl ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max })).format(v);
      // Below 1e-6 String() writes an exponent; such a number has no digit in the first six decimals.
      const [whole, fraction = ''] = text.includes('e') ? ['0', ''] : text.split('.');
      let digits = whole + fraction.slice(0, max).padEnd(max, '0');
      if ((fraction[max] ?? '0') >= '5') digits = addOne(digits);
      const wholeDigits = digits.slice(0, digits.length - max) || '0';
      let decimals = digits.slice(digits.length - max);
      while (decimals.length > min && decimals.endsWith('0')) decimals = decimals.slice(0, -1);
      const grouped = wholeDigits.replace(/\B(?=(\d{3})+$)/g, ',');
      return `${v < 0 || Object.is(v, -0) ? '-' : ''}${grouped}${decimals ? `.${decimals}` : ''}`;
    },
  };
}

/** A string of decimal digits plus one ("0999" -> "1000"). */
function addOne(digits: string): string {
  const out = digits.split('');
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i] !== '9') {
      out[i] = String(Number(out[i]) + 1);
      return out.join('');
    }
    out[i] = '0';
  }
  return `1${out.join('')}`;
}
const nf = (min: number, max: number) => numberFormat({ minimumFractionDigits: min, maximumFractionDigits: max });
const NF0 = nf(0, 0);
const NF1 = nf(0, 1);
const NF2 = nf(0, 2);
const NF2_FIXED = nf(2, 2);
const NF_PLAIN = nf(0, 3);

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
 * A number written in decimal (`600`, `-0.5`, `.25`, `1e3`), else NaN: a link's or a field's
 * numbers are decimal only, where `Number()` would also read `0x10`, `0b11` and `0o17`.
 */
export function parseDecimal(text: string): number {
  const t = text.trim();
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : NaN;
}

/** As `v.toLocaleString('en-US')` writes it: up to three decimals (1,000, 0.125). */
export const formatPlain = (v: number): string => NF_PLAIN.format(v);
/** A range as every message of the page words it: "a whole number from 1 to 86,400". */
export const rangeWords = (min: number, max: number, whole: boolean): string =>
  `${whole ? 'a whole number' : 'a number'} from ${formatPlain(min)} to ${formatPlain(max)}`;
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
  if (bytes >= 1 << 20 && (bytes * 2) % (1 << 20) === 0) return `${bytes / (1 << 20)} MB`;
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

/** `text` cut at its backticks: the odd pieces are names to show as code (a field, a column, a
 * command), as the engine's descriptions quote them. Unpaired backticks stay as they are. */
export function codeSpans(text: string): { text: string; code: boolean }[] {
  const pieces = text.split('`');
  if (pieces.length % 2 === 0) return [{ text, code: false }];
  return pieces.map((t, i) => ({ text: t, code: i % 2 === 1 })).filter((p) => p.text !== '');
}
