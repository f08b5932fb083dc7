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
    // fio 3.33's averaged lines carry no block size (0): MB/s from the KiB/s, no IOPS.
    const bw = parseFioLog('x_bw.1.log', '1010, 20495, 1, 0, 0\n2011, 20416, 1, 0, 0\n');
    if (bw.error !== undefined) throw new Error(bw.error);
    const rates = Array.from(bw.log.columns[2]).filter(Number.isFinite);
    expect(rates).toEqual([(20495 * 1024) / 1e6, (20416 * 1024) / 1e6]);
    expect(Array.from(bw.log.columns[1]).filter(Number.isFinite)).toEqual([]);
  });

  // The layouts of fio 3.38's logs (axboe/fio HOWTO.rst "Log File Formats" and iolog.c
  // flush_samples, commit f5344384): log_issue_time adds a seventh column, log_prio writes the
  // priority in hexadecimal, log_window_value=both puts the window's maximum after its mean.
  it('puts each averaged window in the second of its middle, though fio stamps it late', () => {
    // fio's windows end a millisecond or so late (1010, 2011 ms: the first and the second second),
    // or on time (fio 3.33 here: 1000, 2000); half-second windows go two a second.
    for (const text of [
      '1010, 300, 1, 0, 0\n2011, 200, 1, 0, 0\n3012, 100, 1, 0, 0\n',
      '1000, 300, 1, 0, 0\n2000, 200, 1, 0, 0\n3000, 100, 1, 0, 0\n',
    ]) {
      const r = parseFioLog('x_iops.1.log', text);
      if (r.error !== undefined) throw new Error(r.error);
      expect(Array.from(r.log.columns[0])).toEqual([0, 1, 2]);
      expect(Array.from(r.log.columns[1])).toEqual([300, 200, 100]);
    }
    const half = parseFioLog('x_iops.1.log', '500, 100, 1, 0, 0\n1000, 300, 1, 0, 0\n1501, 200, 1, 0, 0\n2002, 400, 1, 0, 0\n');
    if (half.error !== undefined) throw new Error(half.error);
    expect(Array.from(half.log.columns[1])).toEqual([200, 300]);
  });

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

  // fio 3.33 (Debian's), a file-backed job: bssplit=4k/50:64k/50, thinktime=120ms,
  // write_bw_log with log_avg_msec=0, runtime=2500ms. Each line is one I/O at its completion
  // (ms), its own rate (KiB/s) and its size: a second's MB/s is the bytes that completed in it,
  // not the mean of the I/Os' rates (about 600 MB/s here).
  it('sums the bytes a second of a bandwidth log fio wrote per I/O', () => {
    const text = [
      '0, 147758, 1, 4096, 0',
      '123, 128172, 1, 4096, 0',
      '247, 130837, 1, 4096, 0',
      '371, 1556231, 1, 65536, 0',
      '491, 1532862, 1, 65536, 0',
      '615, 89887, 1, 4096, 0',
      '739, 744642, 1, 65536, 0',
      '859, 138224, 1, 4096, 0',
      '979, 1020412, 1, 65536, 0',
      '1103, 734856, 1, 65536, 0',
      '1223, 801154, 1, 65536, 0',
      '1343, 87804, 1, 4096, 0',
      '1464, 885861, 1, 65536, 0',
      '1584, 80148, 1, 4096, 0',
      '1704, 101637, 1, 4096, 0',
      '1824, 90806, 1, 4096, 0',
      '1947, 95783, 1, 4096, 0',
      '2071, 91577, 1, 4096, 0',
      '2191, 97472, 1, 4096, 0',
      '2311, 819527, 1, 65536, 0',
      '2431, 86706, 1, 4096, 0',
    ].join('\n');
    const r = parseFioLog('small_bw.1.log', `${text}\n`);
    if (r.error !== undefined) throw new Error(r.error);
    expect(Array.from(r.log.columns[1])).toEqual([9, 8, 4]);
    const mb = (small: number, large: number) => (small * 4096 + large * 65536) / 1e6;
    expect(Array.from(r.log.columns[2])).toEqual([mb(5, 4), mb(5, 3), mb(3, 1)]);
    expect(r.log.note).toContain('one line per I/O');
    // A second in which no I/O completed is 0, not a gap.
    const gap = parseFioLog('small_bw.1.log', '10, 5000, 0, 4096, 0\n2500, 5000, 0, 4096, 0\n');
    if (gap.error !== undefined) throw new Error(gap.error);
    expect(Array.from(gap.log.columns[2])).toEqual([0.004096, 0, 0.004096]);
  });

  // perftool-incubator/crucible-examples fio.run-file (README.md's run: log_avg_msec=1000,
  // log_unix_epoch=1, write_iops_log, write_bw_log): fio stamps each line with the milliseconds
  // since 1970 (HOWTO "log_unix_epoch"), not since the job began; the log starts at its first.
  it('reads a log stamped from the Unix epoch from its first sample', () => {
    const epoch = 1_696_019_073_376;
    const at = (ms: number, iops: number) => `${epoch + ms}, ${iops}, 0, 65536, 0`;
    const r = parseFioLog('fio_iops.1.log', [at(1001, 27014), at(2001, 26172), at(3002, 28566)].join('\n'));
    if (r.error !== undefined) throw new Error(r.error);
    expect(Array.from(r.log.columns[0])).toEqual([0, 1, 2]);
    expect(Array.from(r.log.columns[1])).toEqual([27014, 26172, 28566]);
    expect(r.log.note).toContain('log_unix_epoch');
    // One line per I/O: the I/Os of each second from the first.
    const perIo = parseFioLog('fio_iops.1.log', [at(3, 1), at(640, 1), at(1010, 1)].join('\n'));
    if (perIo.error !== undefined) throw new Error(perIo.error);
    expect(Array.from(perIo.log.columns[1])).toEqual([2, 1]);
    // A zero-based log keeps its times.
    const late = parseFioLog('fio_iops.1.log', '5000, 7, 0, 4096, 0\n');
    if (late.error !== undefined) throw new Error(late.error);
    expect(late.log.columns[0].length).toBe(5);
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

  // What else fio writes, dropped where a log goes: its results as JSON(+) (ptr1337/dotfiles
  // scripts/misc/fio.sh writes --output-format=json+), terse lines (--minimal: fio 3.32's job
  // line, then `3;fio-3.32;name;...`) and its normal output; each named, not a malformed sample.
  it('says fio’s JSON, terse and normal output are results, not a log', () => {
    const why = (name: string, text: string) => parseFioLog(name, text).error;
    expect(
      why('run.json', '{\n  "fio version" : "fio-3.28",\n  "jobs" : [ { "read" : { "clat_ns" : { "bins" : { "1000" : 3 } } } } ]\n}\n'),
    ).toBe(
      "run.json: is fio's JSON output (--output-format=json or json+): results, no samples over time; the page reads fio's logs (write_iops_log, write_lat_log, write_bw_log)",
    );
    const job = 'name: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1\nfio-3.32\n';
    expect(why('out_iops.1.log', `${job}3;fio-3.32;name;0;0;132160;13209;3302;10005;0;0;0.000000\n`)).toContain(
      "out_iops.1.log: is fio's terse output (--minimal, version 3)",
    );
    expect(why('out.txt', `${job}Starting 1 process\n`)).toContain("out.txt: is fio's normal output");
  });

  it('says when the name does not tell what the values are', () => {
    const r = parseFioLog('results.txt', '1000, 5, 1, 4096\n');
    if (r.error !== undefined) throw new Error(r.error);
    expect(r.log.note).toContain('read as an IOPS log');
  });
});
