import { describe, expect, it } from 'vitest';
import {
  checkExperiment,
  experimentPlace,
  experimentRequest,
  experimentSearch,
  parseExperiment,
  settingsOf,
  sweepArgs,
} from './experimentState';
import { RECOVERY_ENGINE, parseRestsText, parseStatesText } from './recoveryExperiment';
import { RECOVERY_INFO } from '../engine/fakeExperiments';

// The engine's columns (engine/core/src/experiment/cache.rs).
const IDLE = {
  id: 'idle-recovery',
  title: 'Idle recovery',
  article: 'A',
  about: 'B',
  seconds: 0,
  ramp_seconds: 0,
  queue_depths: [1],
  columns: ['rest_s', 'write', 'gb', 'mb_s', 'iops', 'latency_mean_us', 'latency_p99_us', 'latency_max_us'],
  ...RECOVERY_INFO,
};
const DIRTY = {
  ...IDLE,
  id: 'dirty-recovery',
  seconds: 60,
  columns: ['state', 'rest_s', 'mb_s', 'iops', 'latency_mean_us', 'latency_p99_us', 'latency_max_us'],
};
const RUN = { drive: '870qvo-1000', workload: 'consistency', seconds: 60, span: 1, seed: 1 };

describe('recovery experiment settings', () => {
  it('tells the idle and the dirty drive’s experiments apart by their columns', () => {
    expect(settingsOf(IDLE).recovery).toBe('idle');
    expect(settingsOf(DIRTY).recovery).toBe('dirty');
    expect(settingsOf({ ...IDLE, columns: ['gb_written', 'mb_s'] }).recovery).toBeNull();
  });

  it('reads rests, writes, dirty seconds and states from a link, naming bad values and keeping the rest', () => {
    const p = parseExperiment(
      '?experiment=dirty-recovery&exp_rests=0,1800&exp_write_gb=40&exp_then_gb=2.5&exp_dirty_s=600&exp_states=dirty,trimmed',
    );
    expect(p.errors).toEqual([]);
    expect(p.settings.recovery).toEqual({ rests: [0, 1800], writeGb: 40, thenGb: 2.5, dirtySeconds: 600, states: ['dirty', 'trimmed'] });

    const link = '?experiment=dirty-recovery&exp_rests=5,-1&exp_write_gb=x&exp_dirty_s=0.5&exp_states=dirty,clean&exp_seconds=7';
    const bad = parseExperiment(link);
    // Before the engine has answered: numbers and names only.
    expect(bad.errors).toEqual(['exp_write_gb: must be a number (got "x")']);
    const checked = checkExperiment(bad.settings, [DIRTY]);
    expect(checked.errors).toEqual([
      'exp_rests: each must be a whole number from 0 to 1,000,000 (got -1)',
      'exp_dirty_s: must be a whole number from 1 to 1,000,000 (got 0.5)',
      'exp_states: "clean" is not one of secure-erased, dirty, rested, trimmed (each at most once)',
    ]);
    expect(checked.settings.recovery).toEqual(RECOVERY_ENGINE);
    expect(checked.settings.seconds).toBe(7);
    expect(checkExperiment(parseExperiment(`?exp_rests=${Array(17).fill(1).join(',')}`).settings, [IDLE]).errors).toEqual([
      'exp_rests: must list 1 to 16 rests in seconds, separated by commas (got 17)',
    ]);
  });

  it('checks against the ranges and states the engine lists, not its own', () => {
    const engine = {
      ...DIRTY,
      states: ['dirty', 'rested'],
      limits: { ...DIRTY.limits, rests: { min: 1, max: 2 }, rest_seconds: { min: 0, max: 600 }, dirty_seconds: { min: 10, max: 3600 } },
    };
    expect(parseRestsText('0,1,10', engine)).toEqual({ error: 'Rests: must list 1 to 2 rests in seconds, separated by commas (got 3)' });
    expect(parseRestsText('0,1800', engine)).toEqual({ error: 'Rests: each must be a whole number from 0 to 600 (got 1800)' });
    expect(parseStatesText('trimmed', engine)).toEqual({ error: 'States: "trimmed" is not one of dirty, rested (each at most once)' });
    const link = parseExperiment('?experiment=dirty-recovery&exp_dirty_s=5&exp_states=rested').settings;
    const checked = checkExperiment(link, [engine]);
    expect(checked.errors).toEqual(['exp_dirty_s: must be a whole number from 10 to 3,600 (got 5)']);
    expect(checked.settings.recovery).toEqual({ ...RECOVERY_ENGINE, states: ['rested'] });
  });

  it('keeps only what was set in the link, and reads it back', () => {
    const none = parseExperiment('?experiment=idle-recovery').settings;
    expect(experimentSearch(none).toString()).toBe('experiment=idle-recovery');
    const set = { ...none, recovery: { rests: [0, 30], writeGb: 100, thenGb: 5, dirtySeconds: 60, states: ['rested'] } };
    const q = experimentSearch(set);
    expect(q.get('exp_rests')).toBe('0,30');
    expect(q.get('exp_states')).toBe('rested');
    expect(parseExperiment(`?${q}`).settings.recovery).toEqual(set.recovery);
  });

  it('sends each experiment only the settings it takes, and the same to the CLI', () => {
    const s = parseExperiment('?exp_rests=0,1800&exp_write_gb=40&exp_then_gb=2.5&exp_dirty_s=600&exp_states=dirty,trimmed').settings;
    const idle = experimentRequest(s, IDLE, RUN);
    expect(idle).toMatchObject({ rest_seconds: [0, 1800], write_gb: 40, then_gb: 2.5 });
    expect(idle.dirty_seconds).toBeUndefined();
    expect(idle.states).toBeUndefined();
    expect(sweepArgs(idle).join(' ')).toContain('--write-gb 40 --rest-seconds 0,1800 --then-gb 2.5');

    const dirty = experimentRequest(s, DIRTY, RUN);
    expect(dirty).toMatchObject({ rest_seconds: [0, 1800], dirty_seconds: 600, states: ['dirty', 'trimmed'] });
    expect(dirty.write_gb).toBeUndefined();
    expect(sweepArgs(dirty).join(' ')).toContain('--rest-seconds 0,1800 --dirty-seconds 600 --states dirty,trimmed');

    const other = experimentRequest(s, { ...IDLE, id: 'whole-drive-fill', columns: ['gb_written', 'mb_s'] }, RUN);
    expect(other.rest_seconds).toBeUndefined();
    expect(experimentRequest(parseExperiment('').settings, IDLE, RUN).rest_seconds).toBeUndefined();
  });

  it('places the engine’s objections at their control', () => {
    expect(experimentPlace('rest_seconds (how many)')).toBe('rests');
    expect(experimentPlace('write_gb')).toBe('writeGb');
    expect(experimentPlace('then_gb')).toBe('thenGb');
    expect(experimentPlace('dirty_seconds')).toBe('dirtySeconds');
    expect(experimentPlace('states')).toBe('states');
  });
});
