// Placing data (issue 21) in the page: the placement choice on the drives that take it, the zoned
// drive's workloads through the host's zone store, its spare figured from its zones, and the
// panels a store or zones bring.

import { describe, expect, it } from 'vitest';
import { choosePanels, type PanelContext } from '../data/panels';
import type { DrivePreset } from '../engine/protocol';
import { driveSpare, zonesOf } from './capacity';
import { DESIGN_OPTIONS, isActive, type EngineOffer } from './options';
import { buildRequest, STORE_UTILISATION } from './request';
import { parseSettings, type RunSettings } from './urlState';

const FIELDS = { queue_depth: 32, threads: 1, distribution: null, placement: 'untagged', zone_store: null };
const PLAIN: EngineOffer = { parameters: { 'gc.pacing': 'consistency-first' }, requestFields: FIELDS };
const FDP: EngineOffer = { parameters: { ...PLAIN.parameters, 'placement.handles': 8 }, requestFields: FIELDS };
// zn540-small as the engine lists it: 20 zones of 2 GiB, 1,056 MiB of each writable.
const ZONED_PARAMS = { 'zoned.zone_bytes': 2 ** 31, 'zoned.zone_capacity_bytes': 1056 * 2 ** 20, 'zoned.max_open_zones': 14 };
const ZONED: EngineOffer = { parameters: ZONED_PARAMS, requestFields: FIELDS };
const ZN540: DrivePreset = {
  id: 'zn540-small',
  name: 'WD Ultrastar DC ZN540 (ZNS, 20 zones)',
  interface: 'NVMe',
  raw_bytes: 21.25 * 2 ** 30,
  user_bytes: 20 * 2 ** 31,
  advertised_bytes: 20 * 2 ** 31,
  spec_random_write_iops: 0,
  parameters: ZONED_PARAMS,
};

const SETTINGS: RunSettings = {
  drive: 'fdp-s3700-200',
  span: 1,
  seconds: 60,
  seed: 1,
  view: 'whole-log',
  workload: 'hot-cold',
  design: {},
  overrides: {},
  charts: null,
  metric: 'iops',
  layout: 'overlay',
};
const shown = (offer: EngineOffer) => DESIGN_OPTIONS.filter((o) => isActive(o, {}, offer)).map((o) => o.id);

describe('placement in the page', () => {
  it('offers the placement choice only on drives that place data, and the store’s share only on zoned ones', () => {
    expect(shown(PLAIN)).not.toContain('placement');
    expect(shown(FDP)).toContain('placement');
    expect(shown(FDP)).not.toContain('store_fill');
    expect(shown(ZONED)).toEqual(expect.arrayContaining(['placement', 'store_fill']));
  });

  it('sends the placement on an FDP drive, and nothing new when untagged', () => {
    expect(buildRequest({ ...SETTINGS, design: { placement: 'temperature' } }, FDP)).toMatchObject({ placement: 'temperature' });
    expect(buildRequest({ ...SETTINGS, design: { placement: 'job' } }, FDP)).toMatchObject({ placement: 'job' });
    expect(buildRequest(SETTINGS, FDP)).not.toHaveProperty('placement');
    expect(buildRequest(SETTINGS, PLAIN)).not.toHaveProperty('zone_store');
  });

  it('runs a zoned drive’s workload through the zone store, its classes the placement choice', () => {
    const zoned = { ...SETTINGS, drive: 'zn540-small' };
    const plain = buildRequest(zoned, ZONED);
    expect(plain.zone_store).toEqual({ utilisation: STORE_UTILISATION, classes: 'one' });
    expect(plain).not.toHaveProperty('placement');
    expect(plain.precondition).toBe('none');
    const hot = buildRequest({ ...zoned, design: { placement: 'temperature', store_fill: 0.5 } }, ZONED);
    expect(hot.zone_store).toEqual({ utilisation: 0.5, classes: 'temperature' });
    expect(hot).not.toHaveProperty('placement');
    // The store has no class per thread: the engine refuses it by name rather than the page dropping it.
    expect(buildRequest({ ...zoned, design: { placement: 'job' } }, ZONED)).toMatchObject({ placement: 'job' });
  });

  it('keeps the choice in the link and names the allowed values of a bad one, keeping the rest', () => {
    const vocabulary = { views: ['whole-log'], charts: [], metrics: ['iops'], layouts: ['overlay'] };
    const good = parseSettings('?placement=temperature&store_fill=0.6', SETTINGS, vocabulary);
    expect(good.errors).toEqual([]);
    expect(good.settings.design).toEqual({ placement: 'temperature', store_fill: 0.6 });
    const bad = parseSettings('?placement=hot&seconds=30', SETTINGS, vocabulary);
    expect(bad.errors).toEqual(['placement: must be one of untagged, temperature, job (got "hot")']);
    expect(bad.settings.seconds).toBe(30);
  });

  it('figures a zoned drive’s spare from its zones’ writable part, not its LBA space', () => {
    expect(zonesOf(ZN540)).toEqual({ zones: 20, capacity: 1056 * 2 ** 20 });
    expect(driveSpare(ZN540, 1)).toBeCloseTo(1 - (20 * 1056) / (21.25 * 1024), 6);
    expect(zonesOf({ parameters: PLAIN.parameters, user_bytes: 1e9 })).toBeNull();
  });

  it('shows the store’s panels with a store, and the zones panel on a zoned drive', () => {
    const base: PanelContext = {
      parameters: PLAIN.parameters,
      workload: 'random-write',
      writes: true,
      partialWrites: false,
      idle: false,
      powerCuts: false,
      overridden: [],
    };
    const ids = (ctx: PanelContext) => choosePanels(null, ctx).map((p) => p.id);
    for (const id of ['host-wa', 'cleaner', 'zones']) expect(ids(base)).not.toContain(id);
    expect(ids({ ...base, parameters: ZONED_PARAMS, zoneStore: true })).toEqual(expect.arrayContaining(['host-wa', 'cleaner', 'zones']));
    expect(ids({ ...base, parameters: ZONED_PARAMS })).not.toContain('cleaner');
  });
});
