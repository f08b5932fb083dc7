import { describe, expect, it } from 'vitest';
import { secondForKey } from './hover';

describe('secondForKey', () => {
  const range: [number, number] = [10, 50];

  it('moves by one, or ten with Shift, and starts from the last second when none is hovered', () => {
    expect(secondForKey('ArrowRight', false, 20, range)).toBe(21);
    expect(secondForKey('ArrowLeft', true, 20, range)).toBe(10);
    expect(secondForKey('ArrowLeft', false, null, range)).toBe(50);
    expect(secondForKey('ArrowRight', false, null, range)).toBe(50);
  });

  it('jumps to the ends and stays within the seconds in view', () => {
    expect(secondForKey('Home', false, 30, range)).toBe(10);
    expect(secondForKey('End', false, null, range)).toBe(50);
    expect(secondForKey('ArrowRight', true, 45, range)).toBe(50);
    expect(secondForKey('ArrowLeft', true, 12, range)).toBe(10);
  });

  it('leaves other keys to the chart', () => {
    expect(secondForKey('Enter', false, 20, range)).toBeNull();
    expect(secondForKey('a', false, 20, range)).toBeNull();
  });
});
