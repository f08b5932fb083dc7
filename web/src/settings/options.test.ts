import { describe, expect, it } from 'vitest';
import {
  DESIGN_OPTIONS,
  choiceValue,
  describeDesign,
  designPatch,
  isActive,
  isAvailable,
  optionById,
  optionForField,
  shippedChoice,
  type ChoiceOption,
  type EngineOffer,
} from './options';
import { problemPlace } from './problems';
import { buildRequest } from './request';
import type { RunSettings } from './urlState';

// The S3700 preset as the engine lists it (the paths the table uses), and the request fields.
const S3700: EngineOffer = {
  parameters: {
    'gc.pacing': 'consistency-first',
    'gc.victim': 'greedy',
    'gc.victim_choices': 10,
    'map.scheme': 'flat',
    'map.cache_bytes': 0,
    'nand.cell': 'het-mlc',
    'power.capacitors': true,
    'power.volatile_cache': false,
    'power.capacitor_fails_at_s': 0,
  },
  requestFields: {
    queue_depth: 32,
    block_bytes: null,
    power_cuts_s: [],
    trim_fraction: 0,
    burst_s: 0,
    idle_s: 0,
    set: {},
    raid: null,
    precondition: 'fill',
    precondition_passes: 2,
  },
};
const WITH_COMPRESSION: EngineOffer = {
  parameters: { ...S3700.parameters, 'controller.compression': false },
  requestFields: { ...S3700.requestFields, compressibility: 0 },
};
const choice = (id: string) => optionById(id) as ChoiceOption;

describe('the design table', () => {
  it('has unique ids, and every choice explains itself in a sentence', () => {
    const ids = DESIGN_OPTIONS.map((o) => o.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const o of DESIGN_OPTIONS) {
      const texts = o.kind === 'choice' ? o.choices.map((c) => c.explain) : [o.explain];
      for (const t of texts) expect(t, o.id).toMatch(/^[A-Z].{10,}\.$/);
    }
  });

  it('offers compression only when the engine knows its parameter and field', () => {
    expect(isAvailable(choice('compress'), S3700)).toBe(false);
    expect(isAvailable(choice('compress'), WITH_COMPRESSION)).toBe(true);
    expect(isActive(optionById('compressibility')!, { compress: 'on' }, S3700)).toBe(false);
    expect(isActive(optionById('compressibility')!, { compress: 'on' }, WITH_COMPRESSION)).toBe(true);
    expect(isActive(optionById('compressibility')!, {}, WITH_COMPRESSION)).toBe(false);
    expect(designPatch({ compress: 'on' }, S3700)).toEqual({ set: {}, fields: {} });
    expect(designPatch({ compress: 'on' }, WITH_COMPRESSION)).toEqual({
      set: { 'controller.compression': true },
      fields: { compressibility: 0.5 },
    });
  });

  it('finds the choice a drive ships with from its parameters', () => {
    expect(shippedChoice(choice('pacing'), S3700).value).toBe('consistency-first');
    expect(shippedChoice(choice('plp'), S3700).value).toBe('capacitors');
    const consumer = { ...S3700, parameters: { ...S3700.parameters, 'power.capacitors': false, 'power.volatile_cache': true } };
    expect(shippedChoice(choice('plp'), consumer).value).toBe('volatile');
    expect(choiceValue(choice('plp'), {}, consumer)).toBe('volatile');
    expect(choiceValue(choice('plp'), { plp: 'write-through' }, consumer)).toBe('write-through');
  });

  it('patches only what the user changed, with a sub-option’s initial value once its choice is made', () => {
    expect(designPatch({}, S3700)).toEqual({ set: {}, fields: {} });
    expect(designPatch({ pacing: 'lazy', victim: 'fifo', qd: 8, cuts: [700, 1200] }, S3700)).toEqual({
      set: { 'gc.pacing': 'lazy', 'gc.victim': 'fifo' },
      fields: { queue_depth: 8, power_cuts_s: [700, 1200] },
    });
    expect(designPatch({ map: 'cached' }, S3700).set).toEqual({ 'map.scheme': 'cached', 'map.cache_bytes': 16 * 2 ** 20 });
    expect(designPatch({ victim: 'd-choices', victim_d: 2 }, S3700).set).toEqual({
      'gc.victim': 'd-choices',
      'gc.victim_choices': 2,
    });
    expect(designPatch({ map: 'cached', map_cache_mib: 2.5 }, S3700).set['map.cache_bytes']).toBe(2_621_440);
    // A sub-option left over from another choice does nothing.
    expect(designPatch({ map: 'tree', map_cache_mib: 2 }, S3700).set).toEqual({ 'map.scheme': 'tree' });
    expect(designPatch({ plp: 'failing' }, S3700).set).toEqual({ 'power.capacitors': true, 'power.capacitor_fails_at_s': 300 });
    expect(designPatch({ host: 'bursty' }, S3700).fields).toEqual({ burst_s: 60, idle_s: 30 });
    expect(designPatch({ host: 'steady' }, S3700).fields).toEqual({ idle_s: 0 });
  });

  it('builds the test bed: the precondition, and an array as one object from its keys', () => {
    expect(choiceValue(choice('precondition'), {}, S3700)).toBe('fill');
    expect(choiceValue(choice('array'), {}, S3700)).toBe('one');
    expect(designPatch({ precondition: 'random' }, S3700).fields).toEqual({ precondition: 'random', precondition_passes: 2 });
    // The array's members take their initial value; empty stripe and link leave the article's test bed.
    expect(designPatch({ array: 'raid0' }, S3700).fields).toEqual({ raid: { drives: 4 } });
    expect(designPatch({ array: 'raid0', raid_drives: 24, raid_stripe_kib: 128, raid_hba_mb_s: 0 }, S3700).fields).toEqual({
      raid: { drives: 24, stripe_kib: 128, hba_mb_s: 0 },
    });
    // One drive: the array's numbers are kept but not sent.
    expect(designPatch({ array: 'one', raid_drives: 8 }, S3700).fields).toEqual({});
    expect(optionForField('raid.stripe_kib', { array: 'raid0' }, S3700)?.id).toBe('raid_stripe_kib');
    expect(optionForField('precondition_passes', { precondition: 'random' }, S3700)?.id).toBe('precondition_passes');
  });

  it('finds the option an engine error is about', () => {
    expect(optionForField('gc.pacing', {}, S3700)?.id).toBe('pacing');
    expect(optionForField('queue_depth', {}, S3700)?.id).toBe('qd');
    expect(optionForField('power_cuts_s', {}, S3700)?.id).toBe('cuts');
    expect(optionForField('power.capacitor_fails_at_s', { plp: 'failing' }, S3700)?.id).toBe('plp_fail_s');
    expect(optionForField('map.cache_bytes', { map: 'cached' }, S3700)?.id).toBe('map_cache_mib');
    expect(optionForField('timing.program_ns', {}, S3700)).toBeUndefined();
  });

  it('describes the changes for the results heading', () => {
    expect(describeDesign({ pacing: 'lazy', cuts: [700, 1200] }, S3700)).toEqual(['GC pacing: Lazy', 'Cut power at 700, 1200 s']);
    expect(describeDesign({ block: 1 << 20, qd: 1 }, S3700)).toEqual(['Queue depth 1', 'Request size 1 MB']);
  });
});

