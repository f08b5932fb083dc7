import { describe, expect, it } from 'vitest';
import { ColumnStore } from '../data/columns';
import { configJson, fioLog, samplesCsv } from './exports';

function store() {
  const s = new ColumnStore(['second', 'iops', 'mean_latency_us', 'mb_s', 'write_amplification', 'wa_second']);
  // Column-major: 2 rows.
  s.appendColumnMajor(s.fields, 2, new Float64Array([0, 1, 30000, 0, 1066.5, NaN, 122.88, 0, 1, 1.1 + 2.2, 1, 2]));
  return s;
}

describe('exports', () => {
  it('write the CLI’s CSV: its columns only, numbers as Rust prints them', () => {
    const csv = samplesCsv(store(), ['second', 'iops', 'mean_latency_us', 'mb_s', 'write_amplification']);
    expect(csv).toBe('second,iops,mean_latency_us,mb_s,write_amplification\n0,30000,1066.5,122.88,1\n1,0,NaN,0,3.3000000000000003\n');
  });

  it('write fio logs stamped at each second’s end, in fio’s units', () => {
    expect(fioLog(store(), 'iops', true, 4096)).toBe('1000, 30000, 1, 4096, 0\n2000, 0, 1, 4096, 0\n');
    // No IO, no latency sample.
    expect(fioLog(store(), 'lat', true, 4096)).toBe('1000, 1066500, 1, 4096, 0\n');
    expect(fioLog(store(), 'bw', false, 4096)).toBe('1000, 120000, 0, 4096, 0\n2000, 0, 0, 4096, 0\n');
  });

  it('write the run request as the CLI’s config file', () => {
    const json = configJson({ drive: 's3700-200', workload: 'consistency', seconds: 60, span: 1, seed: 1, set: { 'gc.pacing': 'lazy' } });
    expect(JSON.parse(json)).toEqual({
      drive: 's3700-200',
      workload: 'consistency',
      seconds: 60,
      span: 1,
      seed: 1,
      set: { 'gc.pacing': 'lazy' },
    });
  });
});
