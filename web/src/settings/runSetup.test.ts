import { describe, expect, it } from 'vitest';
import { reproducingConfig } from './runSetup';

describe('reproducingConfig', () => {
  const config = { drive: 's3700-200', workload: 'consistency', seconds: 60, span: 1, seed: 1 };

  it('is the config itself when no cut was asked for', () => {
    expect(reproducingConfig(config, [])).toBe(config);
  });

  it('schedules the cuts asked for, with the requested ones, in time order', () => {
    const out = reproducingConfig({ ...config, power_cuts_s: [30.5] }, [41.000000001, 12.25]);
    expect(out.power_cuts_s).toEqual([12.25, 30.5, 41.000000001]);
    expect(out).toMatchObject(config);
  });
});
