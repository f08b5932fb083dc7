import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { byDrive, formatMeasure, parseCalibration } from './calibration';

const outcome = (over: Record<string, unknown> = {}) => ({
  drive: 's3700-200',
  figure: 'steady state: slowest second',
  source: '[000] min 29,150',
  cites: ['AnandTech review'],
  says: 'min 29,150',
  measure: 'min',
  expected: '29,000 to 35,000',
  simulated: 30016,
  holds: true,
  ...over,
});

describe('the saved calibration', () => {
  it('reads what `ssdlab calibrate --save` wrote (public/calibration.json), every outcome', () => {
    const text = readFileSync(new URL('../../../public/calibration.json', import.meta.url), 'utf8');
    const file = JSON.parse(text) as { outcomes: unknown[]; held: number };
    const read = parseCalibration(file);
    if ('error' in read) throw new Error(read.error);
    expect(read.calibration.outcomes).toHaveLength(file.outcomes.length);
    expect(read.calibration.held).toBe(file.held);
  });

  it('names the outcome and the field it cannot read', () => {
    expect(parseCalibration({})).toEqual({ error: 'calibration.json: no "outcomes" list' });
    expect(parseCalibration({ outcomes: [outcome(), outcome({ simulated: 'fast' })] })).toEqual({
      error: 'calibration.json, outcome 2: "simulated" must be a number',
    });
    expect(parseCalibration({ outcomes: [outcome({ cites: [3] })] })).toEqual({
      error: 'calibration.json, outcome 1: "cites" must be a list of titles',
    });
    expect(parseCalibration({ outcomes: [outcome({ holds: 'yes' })] })).toEqual({
      error: 'calibration.json, outcome 1: "holds" must be true or false',
    });
  });

  it('groups by drive in the file’s order and counts what holds', () => {
    const read = parseCalibration({
      outcomes: [outcome(), outcome({ drive: 'p3700-400' }), outcome({ figure: 'spread', holds: false, miss: 'no mechanism' })],
    });
    if ('error' in read) throw new Error(read.error);
    expect(read.calibration.held).toBe(2);
    expect(byDrive(read.calibration.outcomes).map(([d, o]) => [d, o.length])).toEqual([
      ['s3700-200', 2],
      ['p3700-400', 1],
    ]);
  });

  it('gives every measure of the saved calibration its own unit (IOPS only to IOPS measures)', () => {
    const json = JSON.parse(readFileSync(new URL('../../../public/calibration.json', import.meta.url), 'utf8')) as {
      outcomes: { measure: string; figure: string }[];
    };
    const iops = new Set(['min', 'max', 'mean']);
    const wrong = json.outcomes.filter((o) => !iops.has(o.measure) && formatMeasure(o.measure, 1).endsWith(' IOPS'));
    expect(wrong.map((o) => `${o.figure}: ${o.measure}`)).toEqual([]);
  });

  it('gives each measure its unit', () => {
    expect(formatMeasure('min', 30016.4)).toMatch(/^30,016 IOPS$/);
    expect(formatMeasure('fill_mean_mb_s', 1587.2)).toMatch(/^1,587 MB\/s$/);
    expect(formatMeasure('phase_end_gb', 114.62)).toBe('114.6 GB');
    expect(formatMeasure('spread', 0.125)).toBe('12.5 %');
  });
});
