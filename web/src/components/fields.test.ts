import { describe, expect, it } from 'vitest';
import { parseNumberText } from './fields';

describe('number fields name the control and its range', () => {
  it('accepts values in range and refuses the rest with the reason', () => {
    expect(parseNumberText('Duration', '600', 1, 86_400, true)).toEqual({ value: 600 });
    expect(parseNumberText('Duration', '99999999', 1, 86_400, true)).toEqual({
      error: 'Duration: must be a whole number from 1 to 86,400 (got 99999999)',
    });
    expect(parseNumberText('Duration', '-5', 1, 86_400, true).error).toBe('Duration: must be a whole number from 1 to 86,400 (got -5)');
    expect(parseNumberText('Duration', '12.5', 1, 86_400, true).error).toBe('Duration: must be a whole number (got 12.5)');
    expect(parseNumberText('Data shrinks by', 'lots', 0, 0.9, false).error).toBe(
      'Data shrinks by: must be a number from 0 to 0.9 (got "lots")',
    );
  });
});
