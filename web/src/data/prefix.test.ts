import { describe, expect, it } from 'vitest';
import { ColumnStore } from './columns';
import { StorePrefix } from './prefix';

const FIELDS = ['second', 'iops'];
const append = (s: ColumnStore, rows: number[][]) => {
  const n = rows.length;
  const data = new Float64Array(FIELDS.length * n);
  rows.forEach((r, i) => r.forEach((v, c) => (data[c * n + i] = v)));
  s.appendColumnMajor(FIELDS, n, data);
};

describe('StorePrefix', () => {
  it('shows the run up to a second, and follows the run as it fills', () => {
    const run = new ColumnStore(FIELDS);
    const view = new StorePrefix(run);
    let heard = 0;
    view.subscribe(() => heard++);
    append(run, [
      [0, 100],
      [1, 90],
      [2, 80],
      [3, 70],
    ]);
    expect(view.length).toBe(4);
    expect(heard).toBe(1);

    const before = view.version;
    view.setUntil(1);
    expect(view.version).toBeGreaterThan(before);
    expect(view.length).toBe(2);
    expect([...view.column('iops')]).toEqual([100, 90]);
    expect(view.last('iops')).toBe(90);

    // Seconds past the end wait for the run.
    view.setUntil(5);
    expect(view.length).toBe(4);
    append(run, [
      [4, 60],
      [5, 50],
      [6, 40],
    ]);
    expect(view.length).toBe(6);
    expect(view.last('second')).toBe(5);

    view.setUntil(null);
    expect(view.length).toBe(7);
    expect(() => view.appendColumnMajor()).toThrow(/read-only/);

    view.dispose();
    const heardBefore = heard;
    append(run, [[7, 30]]);
    expect(heard).toBe(heardBefore);
  });
});
