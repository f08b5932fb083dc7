import { describe, expect, it } from 'vitest';
import type { Problem, SimConfig } from '../engine/protocol';
import { placeProblem, refineProblem } from './problems';
import { DEFAULTS } from './pageDefaults';
import type { RunSettings } from './urlState';

const SETTINGS: RunSettings = { ...DEFAULTS, seconds: 60 };
const OFFER = {
  parameters: { 'gc.pacing': 'consistency-first', 'gc.paced_percent': 100 },
  requestFields: { block_bytes: null, power_cuts_s: [], queue_depth: null },
};

describe('engine objections name the control the user sees', () => {
  it('uses the label of the control that sets the field', () => {
    expect(placeProblem({ field: 'block_bytes', message: 'must be a multiple of 512 (got 1000)' }, SETTINGS, OFFER)).toEqual({
      place: 'block',
      message: 'Request size: must be a multiple of 512 (got 1000)',
      field: 'block_bytes',
    });
    expect(placeProblem({ field: 'power_cuts_s', message: 'each cut must fall inside the run' }, SETTINGS, OFFER).message).toBe(
      'Cut power at: each cut must fall inside the run',
    );
    expect(placeProblem({ field: 'seconds', message: 'must be at least 1' }, SETTINGS, OFFER).message).toBe('Duration: must be at least 1');
  });
  it('names a parameter typed by hand by its path under Drive parameters', () => {
    const settings = { ...SETTINGS, overrides: { 'gc.paced_percent': 5 } };
    expect(placeProblem({ field: 'gc.paced_percent', message: 'must be between 10 and 1000 (got 5)' }, settings, OFFER)).toEqual({
      place: 'advanced',
      message: 'Drive parameters, gc.paced_percent: must be between 10 and 1000 (got 5)',
      field: 'gc.paced_percent',
    });
  });
});

describe('a negative whole number gets the range as its reason', () => {
  const request: SimConfig = {
    drive: 's3700-200',
    workload: 'consistency',
    seconds: 60,
    span: 1,
    seed: 1,
    set: { 'gc.paced_percent': -50 },
  };
  const wrong: Problem = { field: 'gc.paced_percent', message: 'must be a whole number (got -50)' };
  it('asks the engine again with 0 and shows its range', async () => {
    const seen: SimConfig[] = [];
    const check = async (c: SimConfig) => {
      seen.push(c);
      return { field: 'gc.paced_percent', message: 'must be between 10 and 1000 (got 0)' };
    };
    expect(await refineProblem(wrong, request, check)).toEqual({
      field: 'gc.paced_percent',
      message: 'must be between 10 and 1000 (got -50)',
    });
    expect(seen[0].set).toEqual({ 'gc.paced_percent': 0 });
  });
  it('says "0 or more" when 0 is allowed, and leaves other messages alone', async () => {
    expect((await refineProblem(wrong, request, async () => null)).message).toBe('must be 0 or more (got -50)');
    const other: Problem = { field: 'span', message: 'must be between 0.01 and 1.0 (got 2)' };
    expect(await refineProblem(other, request, async () => null)).toBe(other);
  });
});
