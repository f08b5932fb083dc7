import { describe, expect, it } from 'vitest';
import { formatOverrides, parseOverrides, parseValue } from './overrides';

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

  it('reads one path=value per line, skipping blanks and comments; a later line wins', () => {
    const text = 'gc.pacing = lazy\n\n# slower NAND\ntiming.program_ns=1500000\ngc.pacing=consistency-first\n';
    expect(parseOverrides(text)).toEqual({
      overrides: { 'gc.pacing': 'consistency-first', 'timing.program_ns': 1_500_000 },
      errors: [],
    });
  });

  it('names each bad line and what was expected', () => {
    const { overrides, errors } = parseOverrides('gc.pacing\nmap scheme=tree\ngc.victim=\npower.capacitors=false');
    expect(overrides).toEqual({ 'power.capacitors': false });
    expect(errors).toEqual([
      'line 1: expected path=value (got "gc.pacing")',
      'line 2: "map scheme" is not a parameter path like gc.pacing',
      'line 3: gc.victim: needs a value after "="',
    ]);
  });

  it('formats back to the same lines', () => {
    const o = { 'gc.pacing': 'lazy', 'power.volatile_cache': true, 'map.cache_bytes': 1_048_576 };
    expect(formatOverrides(o)).toBe('gc.pacing=lazy\npower.volatile_cache=true\nmap.cache_bytes=1048576');
    expect(parseOverrides(formatOverrides(o)).overrides).toEqual(o);
  });
});
