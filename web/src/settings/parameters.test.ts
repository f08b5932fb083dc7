import { describe, expect, it } from 'vitest';
import type { ParameterInfo } from '../engine/protocol';
import { groupParameters, parseParameter, rangeText, unitOf } from './parameters';

const info = (path: string, more: Partial<ParameterInfo> = {}): ParameterInfo => ({
  path,
  value: 1,
  kind: 'whole',
  range: null,
  min: null,
  max: null,
  ...more,
});

describe('drive parameters', () => {
  it('go to the drive part they belong to, with units from their names', () => {
    const groups = groupParameters(
      [
        'host.link_mb_s',
        'power.capacitance_uf',
        'controller.write_buffer_bytes',
        'controller.compression',
        'gc.pacing',
        'timing.program_ns',
        'slc_cache.when_full',
        'thermal.cooling',
        'id',
      ].map((p) => info(p)),
    );
    expect(groups.map((g) => [g.id, g.parameters.map((p) => p.path)])).toEqual([
      ['host', ['host.link_mb_s']],
      ['buffer', ['power.capacitance_uf', 'controller.write_buffer_bytes']],
      ['controller', ['controller.compression']],
      ['gc', ['gc.pacing']],
      ['cache', ['slc_cache.when_full']],
      ['thermal', ['thermal.cooling']],
      ['nand', ['timing.program_ns']],
      ['drive', ['id']],
    ]);
    expect(['timing.program_ns', 'host.link_mb_s', 'gc.paced_percent', 'power.self_test_interval_s', 'gc.victim'].map(unitOf)).toEqual([
      'ns',
      'MB/s',
      '%',
      's',
      '',
    ]);
    expect(
      ['thermal.ambient_c', 'thermal.idle_w', 'thermal.fan_k_per_w', 'thermal.heat_capacity_j_per_k', 'power.hold_up_mw'].map(unitOf),
    ).toEqual(['°C', 'W', 'K/W', 'J/K', 'mW']);
  });

  it('are checked against the engine’s range, in its words', () => {
    const paced = info('gc.paced_percent', { range: 'must be between 10 and 1000', min: 10, max: 1000 });
    expect(rangeText(paced)).toBe('10 – 1,000');
    expect(parseParameter(paced, '80')).toEqual({ value: 80 });
    expect(parseParameter(paced, '5')).toEqual({ error: 'gc.paced_percent: must be between 10 and 1000 (got 5)' });
    expect(parseParameter(paced, 'x')).toEqual({ error: 'gc.paced_percent: must be between 10 and 1000 (got "x")' });
    expect(parseParameter(paced, '0x10')).toEqual({ error: 'gc.paced_percent: must be between 10 and 1000 (got "0x10")' });
    expect(parseParameter(paced, '12.5')).toEqual({ error: 'gc.paced_percent: must be a whole number (got 12.5)' });
    const pacing = info('gc.pacing', { kind: 'name', choices: ['consistency-first', 'lazy'] });
    expect(parseParameter(pacing, 'eager')).toEqual({ error: 'gc.pacing: must be one of consistency-first, lazy (got "eager")' });
    expect(parseParameter(info('power.capacitors', { kind: 'bool' }), 'false')).toEqual({ value: false });
  });
});
