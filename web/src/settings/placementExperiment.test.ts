import { describe, expect, it } from 'vitest';
import { experimentKind, experimentPlace, experimentRequest, experimentSearch, parseExperiment, sweepArgs } from './experimentState';
import { isChoice, parseHostsText, PLACEMENT_FULL, PLACEMENT_PAGE, toggleName } from './placementExperiment';
import { RECOVERY_INFO } from '../engine/fakeExperiments';

const COLUMNS = [
  'host',
  'layout',
  'over_provisioning_percent',
  'drive_writes',
  'seconds',
  'iops',
  'app_mb_s',
  'latency_p99_us',
  'write_amplification',
  'host_write_amplification',
  'total_write_amplification',
  'gc_moves',
];
const INFO = {
  id: 'placement',
  title: 'T',
  article: 'A',
  about: 'B',
  seconds: 0,
  ramp_seconds: 0,
  queue_depths: [32],
  columns: COLUMNS,
  ...RECOVERY_INFO,
};
const RUN = { drive: 'fdp-s3700-200', workload: 'consistency', seconds: 60, span: 1, seed: 1 };

describe('placement experiment settings', () => {
  it('is its own kind, read from its columns', () => {
    expect(experimentKind(COLUMNS)).toBe('placement');
    expect(experimentKind(COLUMNS.filter((c) => c !== 'layout'))).toBe('other');
  });

  it('reads hosts, layouts, over-provisionings and drive writes from a link, naming bad values and keeping the rest', () => {
    const p = parseExperiment('?experiment=placement&exp_hosts=cache,lsm&exp_layouts=block,zoned&exp_op=28&exp_dw=1.5');
    expect(p.errors).toEqual([]);
    expect(p.settings.placement).toEqual({ hosts: ['cache', 'lsm'], layouts: ['block', 'zoned'], opPercents: [28], driveWrites: 1.5 });

    const bad = parseExperiment('?experiment=placement&exp_hosts=cache,redis&exp_layouts=zoned,zoned&exp_op=0&exp_dw=200&exp_seconds=5');
    expect(bad.errors).toEqual([
      'exp_hosts: "redis" is not one of uniform, hot-cold, streams, cache, lsm (each at most once)',
      'exp_layouts: "zoned" is not one of block, fdp, zoned (each at most once)',
      'exp_op: each must be a number from 1 to 100 (got 0)',
      'exp_dw: must be a number from 1 to 100 (got 200)',
    ]);
    expect(bad.settings.placement).toEqual(PLACEMENT_PAGE);
    expect(bad.settings.seconds).toBe(5);
    expect(parseExperiment('?exp_op=1,2,3,4,5,6,7,8,9').errors).toEqual([
      'exp_op: must list 1 to 8 percentages, separated by commas (got 9)',
    ]);
    expect(parseHostsText('').error).toBe('Hosts: must list 1 to 5 of uniform, hot-cold, streams, cache, lsm (got none)');
  });

  it('keeps only what differs from the page’s first run in the link, and reads it back', () => {
    const page = parseExperiment('?experiment=placement').settings;
    expect(experimentSearch(page).toString()).toBe('experiment=placement');
    const full = { ...page, placement: PLACEMENT_FULL };
    const q = experimentSearch(full);
    expect(q.get('exp_hosts')).toBe('uniform,hot-cold,streams,cache,lsm');
    expect(q.get('exp_layouts')).toBeNull();
    expect(q.get('exp_op')).toBe('7,28');
    expect(q.get('exp_dw')).toBe('4');
    expect(parseExperiment(`?${q}`).settings.placement).toEqual(PLACEMENT_FULL);
  });

  it('sends the choice in the request, and only to the placement experiment', () => {
    const s = parseExperiment('?experiment=placement&exp_hosts=streams&exp_op=28&exp_dw=1').settings;
    const r = experimentRequest(s, INFO, RUN);
    expect(r).toMatchObject({ hosts: ['streams'], layouts: ['block', 'fdp', 'zoned'], op_percents: [28], drive_writes: 1 });
    expect(sweepArgs(r).join(' ')).toContain('--hosts streams --layouts block,fdp,zoned --op-percents 28 --drive-writes 1');
    const other = experimentRequest(s, { ...INFO, id: 'spare-area', columns: ['span', 'spare_percent'] }, RUN);
    expect(other.hosts).toBeUndefined();
    expect(other.drive_writes).toBeUndefined();
  });

  it('places the engine’s objections at their control', () => {
    expect(experimentPlace('hosts')).toBe('hosts');
    expect(experimentPlace('layouts (how many)')).toBe('layouts');
    expect(experimentPlace('op_percents')).toBe('op');
    expect(experimentPlace('drive_writes')).toBe('dw');
  });

  it('toggles a name in the allowed order and never leaves the list empty', () => {
    expect(toggleName(['cache'], 'streams', ['uniform', 'streams', 'cache'])).toEqual(['streams', 'cache']);
    expect(toggleName(['streams', 'cache'], 'streams', ['streams', 'cache'])).toEqual(['cache']);
    expect(toggleName(['cache'], 'cache', ['streams', 'cache'])).toEqual(['cache']);
    expect(isChoice(PLACEMENT_PAGE, PLACEMENT_PAGE)).toBe(true);
    expect(isChoice({ ...PLACEMENT_PAGE, driveWrites: 3 }, PLACEMENT_PAGE)).toBe(false);
  });
});
