import { describe, expect, it } from 'vitest';
import {
  LOG_FLOOR,
  Mark,
  classifyY,
  columnMax,
  columnQuantile,
  formatCount,
  logMinorTicks,
  logTicks,
  logTop,
  refLabelSlots,
  makeYScale,
  resolveYDomain,
  yTicks,
} from './scales';
import { rowsWithin } from '../data/columns';
import { resolveXDomain, viewLabel } from '../data/views';
import { consistency } from '../scenarios/consistency';

describe('log axis', () => {
  it('starts at 1 and tops out at 100K unless the data goes higher', () => {
    expect(resolveYDomain({ kind: 'log' }, 35_000)).toEqual([LOG_FLOOR, 100_000]);
    expect(resolveYDomain({ kind: 'log' }, NaN)).toEqual([1, 100_000]);
    expect(logTop(100_000)).toBe(100_000);
    expect(logTop(100_001)).toBe(1_000_000);
    expect(logTop(2_500_000)).toBe(10_000_000);
  });

  it('ticks at powers of ten, labelled 1, 10, 100, 1K, 10K, 100K', () => {
    const ticks = logTicks([1, 100_000]);
    expect(ticks).toEqual([1, 10, 100, 1000, 10_000, 100_000]);
    expect(ticks.map(formatCount)).toEqual(['1', '10', '100', '1K', '10K', '100K']);
    expect(formatCount(1_000_000)).toBe('1M');
    expect(formatCount(2500)).toBe('2.5K');
    expect(formatCount(0)).toBe('0');
  });

  it('has minor gridlines 2..9 inside each decade', () => {
    const minor = logMinorTicks([1, 100]);
    expect(minor).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it('keeps seconds with 0 IOPS, clamped to the floor with their own mark', () => {
    const out: [number] = [NaN];
    expect(classifyY(0, 'log', [1, 100_000], out)).toBe(Mark.ZeroAtFloor);
    expect(out[0]).toBe(1);
    expect(classifyY(-3, 'log', [1, 100_000], out)).toBe(Mark.ZeroAtFloor);
    expect(classifyY(0.4, 'log', [1, 100_000], out)).toBe(Mark.Dot);
    expect(out[0]).toBe(1);
    expect(classifyY(31_000, 'log', [1, 100_000], out)).toBe(Mark.Dot);
    expect(out[0]).toBe(31_000);
    expect(classifyY(NaN, 'log', [1, 100_000], out)).toBe(Mark.None);
  });

  it('maps the floor to the bottom of the plot, not to -Infinity', () => {
    const y = makeYScale('log', [1, 100_000], [400, 0]);
    const out: [number] = [NaN];
    classifyY(0, 'log', [1, 100_000], out);
    expect(y(out[0])).toBe(400);
    expect(y(100_000)).toBe(0);
    expect(y(1000)).toBeCloseTo(160);
  });
});

describe('linear axis', () => {
  it('uses the fixed 0-40K range and flags seconds above it', () => {
    const domain = resolveYDomain({ kind: 'linear', max: 40_000 }, 70_000);
    expect(domain).toEqual([0, 40_000]);
    const out: [number] = [NaN];
    expect(classifyY(66_000, 'linear', domain, out)).toBe(Mark.AboveTop);
    expect(out[0]).toBe(40_000);
    expect(classifyY(0, 'linear', domain, out)).toBe(Mark.Dot);
    expect(out[0]).toBe(0);
    expect(yTicks('linear', domain)).toEqual([0, 5000, 10_000, 15_000, 20_000, 25_000, 30_000, 35_000, 40_000]);
  });

  it('fits the steady state of a fast drive instead of pinning it to a fixed top', () => {
    // P3700 seconds around 60-75K IOPS: the top lands just above them, every dot inside.
    const domain = resolveYDomain(consistency.views[2].y, 74_800);
    expect(domain[1]).toBeGreaterThanOrEqual(74_800);
    expect(domain[1]).toBeLessThanOrEqual(90_000);
    expect(classifyY(74_800, 'linear', domain, [NaN])).toBe(Mark.Dot);
  });

  it('finds the rows of the seconds in view', () => {
    const xs = new Float64Array([0, 1, 2, 3, 4, 5]);
    expect(rowsWithin(xs, 2, 4)).toEqual([2, 5]);
    expect(rowsWithin(xs, 10, 20)).toEqual([6, 6]);
  });

  it('fits a round top to the data when no top is fixed, on a tick', () => {
    expect(resolveYDomain({ kind: 'linear' }, 1.73)).toEqual([0, 2]);
    expect(resolveYDomain({ kind: 'linear' }, NaN)).toEqual([0, 1]);
    // A short chart has fewer ticks, and its top is still one of them.
    const short = resolveYDomain({ kind: 'linear' }, 1.19, 142);
    expect(yTicks('linear', short, 142).at(-1)).toBe(short[1]);
  });
});

describe('views', () => {
  const [whole, steadyLog, steadyLinear] = consistency.views;

  it('cover the whole run and the steady state from 1400 s of a 2000 s run', () => {
    expect(resolveXDomain(whole, 2000)).toEqual([0, 2000]);
    expect(resolveXDomain(steadyLog, 2000)).toEqual([1400, 2000]);
    expect(viewLabel(whole, 2000)).toBe('Whole run (log)');
    expect(viewLabel(steadyLog, 2000)).toBe('From 1400 s (log)');
    expect(viewLabel(steadyLinear, 2000)).toBe('From 1400 s (linear)');
  });

  it('start a short run’s steady state at 70% of the run', () => {
    expect(resolveXDomain(steadyLog, 300)).toEqual([210, 300]);
    expect(viewLabel(steadyLinear, 300)).toBe('From 210 s (linear)');
  });
});

describe('columnQuantile', () => {
  it('ignores NaN and rare outliers', () => {
    const col = new Float64Array(100).map((_, i) => 1 + i / 100);
    col[7] = 180; // one bulk clean-up second
    col[8] = NaN;
    expect(columnQuantile(col, 0.98)).toBeLessThan(2);
    expect(columnQuantile(col, 1)).toBe(180);
    expect(columnQuantile(new Float64Array([NaN]), 0.98)).toBeNaN();
  });
});

describe('columnMax', () => {
  it('ignores NaN and returns NaN for an empty column', () => {
    expect(columnMax(new Float64Array([3, NaN, 7, 1]))).toBe(7);
    expect(columnMax(new Float64Array(0))).toBeNaN();
  });
});

describe('refLabelSlots', () => {
  it('moves a label left only when another sits within a label height of it', () => {
    expect(refLabelSlots([10, 50, 90])).toEqual([0, 0, 0]);
    // 24 and 22 free blocks a few pixels apart: the second label moves one slot left.
    expect(refLabelSlots([40, 46, 80])).toEqual([0, 1, 0]);
    expect(refLabelSlots([40, 44, 48])).toEqual([0, 1, 2]);
    expect(refLabelSlots([40, 44, 60])).toEqual([0, 1, 0]);
  });
});
