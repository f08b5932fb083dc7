import { describe, expect, it } from 'vitest';
import { ColumnStore } from '../data/columns';
import { explainSecond } from './second';

const PARAMS = {
  'gc.pacing': 'consistency-first',
  'gc.start_free_blocks': 6,
  'gc.boost_below_free_blocks': 3,
  'gc.boost_until_free_blocks': 5,
  'geometry.dies': 33,
};

/** Ten seconds at 30K IOPS, second 5 a dip with the clean-up running; columns by name. */
function run(extra: Record<string, number[]> = {}) {
  const n = 10;
  const cols: Record<string, number[]> = {
    second: [...Array(n).keys()],
    iops: Array.from({ length: n }, (_, i) => (i === 5 ? 12_000 : 30_000)),
    gc_moves: Array.from({ length: n }, (_, i) => (i === 5 ? 60_000 : 20_000)),
    erases: Array(n).fill(40),
    free_blocks: Array.from({ length: n }, (_, i) => (i === 5 ? 80 : 190)),
    free_blocks_per_die: Array.from({ length: n }, (_, i) => (i === 5 ? 80 / 33 : 190 / 33)),
    gc_boost: Array.from({ length: n }, (_, i) => (i === 5 ? 1 : 0)),
    host_writes: Array.from({ length: n }, (_, i) => (i === 5 ? 12_000 : 30_000)),
    mean_latency_us: Array(n).fill(1000),
    max_latency_us: Array.from({ length: n }, (_, i) => (i === 5 ? 45_000 : 3000)),
    ...extra,
  };
  const fields = Object.keys(cols);
  const s = new ColumnStore(fields);
  s.appendColumnMajor(fields, n, new Float64Array(fields.flatMap((f) => cols[f])));
  return s;
}

