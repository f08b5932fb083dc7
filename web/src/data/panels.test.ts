import { describe, expect, it } from 'vitest';
import { choosePanels, type PanelContext } from './panels';

const base: PanelContext = {
  parameters: { 'map.scheme': 'flat', 'gc.victim': 'greedy' },
  workload: 'consistency',
  writes: true,
  partialWrites: false,
  idle: false,
  powerCuts: false,
  overridden: [],
};

describe('choosePanels', () => {
  it('shows read-modify-write only when writes cover part of a map unit', () => {
    const ids = (ctx: PanelContext) => choosePanels(null, ctx).map((p) => p.id);
    expect(ids(base)).not.toContain('rmw');
    expect(ids({ ...base, workload: 'redo-log', partialWrites: true })).toContain('rmw');
    expect(ids({ ...base, writes: false, partialWrites: true })).not.toContain('rmw');
  });

  it('keeps the user’s pick whatever the run', () => {
    expect(choosePanels(['map'], base).map((p) => p.id)).toEqual(['map']);
  });
});
