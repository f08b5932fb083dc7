import { describe, expect, it } from 'vitest';
import { checkDrive, parseSettings, settingsToSearch, type RunSettings } from './urlState';

const DEFAULTS: RunSettings = { drive: 's3700-200', span: 1, seconds: 2000, seed: 1, view: 'whole-log' };
const VIEWS = ['whole-log', 'steady-log', 'steady-linear'];

describe('URL settings', () => {
  it('reads good values', () => {
    const { settings, errors } = parseSettings('?seconds=60&span=0.75&seed=7&view=steady-log', DEFAULTS, VIEWS);
    expect(errors).toEqual([]);
    expect(settings).toEqual({ drive: 's3700-200', span: 0.75, seconds: 60, seed: 7, view: 'steady-log' });
  });

  it('reports each bad value in a sentence and keeps the good ones', () => {
    const { settings, errors } = parseSettings('?seconds=abc&span=2&seed=3', DEFAULTS, VIEWS);
    expect(settings.seconds).toBe(2000);
    expect(settings.span).toBe(1);
    expect(settings.seed).toBe(3);
    expect(errors).toEqual([
      'span: must be a number between 0.01 and 1 (got "2")',
      'seconds: must be a whole number between 1 and 86400 (got "abc")',
    ]);
  });

  it('rejects fractions for whole numbers, empty values, unknown views and keys', () => {
    const { errors } = parseSettings('?seconds=1.5&seed=&view=pie&colour=red', DEFAULTS, VIEWS);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/^seconds: must be a whole number/);
    expect(errors[1]).toMatch(/^seed: must be a whole number/);
    expect(errors[2]).toBe('view: must be one of whole-log, steady-log, steady-linear (got "pie")');
    expect(errors[3]).toMatch(/^colour: unknown setting/);
  });

  it('checks drives against the presets once known', () => {
    expect(parseSettings('?drive=x25m', DEFAULTS, VIEWS).settings.drive).toBe('x25m');
    const r = parseSettings('?drive=x25m', DEFAULTS, VIEWS, ['s3700-200']);
    expect(r.settings.drive).toBe('s3700-200');
    expect(r.errors).toEqual(['drive: unknown drive "x25m" (known: s3700-200)']);
    expect(checkDrive('s3700-200', ['s3700-200'])).toBeNull();
  });

  it('writes only what differs from the defaults, and round-trips', () => {
    expect(settingsToSearch(DEFAULTS, DEFAULTS)).toBe('');
    const s = { ...DEFAULTS, seconds: 300, span: 0.8, view: 'steady-linear' };
    const search = settingsToSearch(s, DEFAULTS);
    expect(search).toBe('?span=0.8&seconds=300&view=steady-linear');
    expect(parseSettings(search, DEFAULTS, VIEWS).settings).toEqual(s);
  });
});
