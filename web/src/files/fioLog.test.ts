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

  // The layouts of fio 3.38's logs (axboe/fio HOWTO.rst "Log File Formats" and iolog.c
  // flush_samples, commit f5344384): log_issue_time adds a seventh column, log_prio writes the
  // priority in hexadecimal, log_window_value=both puts the window's maximum after its mean.
  it('reads the issue-time column, hexadecimal priorities and the window maximum of fio 3.38', () => {
    const issued = parseFioLog(
      'nvme_clat.1.log',
      '412, 81234, 0, 4096, 1048576, 0x4004, 411918766\n913, 118766, 1, 4096, 8192, 0x0000, 912881234\n',
    );
    if (issued.error !== undefined) throw new Error(issued.error);
    expect(Array.from(issued.log.columns[1])).toEqual([100]);
    const both = parseFioLog(
      'nvme_lat.1.log',
      '1000, 812000, 2450000, 0, 0, 0\n1000, 700000, 990000, 1, 0, 0\n2000, 790000, 1980000, 0, 0, 0\n',
    );
    if (both.error !== undefined) throw new Error(both.error);
    // The mean of the read and write means, then the next second's read mean; not the maxima.
    expect(Array.from(both.log.columns[1])).toEqual([756, 790]);
    // A third column below the second is no maximum: the usual layout, a bad direction.
    expect(parseFioLog('a_iops.1.log', '1000, 5, 3, 0, 0, 0\n').error).toContain('the direction must be');
  });

  // fio's default log_avg_msec=0 logs every I/O, an IOPS log with the value 1 (axboe/fio
  // stat.c add_iops_sample): a second's IOPS is its lines, not their mean.
  it('counts the lines of an IOPS log fio wrote per I/O', () => {
    const text = '3, 1, 1, 4096, 0\n3, 1, 1, 4096, 8192\n812, 1, 0, 4096, 0\n1004, 1, 1, 4096, 4096\n';
    const r = parseFioLog('job_iops.1.log', text);
    if (r.error !== undefined) throw new Error(r.error);
    expect(Array.from(r.log.columns[1])).toEqual([3, 1]);
    expect(r.log.note).toContain('one line per I/O');
    // Averaged samples are still means: two 500 ms windows at 1 and 3 IOPS are 2 IOPS.
    const averaged = parseFioLog('job_iops.1.log', '500, 1, 1, 4096, 0\n1000, 3, 1, 4096, 0\n');
    if (averaged.error !== undefined) throw new Error(averaged.error);
    expect(Array.from(averaged.log.columns[1])).toEqual([2]);
  });

  // PerfKitBenchmarker tests/data/fio/hist/pkb_fio_avg_..._clat_hist.1.log (fio 2.17,
  // log_hist_msec=1000): time, direction, block size and 1216 bin counts a line.
  it('says a latency histogram log is one, not a malformed sample', () => {
    const bins = Array.from({ length: 1216 }, (_, i) => (i === 40 ? 7 : 0)).join(', ');
    const error = parseFioLog('run_clat_hist.1.log', `1001, 0, 16384, ${bins}\n`).error;
    expect(error).toContain('run_clat_hist.1.log, line 1: is a latency histogram log');
    expect(error).toContain('1216 bin counts');
  });

  it('names the file and the line of a malformed sample', () => {
    expect(parseFioLog('a_iops.1.log', '1000, 5, 1, 4096\n2000, five, 1, 4096\n').error).toBe(
      'a_iops.1.log, line 2: expected "time_ms, value, ddir, bs[, offset][, priority[, issue_time]]" with numbers (got "2000, five, 1, 4096")',
    );
    expect(parseFioLog('a_iops.1.log', '1000 5 1 4096\n').error).toContain('line 1: expected');
    expect(parseFioLog('a_iops.1.log', '1000, 5, 7, 4096\n').error).toContain(
      'line 1: the direction must be 0 (read), 1 (write) or 2 (trim)',
    );
    expect(parseFioLog('empty.log', '\n\n').error).toBe(
      'empty.log: has no samples (expected lines of "time_ms, value, ddir, bs[, offset][, priority[, issue_time]]" with numbers)',
    );
  });

  it('says when the name does not tell what the values are', () => {
    const r = parseFioLog('results.txt', '1000, 5, 1, 4096\n');
    if (r.error !== undefined) throw new Error(r.error);
    expect(r.log.note).toContain('read as an IOPS log');
  });
});
