import { describe, expect, it } from 'vitest';
import { ColumnStore } from '../data/columns';
import { windowStats } from './RunStats';

function store(cols: Record<string, number[]>): ColumnStore {
  const fields = Object.keys(cols);
  const s = new ColumnStore(fields);
  s.appendColumnMajor(fields, cols.second.length, new Float64Array(fields.flatMap((f) => cols[f])));
  return s;
}

describe('the chart window’s IOPS numbers', () => {
  // A replay of 1,000 IOs a second that ended 0.5 s into its third second: the engine's summary
  // (Summary::from_samples) gives mean 1000, lowest and highest 1000, and so does the page.
  it('counts a last second the run covered in part by its share, as the engine’s summary does', () => {
    const s = store({ second: [0, 1, 2], iops: [1000, 1000, 500], second_covered: [1, 1, 0.5] });
    const w = windowStats(s, 'iops', 0, 2);
    expect([w.mean, w.min, w.max, w.count, w.partial]).toEqual([1000, 1000, 1000, 3, 0.5]);
    // Shorter than a second: its rate.
    const short = windowStats(store({ second: [0], iops: [300], second_covered: [0.3] }), 'iops', 0, 0);
    expect([short.mean, short.min, short.max]).toEqual([1000, 1000, 1000]);
  });

  it('takes a mean (latency) over seconds as they are: a partial second is no amount to share out', () => {
    const s = store({ second: [0, 1, 2], mean_latency_us: [100, 100, 400], second_covered: [1, 1, 0.5] });
    const w = windowStats(s, 'mean_latency_us', 0, 2, false);
    expect([w.mean, w.min, w.max]).toEqual([200, 100, 400]);
    expect(w.partial).toBeNaN();
  });

  it('reads a run without the column (kept from an older engine) as whole seconds', () => {
    const w = windowStats(store({ second: [0, 1, 2], iops: [900, 0, 300] }), 'iops', 0, 2);
    expect([w.mean, w.min, w.max, w.zeros]).toEqual([400, 0, 900, 1]);
    expect(w.partial).toBeNaN();
  });
});
