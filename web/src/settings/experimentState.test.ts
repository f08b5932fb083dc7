import { describe, expect, it } from 'vitest';
import {
  NO_EXPERIMENT,
  checkExperiment,
  experimentKind,
  experimentPlace,
  experimentRequest,
  experimentSearch,
  joinSearch,
  parseExperiment,
  parseQdsText,
  parseRampText,
  parseSpansText,
  sweepArgs,
} from './experimentState';
import { RECOVERY_INFO } from '../engine/fakeExperiments';

const QD = {
  id: 'four-corners',
  title: 'T',
  article: 'A',
  about: 'B',
  seconds: 60,
  ramp_seconds: 10,
  queue_depths: [1, 2],
  columns: ['corner', 'queue_depth', 'iops', 'mb_s'],
  ...RECOVERY_INFO,
};
const SPARE = { ...QD, id: 'spare-area', columns: ['span', 'advertised_gb', 'spare_percent', 'steady_iops_mean'] };
const RUN = { drive: 's3700-200', workload: 'consistency', seconds: 2000, span: 0.5, seed: 3, set: { 'gc.pacing': 'lazy' } };

describe('experiment settings', () => {
  it('read from a link, naming bad values and keeping the good ones', () => {
    const p = parseExperiment('?experiment=four-corners&exp_seconds=5&exp_qd=1,0&exp_pre=fill&exp_plot=bw');
    expect(p.settings).toMatchObject({ id: 'four-corners', seconds: 5, qds: null, precondition: 'fill', plot: 'mb_s' });
    expect(p.errors).toEqual([
      'exp_qd: each must be a whole number from 1 to 65,536 (got 0)',
      'exp_plot: must be one of mb_s, iops (got "bw")',
    ]);
    expect(parseExperiment('').settings).toEqual(NO_EXPERIMENT);
  });

  it('check the experiment and the ramp against the engine’s list', () => {
    const unknown = checkExperiment({ ...NO_EXPERIMENT, id: 'raid' }, [QD]);
    expect(unknown.settings.id).toBeNull();
    expect(unknown.errors[0]).toBe('experiment: unknown experiment "raid" (known: four-corners)');
    const ramp = checkExperiment({ ...NO_EXPERIMENT, id: 'four-corners', seconds: 4, ramp: 4 }, [QD]);
    expect(ramp.settings.ramp).toBeNull();
    expect(ramp.errors[0]).toBe('exp_ramp: must be a whole number from 0 to 3 (got 4)');
  });

  it('write a link that reads back the same', () => {
    const s = {
      ...NO_EXPERIMENT,
      id: 'four-corners',
      seconds: 4,
      ramp: 1,
      qds: [1, 8],
      precondition: 'fill' as const,
      plot: 'iops' as const,
    };
    const search = joinSearch('?drive=p3700-400', experimentSearch(s));
    expect(search).toBe('?drive=p3700-400&experiment=four-corners&exp_seconds=4&exp_ramp=1&exp_qd=1,8&exp_pre=fill&exp_plot=iops');
    expect(parseExperiment(search).settings).toEqual(s);
    expect(joinSearch('', experimentSearch(NO_EXPERIMENT))).toBe('');
  });

  it('check typed lists with their ranges', () => {
    expect(parseQdsText('1, 4,32')).toEqual({ value: [1, 4, 32] });
    expect(parseQdsText(Array.from({ length: 33 }, () => '1').join(',')).error).toBe(
      'Queue depths: must list 1 to 32 values, separated by commas (got 33)',
    );
    expect(parseSpansText('1,0.005').error).toBe('Spans: each must be a number from 0.01 to 1 (got 0.005)');
    expect(parseRampText('2', 2).error).toBe('Ramp: must be a whole number from 0 to 1 (got 2)');
  });

  it('build the engine’s request with what the experiment takes, and the CLI arguments for it', () => {
    const s = { ...NO_EXPERIMENT, id: 'four-corners', seconds: 2, ramp: 1, qds: [1, 4], spans: [1, 0.5] };
    const r = experimentRequest(s, QD, RUN);
    expect(r).toEqual({
      experiment: 'four-corners',
      drive: 's3700-200',
      set: { 'gc.pacing': 'lazy' },
      seed: 3,
      span: 0.5,
      seconds: 2,
      ramp_seconds: 1,
      queue_depths: [1, 4],
      precondition: 'article',
    });
    expect(sweepArgs(r)).toEqual([
      'four-corners',
      '--drive',
      's3700-200',
      '--seconds',
      '2',
      '--ramp-seconds',
      '1',
      '--queue-depths',
      '1,4',
      '--span',
      '0.5',
      '--seed',
      '3',
      '--set',
      'gc.pacing=lazy',
    ]);
    const spare = experimentRequest({ ...s, id: 'spare-area' }, SPARE, RUN);
    expect(spare.spans).toEqual([1, 0.5]);
    expect(spare.queue_depths).toBeUndefined();
    expect(spare.precondition).toBeUndefined();
  });

  it('draw a table by its columns and place the engine’s objections', () => {
    expect(experimentKind(QD.columns)).toBe('queue-depth');
    expect(experimentKind(SPARE.columns)).toBe('span');
    expect(experimentKind(['second', 'iops'])).toBe('seconds');
    expect(experimentKind(['drives', 'stripe_kb', 'iops_per_drive'])).toBe('other');
    expect(experimentPlace('ramp_seconds')).toBe('ramp');
    expect(experimentPlace('queue_depths (how many)')).toBe('qds');
    expect(experimentPlace('gc.pacing')).toBeNull();
  });
});
