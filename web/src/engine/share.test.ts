import { describe, expect, it } from 'vitest';
import { CORES_LEFT_TO_PAGE, fillsAtOnce, MIN_SHARE, restMs, shareOf } from './share';

describe('engine shares of the cores', () => {
  it('keeps the computing engines within the cores less what the page needs, and never holds back a lone run', () => {
    for (let cores = 1; cores <= 16; cores++) {
      const budget = Math.max(1, cores - CORES_LEFT_TO_PAGE);
      expect(shareOf(1, cores)).toBe(1);
      for (let running = 1; running <= 4; running++) {
        const share = shareOf(running, cores);
        expect(share).toBeGreaterThan(0);
        expect(share).toBeLessThanOrEqual(1);
        // All of the budget when the runs need it, no more; a whole core each when it is enough.
        expect(running * share).toBeCloseTo(Math.min(running, budget));
      }
    }
  });

  it('reads a machine that does not say its cores as one core', () => {
    for (const cores of [NaN, 0, undefined as unknown as number]) expect(shareOf(4, cores)).toBe(shareOf(4, 1));
    expect(shareOf(0, 2)).toBe(1);
  });

  it('rests so that a slice and its rest keep the duty cycle at the share', () => {
    for (const share of [0.25, 0.375, 0.5, 0.75]) {
      for (const busy of [3, 40, 120]) expect(busy / (busy + restMs(busy, share))).toBeCloseTo(share);
    }
    expect(restMs(100, 1)).toBe(0);
    expect(restMs(0, 0.5)).toBe(0);
  });
  it('fills one drive at a time on 2 cores and more on more, and takes the fills’ cores from the budget first', () => {
    expect(fillsAtOnce(2)).toBe(1);
    expect(fillsAtOnce(4)).toBe(3);
    expect(fillsAtOnce(1)).toBe(1);
    expect(fillsAtOnce(NaN)).toBe(1);
    expect(shareOf(1, 2, 1)).toBeCloseTo(2 - CORES_LEFT_TO_PAGE - 1);
    expect(shareOf(3, 8, 2)).toBe(1);
    expect(shareOf(2, 1, 1)).toBe(MIN_SHARE); // a share is never 0
    expect(shareOf(0, 2, 1)).toBe(1); // nothing computes: nothing to pace
  });
});