describe('the run request', () => {
  const settings: RunSettings = {
    drive: 's3700-200',
    span: 0.5,
    seconds: 120,
    seed: 3,
    view: 'whole-log',
    workload: 'hot-cold',
    design: { pacing: 'lazy', qd: 8 },
    overrides: { 'gc.pacing': 'consistency-first', 'geometry.blocks_per_plane': 128 },
    charts: null,
    metric: 'iops',
    layout: 'overlay',
  };

  it('holds the basic fields, the options’ patch, and the overrides last (they win)', () => {
    expect(buildRequest(settings, S3700)).toEqual({
      drive: 's3700-200',
      workload: 'hot-cold',
      seconds: 120,
      span: 0.5,
      seed: 3,
      queue_depth: 8,
      set: { 'gc.pacing': 'consistency-first', 'geometry.blocks_per_plane': 128 },
    });
    expect(buildRequest({ ...settings, design: {}, overrides: {} }, S3700)).not.toHaveProperty('set');
  });

  it('places an engine error at the control that set the field', () => {
    expect(problemPlace('geometry.blocks_per_plane', settings, S3700)).toBe('advanced');
    expect(problemPlace('gc.pacing', settings, S3700)).toBe('advanced'); // set by both: the override won
    expect(problemPlace('queue_depth', settings, S3700)).toBe('qd');
    expect(problemPlace('seconds', settings, S3700)).toBe('seconds');
    expect(problemPlace('set', settings, S3700)).toBe('advanced');
    // Not set by anything on screen, but overrides can change what it depends on.
    expect(problemPlace('user_bytes', settings, S3700)).toBe('advanced');
    expect(problemPlace('user_bytes', { ...settings, overrides: {} }, S3700)).toBeNull();
  });
});

describe('a trace model as the workload', () => {
  it('hides and leaves out the options that would reshape it, and keeps the rest', () => {
    const values = { qd: 8, block: 8192, mix: 'reads', pacing: 'lazy', trim: 0.1 };
    const model = { ...S3700, model: true };
    const shown = (offer: EngineOffer) => DESIGN_OPTIONS.filter((o) => isActive(o, values, offer)).map((o) => o.id);
    expect(shown(S3700)).toEqual(expect.arrayContaining(['qd', 'block', 'pacing']));
    for (const id of ['qd', 'block', 'align', 'mix', 'order', 'bssplit', 'threads', 'skew', 'rate']) expect(shown(model)).not.toContain(id);
    expect(shown(model)).toContain('pacing');
    const patch = designPatch(values, model);
    expect(patch.fields).not.toHaveProperty('queue_depth');
    expect(patch.set['gc.pacing']).toBe('lazy');
    expect(designPatch(values, S3700).fields.queue_depth).toBe(8);
  });
});
