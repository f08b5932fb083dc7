import { describe, expect, it } from 'vitest';
import { parseFioLog } from './fioLog';

describe('fio logs dropped on the chart', () => {
  it('reads an IOPS log averaged per second into the engine’s column names', () => {
    const text = '1000, 30123, 1, 4096, 0\n2000, 29000, 1, 4096, 0\n3000, 0, 1, 4096, 0\n';
    const r = parseFioLog('s3700_iops.1.log', text);
    if (r.error !== undefined) throw new Error(r.error);
    expect(r.log.fields).toEqual(['second', 'iops', 'mb_s']);
    expect(Array.from(r.log.columns[0])).toEqual([0, 1, 2]);
    expect(Array.from(r.log.columns[1])).toEqual([30123, 29000, 0]);
    expect(r.log.columns[2][0]).toBeCloseTo((30123 * 4096) / 1e6);
  });

  it('reads latency (ns) and bandwidth (KiB/s) logs, with priorities and several samples a second', () => {
    const lat = parseFioLog('drive_clat.1.log', '500, 800000, 1, 4096, 0, 0\n1000, 1200000, 1, 4096, 0, 0\n');
    if (lat.error !== undefined) throw new Error(lat.error);
    expect(lat.log.fields).toEqual(['second', 'mean_latency_us']);
    expect(lat.log.columns[1][0]).toBe(1000);
    const bw = parseFioLog('x_bw.1.log', '1000, 120000, 1, 4096, 0\n');
    if (bw.error !== undefined) throw new Error(bw.error);
    expect(bw.log.columns[1][0]).toBe(30000);
  });

  it('names the file and the line of a malformed sample', () => {
    expect(parseFioLog('a_iops.1.log', '1000, 5, 1, 4096\n2000, five, 1, 4096\n').error).toBe(
      'a_iops.1.log, line 2: expected "time_ms, value, ddir, bs[, offset]" with numbers (got "2000, five, 1, 4096")',
    );
    expect(parseFioLog('a_iops.1.log', '1000 5 1 4096\n').error).toContain('line 1: expected');
    expect(parseFioLog('a_iops.1.log', '1000, 5, 7, 4096\n').error).toContain(
      'line 1: the direction must be 0 (read), 1 (write) or 2 (trim)',
    );
    expect(parseFioLog('empty.log', '\n\n').error).toBe(
      'empty.log: has no samples (expected lines of "time_ms, value, ddir, bs[, offset]" with numbers)',
    );
  });

  it('says when the name does not tell what the values are', () => {
    const r = parseFioLog('results.txt', '1000, 5, 1, 4096\n');
    if (r.error !== undefined) throw new Error(r.error);
    expect(r.log.note).toContain('read as an IOPS log');
  });
});
