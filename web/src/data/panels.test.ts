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

  it('shows the host memory buffer only on a drive that has one', () => {
    const cached = { ...base, parameters: { ...base.parameters, 'map.scheme': 'cached' } };
    const ids = (ctx: PanelContext) => choosePanels(null, ctx).map((p) => p.id);
    expect(ids(cached)).not.toContain('map-hmb');
    expect(ids({ ...cached, parameters: { ...cached.parameters, 'map.hmb_bytes': 0 } })).not.toContain('map-hmb');
    expect(ids({ ...cached, parameters: { ...cached.parameters, 'map.hmb_bytes': 25_165_824 } })).toContain('map-hmb');
  });

  it('shows the SLC cache and folding on a drive with a cache that is written to', () => {
    const ids = (ctx: PanelContext) => choosePanels(null, ctx).map((p) => p.id);
    const slc = { ...base, parameters: { ...base.parameters, 'slc_cache.when_full': 'direct' } };
    expect(ids(base)).not.toContain('slc');
    expect(ids(slc)).toEqual(expect.arrayContaining(['slc', 'fold']));
    expect(ids({ ...slc, writes: false })).not.toContain('slc');
  });

  it('shows the temperature on a drive with a thermal model, with its throttle points', () => {
    const hot = { ...base, parameters: { ...base.parameters, 'thermal.cooling': 'bare', 'thermal.throttle_above_c': [78, 85] } };
    expect(choosePanels(null, base).map((p) => p.id)).not.toContain('heat');
    const heat = choosePanels(null, hot).find((p) => p.id === 'heat')!;
    expect(heat.refs!(hot).map((r) => r.value)).toEqual([78, 85]);
  });

  it('keeps the user’s pick whatever the run', () => {
    expect(choosePanels(['map'], base).map((p) => p.id)).toEqual(['map']);
  });
});