describe('why was this second slow', () => {
  it('names the host cleaner’s copies, and a drive with placement handles whose GC took only empty blocks', () => {
    const texts = (extra: Record<string, number[]>, parameters: Record<string, unknown> = PARAMS) =>
      explainSecond(run(extra), 5, { parameters })!.findings.map((f) => f.text);
    const cleaning = 'The host was cleaning zones: 120.5 MB/s of its writes were copies of live data';
    expect(texts({ cleaner_mb_s: Array(10).fill(120.5), app_mb_s: Array(10).fill(300) }).join('\n')).toContain(cleaning);
    expect(texts({ cleaner_mb_s: Array(10).fill(0) }).join('\n')).not.toContain('cleaning zones');
    const died = 'Every block GC took was empty: data died together';
    const together = { gc_moves: Array(10).fill(0), wa_second: Array(10).fill(1.002) };
    const tagged = { ...PARAMS, 'placement.handles': 8 };
    expect(texts(together, tagged).join('\n')).toContain(died);
    // Not on a drive without handles, nor when GC copied, nor with flash writes beyond the host's.
    expect(texts(together).join('\n')).not.toContain(died);
    expect(texts({ ...together, gc_moves: Array(10).fill(5) }, tagged).join('\n')).not.toContain(died);
    expect(texts({ ...together, wa_second: Array(10).fill(1.2) }, tagged).join('\n')).not.toContain(died);
  });

  it('traces a dip to the clean-up, the GC copies and the free-block level, in plain words', () => {
    const story = explainSecond(run(), 5, { parameters: PARAMS })!;
    expect(story.headline).toBe('Second 5: 12,000 IOs completed, 60% below the 30,000 typical of the seconds around it.');
    const text = story.findings.map((f) => f.text).join('\n');
    expect(text).toContain('The drive-wide clean-up was running: free blocks had fallen below 3 per die');
    expect(text).toContain(
      'Garbage collection copied 60,000 still-valid 4 KB pages (5 for every page the host wrote), 3 times the usual 20,000, and erased 40 blocks',
    );
    expect(text).toContain('Free blocks were at 2.4 per die (80 in all); GC starts below 6, the drive-wide clean-up below 3.');
    expect(text).toContain('the slowest took 45 ms (45 times the mean)');
    expect(story.findings[0].kind).toBe('cause');
  });

  it('lists columns it does not know, and reads latency percentiles when the engine adds them', () => {
    const story = explainSecond(run({ p99_latency_us: Array(10).fill(2500), die_busy_gc_read: Array(10).fill(0.25) }), 5, {
      parameters: PARAMS,
    })!;
    expect(story.findings.map((f) => f.text)).toContain('Latency percentiles: 99th percentile 2.5 ms.');
    expect(story.values.find((v) => v.field === 'die_busy_gc_read')).toEqual({
      field: 'die_busy_gc_read',
      label: 'die busy gc read',
      value: '0.25',
    });
    expect(story.values.find((v) => v.field === 'gc_boost')?.value).toBe('yes');
  });

  it('says a quiet second is typical, and nothing for a second not yet run', () => {
    const story = explainSecond(run(), 2, { parameters: PARAMS })!;
    expect(story.headline).toContain('about the 30,000 typical');
    expect(explainSecond(run(), 50, { parameters: PARAMS })).toBeNull();
  });

  it('names the host memory buffer on a DRAM-less drive, and only there', () => {
    const hmb = explainSecond(run({ map_hit_rate: Array(10).fill(0.95), map_hmb_hit_rate: Array(10).fill(0.6) }), 5, {
      parameters: PARAMS,
    })!;
    const text = hmb.findings.map((f) => f.text).join('\n');
    expect(text).toContain('5% of map lookups missed the map cache (the controller’s memory and the host memory buffer)');
    expect(text).toContain('60% of map lookups were answered by the host memory buffer');
    expect(hmb.values.find((v) => v.field === 'map_hmb_hit_rate')?.label).toBe('Map lookups answered by the host memory buffer');
    const dram = explainSecond(run({ map_hit_rate: Array(10).fill(0.95), map_hmb_hit_rate: Array(10).fill(0) }), 5, {
      parameters: PARAMS,
    })!;
    const words = dram.findings.map((f) => f.text).join('\n');
    expect(words).toContain('missed the map cache (the controller’s memory);');
    expect(words).not.toContain('host memory buffer');
  });

  it('says where the writes went on a drive with an SLC cache', () => {
    const params = { ...PARAMS, 'nand.cell': 'qlc' };
    const cached = explainSecond(
      run({ host_to_slc: Array(10).fill(1), slc_free_gb: Array(10).fill(42), fold_mb_s: Array(10).fill(0) }),
      5,
      {
        parameters: params,
      },
    )!;
    const inCache = cached.findings.find((f) => f.text.includes('SLC cache'))!;
    expect(inCache.kind).toBe('state');
    expect(inCache.text).toContain('100% of the data written this second went into the SLC cache');
    expect(inCache.text).toContain('42 GB of room was left');
    const full = explainSecond(
      run({ host_to_slc: Array(10).fill(0.1), slc_free_gb: Array(10).fill(0), fold_mb_s: Array(10).fill(160) }),
      5,
      { parameters: params },
    )!;
    const cause = full.findings.find((f) => f.text.includes('SLC cache'))!;
    expect(cause.kind).toBe('cause');
    expect(cause.text).toContain('The SLC cache was full: only 10% of the writes went into SLC, the rest straight to QLC');
    expect(cause.text).toContain('folded 160 MB/s of cached data into QLC blocks');
    expect(full.values.find((v) => v.field === 'slc_free_gb')?.value).toBe('0 GB');
    const noCache = explainSecond(run(), 5, { parameters: params })!;
    expect(noCache.findings.some((f) => f.text.includes('SLC'))).toBe(false);
  });

  it('names throttling, its threshold and its cap', () => {
    const params = {
      ...PARAMS,
      'thermal.cooling': 'bare',
      'thermal.throttle_above_c': [78],
      'thermal.throttle_mb_s': [40],
      'thermal.hysteresis_c': 0.3,
    };
    const hot = explainSecond(
      run({ temperature_c: Array(10).fill(78.2), throttle_step: Array.from({ length: 10 }, (_, i) => (i === 5 ? 1 : 0)) }),
      5,
      {
        parameters: params,
      },
    )!;
    const cause = hot.findings.find((f) => f.text.startsWith('The drive was throttling'))!;
    expect(cause.kind).toBe('cause');
    expect(cause.text).toContain(
      'at 78.2 °C it had passed its throttle point (78 °C), so the firmware slowed its writes to 40 MB/s until it cools below 77.7 °C',
    );
    const cool = explainSecond(run({ temperature_c: Array(10).fill(60), throttle_step: Array(10).fill(0) }), 5, { parameters: params })!;
    expect(cool.findings.some((f) => f.text.includes('throttling'))).toBe(false);
  });
});
