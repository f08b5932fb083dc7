import { describe, expect, it } from 'vitest';
import {
  codeSpans,
  formatBytes,
  formatDuration,
  formatFixed2,
  formatInt,
  formatSpeed,
  numberFormat,
  parseDecimal,
  rustNumber,
} from './format';

describe("rustNumber writes numbers as Rust's {} does (the CLI's CSV)", () => {
  it('keeps integers without a decimal point and shortest round-trip fractions', () => {
    expect(rustNumber(29150)).toBe('29150');
    expect(rustNumber(1.6)).toBe('1.6');
    expect(rustNumber(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(rustNumber(-3)).toBe('-3');
  });
  it('never uses exponent notation', () => {
    expect(rustNumber(1e21)).toBe('1000000000000000000000');
    expect(rustNumber(1.5e-7)).toBe('0.00000015');
    expect(rustNumber(-2.5e-8)).toBe('-0.000000025');
    expect(rustNumber(1.2345e22)).toBe('12345000000000000000000');
  });
  it('spells the special values as Rust does', () => {
    expect(rustNumber(NaN)).toBe('NaN');
    expect(rustNumber(Infinity)).toBe('inf');
    expect(rustNumber(-Infinity)).toBe('-inf');
    expect(rustNumber(-0)).toBe('-0');
    expect(rustNumber(0)).toBe('0');
  });
});

describe('page formats', () => {
  it('name request sizes, durations and speeds', () => {
    expect(formatBytes(4096)).toBe('4 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1 << 20)).toBe('1 MB');
    expect(formatBytes(3 << 19)).toBe('1.5 MB');
    expect(formatBytes((1 << 20) + 4096)).toBe('1028 KB');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(200)).toBe('3 min 20 s');
    expect(formatDuration(3900)).toBe('1 h 5 min');
    expect(formatSpeed(12.4)).toBe('12×');
    expect(formatSpeed(0.46)).toBe('0.5×');
    expect(formatSpeed(NaN)).toBe('–');
  });
});

describe('the number formats', () => {
  it('write what Intl.NumberFormat en-US writes, without loading it', () => {
    // Values of every size and sign, halves, and the page's usual ones (IOPS, MB/s, ratios).
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const values = [
      0,
      1e-7,
      1,
      0.5,
      0.05,
      0.95,
      9.995,
      1.5,
      2.5,
      0.125,
      0.0005,
      999.95,
      999_999.5,
      1234.5678,
      29150,
      34865.04,
      1e15,
      123456789.987,
      0.1 + 0.2,
    ];
    for (let i = 0; i < 500; i++) values.push(random() * 10 ** Math.floor(Math.abs(random()) * 12));
    for (const [min, max] of [
      [0, 0],
      [0, 1],
      [0, 2],
      [2, 2],
      [0, 3],
      [0, 4],
    ]) {
      const ours = numberFormat({ minimumFractionDigits: min, maximumFractionDigits: max });
      const intl = new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });
      for (const v of values.flatMap((x) => [x, -x])) {
        expect(ours.format(v), `${v} with ${min}-${max} decimals`).toBe(intl.format(v));
      }
    }
    expect(formatInt(1234567.4)).toBe('1,234,567');
    expect(formatFixed2(1.2)).toBe('1.20');
    expect(numberFormat({ maximumFractionDigits: 0 }).format(Infinity)).toBe('∞');
  });
});

describe('parseDecimal', () => {
  it('reads decimal numbers only', () => {
    expect([' 600 ', '-0.5', '.25', '5.', '1e3', '+7'].map(parseDecimal)).toEqual([600, -0.5, 0.25, 5, 1000, 7]);
    // Number() reads these as 16, 3, 15, Infinity and 0.
    expect(['0x10', '0b11', '0o17', 'Infinity', '', '1_000', '12abc'].map(parseDecimal)).toEqual([NaN, NaN, NaN, NaN, NaN, NaN, NaN]);
  });
});

describe('codeSpans', () => {
  it('shows the backticked names as code and leaves unpaired backticks as text', () => {
    expect(codeSpans('ends when written (`seconds`, if given, is the most)')).toEqual([
      { text: 'ends when written (', code: false },
      { text: 'seconds', code: true },
      { text: ', if given, is the most)', code: false },
    ]);
    expect(codeSpans('`a` and `b`')).toEqual([
      { text: 'a', code: true },
      { text: ' and ', code: false },
      { text: 'b', code: true },
    ]);
    expect(codeSpans('a stray ` here')).toEqual([{ text: 'a stray ` here', code: false }]);
    expect(codeSpans('plain')).toEqual([{ text: 'plain', code: false }]);
  });
});
