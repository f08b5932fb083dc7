import { describe, expect, it } from 'vitest';
import type { ExperimentTable } from '../engine/experimentProtocol';
import type { ExperimentRun } from './experimentTable';
import { LAYOUT_LOOK, placementGroups, placementLayouts } from './placementSeries';

const COLUMNS = ['host', 'layout', 'over_provisioning_percent', 'write_amplification', 'host_write_amplification'];
/** Uniform has no fdp row (nothing to tag); streams has all three. */
const TABLE: ExperimentTable = {
  experiment: 'placement',
  columns: COLUMNS,
  rows: [
    ['uniform', 'block', 28, 1.9, 1],
    ['uniform', 'zoned', 28, 1.002, 1.8],
    ['streams', 'block', 28, 1.56, 1],
    ['streams', 'fdp', 28, 1.002, 1],
    ['streams', 'zoned', 28, 1.002, 1.01],
    ['streams', 'block', 7, 2.08, 1],
  ],
};
const run = (key: number, name: string): ExperimentRun => ({
  key,
  name,
  color: `run-${key}`,
  entry: { table: TABLE } as ExperimentRun['entry'],
});

describe('placement bars', () => {
  it('groups rows by host and over-provisioning, a bar per layout in its colour', () => {
    const g = placementGroups([run(1, 'A')], 'write_amplification');
    expect(g.map((x) => x.label)).toEqual(['uniform\n28 % OP', 'streams\n28 % OP', 'streams\n7 % OP']);
    expect(g[0].bars.map((b) => b.key)).toEqual(['block', 'zoned']);
    expect(g[1].bars.map((b) => [b.key, b.value])).toEqual([
      ['block', 1.56],
      ['fdp', 1.002],
      ['zoned', 1.002],
    ]);
    expect(g[1].bars.map((b) => b.color)).toEqual([LAYOUT_LOOK.block.color, LAYOUT_LOOK.fdp.color, LAYOUT_LOOK.zoned.color]);
    const host = placementGroups([run(1, 'A')], 'host_write_amplification');
    expect(host[0].bars.find((b) => b.key === 'zoned')?.value).toBe(1.8);
  });

  it('names the run under each group when there are several, and lists layouts once', () => {
    const g = placementGroups([run(1, 'fdp-s3700-200'), run(2, 'zn540-small')], 'write_amplification');
    expect(g).toHaveLength(6);
    expect(g[3].label.split('\n')).toHaveLength(3);
    expect(g[0].label).not.toBe(g[3].label);
    expect(placementLayouts([run(1, 'A'), run(2, 'B')])).toEqual(['block', 'fdp', 'zoned']);
  });
});
