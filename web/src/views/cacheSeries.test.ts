import { describe, expect, it } from 'vitest';
import type { ExperimentTable, TableFigure } from '../engine/experimentProtocol';
import { cacheEndGuides, cacheFullAtGb, fillFigureGuides, fillSeries, recoveryGroups } from './cacheSeries';
import type { ExperimentRun } from './experimentTable';

/** A fill of 6 seconds: 2 GB/s into a 4 GB cache, then 0.5 GB/s while folding. */
const FILL: ExperimentTable = {
  experiment: 'whole-drive-fill',
  columns: ['second', 'gb_written', 'mb_s', 'slc_free_gb', 'slc_data_gb', 'fold_mb_s'],
  rows: [
    [1, 2, 2000, 2, 2, 0],
    [2, 4, 2000, 0.01, 4, 0],
    [3, 4.5, 500, 0, 3.6, 400],
    [4, 5, 500, 0.3, 3.2, 400],
    [5, 5.5, 500, 0, 2.8, 400],
  ],
};
const run = (table: ExperimentTable, key = 1, name = '980 Pro 1TB'): ExperimentRun => ({
  key,
  name,
  color: `run-${key}`,
  entry: { table } as ExperimentRun['entry'],
});

const figure = (over: Partial<TableFigure>): TableFigure => ({
  figure: 'TPU fill',
  source: 'TPU',
  cites: ['TechPowerUp'],
  says: 'x',
  measure: 'mb_s',
  expected: '',
  target: 2000,
  window_from_s: 0,
  seconds: 20000,
  not_comparable: null,
  simulated: null,
  holds: null,
  row: {},
  column: null,
  block_bytes: 1 << 20,
  ...over,
});

describe('a whole-drive fill', () => {
  it('draws each run against GB written, dots only while it is sparse', () => {
    const [s] = fillSeries([run(FILL)], 'mb_s', 'written');
    expect(s.points.map((p) => [p.x, p.y])).toEqual([
      [2, 2000],
      [4, 2000],
      [4.5, 500],
      [5, 500],
      [5.5, 500],
    ]);
    expect(s.dots).toBe(true);
    const long: ExperimentTable = { ...FILL, rows: Array.from({ length: 100 }, (_, i) => [i, i, 100, 0, 0, 0]) };
    expect(fillSeries([run(long)], 'mb_s', 'written')[0].dots).toBe(false);
    expect(fillSeries([run(FILL), run(FILL, 2, 'Other')], 'mb_s', 'written').map((x) => x.label)).toEqual([
      '980 Pro 1TB · written',
      'Other · written',
    ]);
  });

  it('finds where the run’s cache first had no room, not where it refilled', () => {
    expect(cacheFullAtGb(FILL)).toBe(4);
    const noCache: ExperimentTable = { ...FILL, rows: FILL.rows.map((r) => [r[0], r[1], r[2], 0, 0, 0]) };
    expect(cacheFullAtGb(noCache)).toBeNull();
    const stillRoom: ExperimentTable = { ...FILL, rows: FILL.rows.slice(0, 1) };
    expect(cacheFullAtGb(stillRoom)).toBeNull();
    const [g] = cacheEndGuides([run(FILL)]);
    expect([g.x0, g.x1, g.text]).toEqual([4, 4, 'cache full at 4 GB']);
  });

  it('draws the published figures it can, over the range each describes', () => {
    const guides = fillFigureGuides([
      figure({ figure: 'cache speed', target: 2000, to_gb: 4 }),
      figure({ figure: 'after', target: 500, from_gb: 5, holds: true }),
      figure({ figure: 'average', measure: 'fill_mean_mb_s', target: 700 }),
      figure({ figure: 'end', measure: 'phase_end_gb', target: 4.2 }),
      figure({ figure: 'trend', measure: 'trend', target: 1 }),
      figure({ figure: 'at QD32', target: 3000, row: null, not_comparable: 'queue depth' }),
    ]);
    expect(guides.map((g) => [g.x0, g.x1, g.y0, g.y1])).toEqual([
      [-Infinity, 4, 2000, 2000],
      [5, Infinity, 500, 500],
      [-Infinity, Infinity, 700, 700],
      [4.2, 4.2, -Infinity, Infinity],
    ]);
    expect(guides[0].label).toContain('2,000 MB/s from the start to 4 GB');
    expect(guides[1].label).toContain('this fill is within the target');
    expect(guides[3].text).toBe('published: cache ends at 4 GB');
  });
});

describe('idle recovery', () => {
  it('puts the write before and after each rest side by side', () => {
    const t: ExperimentTable = {
      experiment: 'idle-recovery',
      columns: ['rest_s', 'write', 'gb', 'mb_s'],
      rows: [
        [0, 'before', 333, 2011],
        [0, 'after', 10, 1580],
        [10, 'before', 333, 2011],
        [10, 'after', 10, 3945],
      ],
    };
    const groups = recoveryGroups([run(t)]);
    expect(groups.map((g) => [g.label, g.bars.map((b) => b.value)])).toEqual([
      ['0 s rest', [2011, 1580]],
      ['10 s rest', [2011, 3945]],
    ]);
  });

  it('puts a dirty drive’s states side by side, each with its rest', () => {
    const t: ExperimentTable = {
      experiment: 'dirty-recovery',
      columns: ['state', 'rest_s', 'mb_s'],
      rows: [
        ['secure-erased', 0, 556.8],
        ['dirty', 0, 4.78],
        ['rested', 1800, 483.8],
        ['trimmed', 1800, 556.8],
      ],
    };
    expect(recoveryGroups([run(t)]).map((g) => [g.label, g.bars.map((b) => b.value)])).toEqual([
      ['secure-erased', [556.8]],
      ['dirty', [4.78]],
      ['rested, 1,800 s rest', [483.8]],
      ['trimmed, 1,800 s rest', [556.8]],
    ]);
  });
});
