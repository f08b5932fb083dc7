import { describe, expect, it } from 'vitest';
import { nextSliceIos, SLICE_MAX_IOS, SLICE_MIN_IOS, soon } from './slices';

describe('nextSliceIos', () => {
  it('moves toward the target and stays within bounds', () => {
    expect(nextSliceIos(100_000, 100)).toBe(100_000);
    expect(nextSliceIos(100_000, 400)).toBe(50_000);
    expect(nextSliceIos(100_000, 25)).toBe(200_000);
    expect(nextSliceIos(SLICE_MAX_IOS, 1)).toBe(SLICE_MAX_IOS);
    expect(nextSliceIos(SLICE_MIN_IOS, 10_000)).toBe(SLICE_MIN_IOS);
    expect(nextSliceIos(1000, 0)).toBe(2000);
  });
});

describe('soon', () => {
  it('runs each function once, in order, after the caller has returned, also when one schedules the next', async () => {
    const ran: string[] = [];
    await new Promise<void>((done) => {
      soon(() => ran.push('a'));
      soon(() => {
        ran.push('b');
        soon(() => {
          ran.push('d');
          done();
        });
      });
      soon(() => ran.push('c'));
      ran.push('caller');
    });
    expect(ran).toEqual(['caller', 'a', 'b', 'c', 'd']);
  });
});
