import { describe, expect, it } from 'vitest';
import type { DrivePreset } from '../engine/protocol';
import { Reader } from '../labs/reader';
import {
  checkAgainstEngine,
  checkNumber,
  linkSearch,
  parseLink,
  parseNumberText,
  parseSettings,
  settingsToSearch,
  type RunSettings,
} from './urlState';

const DEFAULTS: RunSettings = {
  drive: 's3700-200',
  span: 1,
  seconds: 2000,
  seed: 1,
  view: 'whole-log',
  workload: 'consistency',
  design: {},
  overrides: {},
  charts: null,
  metric: 'iops',
  layout: 'overlay',
};
const VOCABULARY = {
  views: ['whole-log', 'steady-log', 'steady-linear'],
  charts: ['wa', 'free', 'latency'],
  metrics: ['iops', 'mb_s', 'mean_latency_us'],
  layouts: ['overlay', 'side'],
};
const parse = (search: string) => parseSettings(search, DEFAULTS, VOCABULARY);

describe('URL settings', () => {
  it('reads good values', () => {
    const { settings, errors } = parse('?seconds=60&span=0.75&seed=7&view=steady-log&workload=hot-cold');
    expect(errors).toEqual([]);
    expect(settings).toEqual({ ...DEFAULTS, span: 0.75, seconds: 60, seed: 7, view: 'steady-log', workload: 'hot-cold' });
  });

  it('names a set.__proto__ key, which a plain object would drop unreported', () => {
    const { settings, errors } = parse('?set.__proto__=1&set.gc.pacing=lazy');
    expect(errors).toEqual(['set.__proto__: "__proto__" is not a parameter path like gc.pacing']);
    expect(settings.overrides).toEqual({ 'gc.pacing': 'lazy' });
  });

  it('reports each bad value in a sentence and keeps the good ones', () => {
    const { settings, errors } = parse('?seconds=abc&span=2&seed=3');
    expect(settings.seconds).toBe(2000);
    expect(settings.span).toBe(1);
    expect(settings.seed).toBe(3);
    expect(errors).toEqual([
      'span: must be a number from 0.01 to 1 (got "2")',
      'seconds: must be a whole number from 1 to 86,400 (got "abc")',
    ]);
  });

  it("reads a link's numbers in decimal only, where Number() would read 0x10 as 16", () => {
    const { settings, errors } = parse('?seconds=0x10&seed=0b11&span=0o1');
    expect([settings.seconds, settings.seed, settings.span]).toEqual([2000, 1, 1]);
    expect(errors).toEqual([
      'span: must be a number from 0.01 to 1 (got "0o1")',
      'seconds: must be a whole number from 1 to 86,400 (got "0x10")',
      'seed: must be a whole number from 0 to 4,294,967,295 (got "0b11")',
    ]);
    expect(parse('?seconds=%2060%20&span=.5').settings).toMatchObject({ seconds: 60, span: 0.5 });
  });

  it('rejects fractions for whole numbers, empty values, unknown views and keys', () => {
    const { errors } = parse('?seconds=1.5&seed=&view=pie&colour=red');
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/^seconds: must be a whole number/);
    expect(errors[1]).toMatch(/^seed: must be a whole number/);
    expect(errors[2]).toBe('view: must be one of whole-log, steady-log, steady-linear (got "pie")');
    expect(errors[3]).toMatch(/^colour: unknown setting \(known: drive, span, .*pacing.*set\.PATH\)$/);
  });

  it('reads design options, each checked against its own range', () => {
    const { settings, errors } = parse('?pacing=lazy&qd=8&trim=0.25&plp=failing&plp_fail_s=120&cuts=1200,700.5');
    expect(errors).toEqual([]);
    expect(settings.design).toEqual({ pacing: 'lazy', qd: 8, trim: 0.25, plp: 'failing', plp_fail_s: 120, cuts: [700.5, 1200] });
  });

  it('reports bad design values with the allowed values or range, keeping the rest', () => {
    const { settings, errors } = parse('?pacing=eager&qd=0&trim=1.5&cuts=10,x&victim=fifo&block=4096');
    expect(errors).toEqual([
      'qd: must be a whole number from 1 to 65,536 (got "0")',
      'trim: must be a number from 0 to 0.99 (got "1.5")',
      'pacing: must be one of consistency-first, lazy (got "eager")',
      'cuts: must be a list of numbers above 0 (s), like 700,1200.5 (got "10,x")',
    ]);
    expect(settings.design).toEqual({ victim: 'fifo', block: 4096 });
  });

  it('reads parameter overrides as set.PATH=VALUE, typed like the CLI reads them', () => {
    const { settings, errors } = parse('?set.gc.paced_percent=80&set.power.volatile_cache=true&set.map.scheme=tree&set.=1');
    expect(settings.overrides).toEqual({ 'gc.paced_percent': 80, 'power.volatile_cache': true, 'map.scheme': 'tree' });
    expect(errors).toEqual(['set.: "" is not a parameter path like gc.pacing']);
  });

  it('reads the panel choice, dropping unknown panels with a sentence', () => {
    expect(parse('?charts=wa,latency').settings.charts).toEqual(['wa', 'latency']);
    expect(parse('?charts=').settings.charts).toEqual([]);
    const r = parse('?charts=wa,pie');
    expect(r.settings.charts).toEqual(['wa']);
    expect(r.errors).toEqual(['charts: unknown chart "pie" (known: wa, free, latency)']);
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(settingsToSearch(DEFAULTS, DEFAULTS)).toBe('');
    const s: RunSettings = {
      ...DEFAULTS,
      seconds: 300,
      span: 0.8,
      view: 'steady-linear',
      workload: 'hot-cold',
      design: { pacing: 'lazy', cuts: [700, 1200.5] },
      overrides: { 'gc.paced_percent': 80, 'map.scheme': 'tree' },
      charts: ['wa', 'latency'],
    };
    const search = settingsToSearch(s, DEFAULTS);
    expect(search).toBe(
      '?span=0.8&seconds=300&view=steady-linear&workload=hot-cold&pacing=lazy&cuts=700,1200.5' +
        '&set.gc.paced_percent=80&set.map.scheme=tree&charts=wa,latency',
    );
    expect(parse(search)).toEqual({ settings: s, errors: [] });
  });
});

