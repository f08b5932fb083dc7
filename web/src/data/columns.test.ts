import { describe, expect, it, vi } from 'vitest';
import { ColumnStore } from './columns';

const FIELDS = ['second', 'iops', 'write_amplification'];

/** A column-major batch: rows given as arrays in `fields` order. */
function batch(fields: string[], rows: number[][]): Float64Array {
  const n = rows.length;
  const out = new Float64Array(fields.length * n);
  rows.forEach((r, i) => r.forEach((v, c) => (out[c * n + i] = v)));
  return out;
}

describe('ColumnStore', () => {
  it('appends column-major batches into per-field columns', () => {
    const s = new ColumnStore(FIELDS);
    s.appendColumnMajor(
      FIELDS,
      2,
      batch(FIELDS, [
        [1, 66000, 1],
        [2, 65000, 1],
      ]),
    );
    s.appendColumnMajor(FIELDS, 1, batch(FIELDS, [[3, 30000, 1.5]]));
    expect(s.length).toBe(3);
    expect([...s.column('second')]).toEqual([1, 2, 3]);
    expect([...s.column('iops')]).toEqual([66000, 65000, 30000]);
    expect(s.last('write_amplification')).toBe(1.5);
  });

  it('grows past its capacity without losing rows', () => {
    const s = new ColumnStore(['second'], 4);
    for (let i = 0; i < 100; i += 10) {
      const b = new Float64Array(10).map((_, k) => i + k);
      s.appendColumnMajor(['second'], 10, b);
    }
    expect(s.length).toBe(100);
    const col = s.column('second');
    expect(col.length).toBe(100);
    for (let i = 0; i < 100; i++) expect(col[i]).toBe(i);
  });

  it('matches columns by name: reordered, extra and missing fields', () => {
    const s = new ColumnStore(FIELDS);
    const incoming = ['iops', 'gc_moves', 'second']; // no write_amplification, one extra
    s.appendColumnMajor(
      incoming,
      2,
      batch(incoming, [
        [100, 7, 1],
        [200, 8, 2],
      ]),
    );
    expect([...s.column('second')]).toEqual([1, 2]);
    expect([...s.column('iops')]).toEqual([100, 200]);
    expect(s.has('gc_moves')).toBe(false);
    expect(Number.isNaN(s.column('write_amplification')[1])).toBe(true);
  });

  it('rejects a batch whose size does not match fields x n', () => {
    const s = new ColumnStore(FIELDS);
    expect(() => s.appendColumnMajor(FIELDS, 2, new Float64Array(5))).toThrow(/expected 3 x 2/);
    expect(s.length).toBe(0);
  });

  it('tells subscribers about changes and bumps its version', () => {
    const s = new ColumnStore(FIELDS);
    const fn = vi.fn();
    const unsubscribe = s.subscribe(fn);
    const v0 = s.version;
    s.appendColumnMajor(FIELDS, 1, batch(FIELDS, [[1, 2, 3]]));
    expect(fn).toHaveBeenCalledTimes(1);
    expect(s.version).toBe(v0 + 1);
    s.appendColumnMajor(FIELDS, 0, new Float64Array(0)); // empty batch: no change
    expect(fn).toHaveBeenCalledTimes(1);
    s.reset();
    expect(s.length).toBe(0);
    expect(fn).toHaveBeenCalledTimes(2);
    unsubscribe();
    s.reset();
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('reports unknown columns clearly', () => {
    const s = new ColumnStore(FIELDS);
    expect(() => s.column('nope')).toThrow(/no column named "nope"/);
    expect(s.last('nope')).toBeNaN();
  });
});
