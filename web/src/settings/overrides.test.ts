import { describe, expect, it } from 'vitest';
import { checkOverride, parseValue } from './overrides';

describe('parameter overrides', () => {
  it('types values as the CLI does: booleans, numbers, else names', () => {
    expect(parseValue('true')).toBe(true);
    expect(parseValue(' false ')).toBe(false);
    expect(parseValue('1500000')).toBe(1_500_000);
    expect(parseValue('0.5')).toBe(0.5);
    expect(parseValue('1e6')).toBe(1_000_000);
    expect(parseValue('cost-benefit')).toBe('cost-benefit');
    expect(parseValue('12abc')).toBe('12abc');
  });

  it('names a path that is not one, or a missing value', () => {
    expect(checkOverride('gc.pacing', 'lazy')).toBeNull();
    expect(checkOverride('map scheme', 'tree')).toBe('"map scheme" is not a parameter path like gc.pacing');
    expect(checkOverride('gc.victim', ' ')).toBe('gc.victim: needs a value after "="');
  });
});