describe('checking a link against the engine', () => {
  const preset = (id: string, parameters: Record<string, unknown>): DrivePreset => ({
    id,
    name: id,
    interface: 'SATA',
    raw_bytes: 1,
    user_bytes: 1,
    advertised_bytes: 1,
    spec_random_write_iops: 1,
    parameters,
  });
  const engine = {
    presets: [preset('s3700-200', { 'gc.pacing': 'consistency-first' })],
    workloads: [{ id: 'consistency', description: '', block_bytes: 4096, queue_depth: 32, read_percent: 0 }],
    requestFields: { queue_depth: 32 },
  };

  it('keeps known names and reports unknown ones, falling back to the defaults', () => {
    const s = { ...DEFAULTS, drive: 'floppy', workload: 'redo-log', design: { pacing: 'lazy', qd: 8 } };
    const { settings, errors } = checkAgainstEngine(s, DEFAULTS, engine);
    expect(settings).toEqual({ ...DEFAULTS, design: { pacing: 'lazy', qd: 8 } });
    expect(errors).toEqual([
      'drive: unknown drive "floppy" (known: s3700-200)',
      'workload: unknown workload "redo-log" (known: consistency)',
    ]);
  });

  it('drops options this engine does not offer (e.g. compression before it lands)', () => {
    const s = { ...DEFAULTS, design: { compress: 'on', pacing: 'lazy' } };
    const { settings, errors } = checkAgainstEngine(s, DEFAULTS, engine);
    expect(settings.design).toEqual({ pacing: 'lazy' });
    expect(errors).toEqual(['compress: this engine has no such option (a newer version may)']);
  });
});

describe('links with runs to compare', () => {
  it('round-trip each run’s own settings, with the page’s view shared', () => {
    const first = { ...DEFAULTS, seconds: 600, view: 'steady-linear', metric: 'mb_s' };
    const second = { ...DEFAULTS, seconds: 600, drive: 'p3700-400', span: 0.5, design: { victim: 'fifo' } };
    const search = linkSearch(first, [second], DEFAULTS);
    expect(search).toContain('compare=');
    const back = parseLink(search, DEFAULTS, VOCABULARY);
    expect(back.errors).toEqual([]);
    expect(back.settings).toEqual(first);
    expect(back.compare).toEqual([{ ...second, view: 'steady-linear', metric: 'mb_s' }]);
    expect(back.edit).toBe(0);
    expect(parseLink(linkSearch(first, [second], DEFAULTS, 1), DEFAULTS, VOCABULARY).edit).toBe(1);
    expect(parseLink(`${search}&edit=5`, DEFAULTS, VOCABULARY).errors).toEqual(['edit: must be a whole number from 1 to 2 (got "5")']);
  });

  it('name the run a bad compared setting belongs to, keep the rest, and take at most three', () => {
    const c = encodeURIComponent('drive=p3700-400&seconds=abc');
    const back = parseLink(`?seconds=60&compare=${c}&compare=span%3D0.5&compare=seed%3D2&compare=seed%3D3`, DEFAULTS, VOCABULARY);
    expect(back.errors[0]).toBe('compare (run 2) seconds: must be a whole number from 1 to 86,400 (got "abc")');
    expect(back.errors).toContain('compare: at most 3 runs beside the first (the rest were left out)');
    expect(back.compare.map((r) => r.drive)).toEqual(['p3700-400', 's3700-200', 's3700-200']);
    expect(back.compare[1].span).toBe(0.5);
  });
});

describe('number fields name the control and its range', () => {
  // A link's refusal, a field's and a lab file's word the same range the same way.
  it('words a range as a link, a field and a lab file all do', () => {
    const range = (message: string | null | undefined) => message?.replace(/^.*: must be /, '').replace(/ \(got .*\)$/, '');
    const lab = new Reader();
    lab.num({ seconds: 0 }, 'seconds', 'run', 1, 86_400, { whole: true });
    const words = [
      range(checkNumber('seconds', '0', 1, 86_400, true)),
      range(parseNumberText('Duration', '0', 1, 86_400, true).error),
      range(lab.errors[0]),
    ];
    expect(words).toEqual(Array(3).fill('a whole number from 1 to 86,400'));
  });

  it('accepts values in range and refuses the rest with the reason', () => {
    expect(parseNumberText('Duration', '600', 1, 86_400, true)).toEqual({ value: 600 });
    expect(parseNumberText('Duration', '99999999', 1, 86_400, true)).toEqual({
      error: 'Duration: must be a whole number from 1 to 86,400 (got 99999999)',
    });
    expect(parseNumberText('Duration', '-5', 1, 86_400, true).error).toBe('Duration: must be a whole number from 1 to 86,400 (got -5)');
    expect(parseNumberText('Duration', '12.5', 1, 86_400, true).error).toBe('Duration: must be a whole number (got 12.5)');
    expect(parseNumberText('Duration', '0x10', 1, 86_400, true).error).toBe(
      'Duration: must be a whole number from 1 to 86,400 (got "0x10")',
    );
    expect(parseNumberText('Data shrinks by', 'lots', 0, 0.9, false).error).toBe(
      'Data shrinks by: must be a number from 0 to 0.9 (got "lots")',
    );
  });
});
