import { describe, expect, it } from 'vitest';
import { DERIVED_FIELDS, withDerivedColumns } from './derived';

/** A column-major batch from rows. */
function batch(rows: number[][]): Float64Array {
  const n = rows.length;
  const cols = rows[0].length;
  const out = new Float64Array(cols * n);
  rows.forEach((r, i) => r.forEach((v, c) => (out[c * n + i] = v)));
  return out;
}

const column = (r: { fields: string[]; data: Float64Array }, name: string, n: number) => {
  const c = r.fields.indexOf(name);
  return [...r.data.subarray(c * n, c * n + n)];
};

describe('derived columns', () => {
  const fields = ['second', 'host_writes', 'nand_writes', 'write_amplification', 'free_blocks', 'buffer_units'];
  const ctx = { dies: 33, writeBufferBytes: 1 << 20 };

  it('give this second’s write amplification, not the cumulative one', () => {
    // Second 2 is a clean-up: the cumulative WA barely moves, this second's doubles.
    const rows = [
      [0, 1000, 1000, 1.0, 33 * 24, 0],
      [1, 1000, 1200, 1.1, 33 * 22, 128],
      [2, 500, 2000, 1.4, 33 * 12, 256],
      [3, 0, 300, 1.5, 33 * 13, 0],
    ];
    const r = withDerivedColumns(fields, 4, batch(rows), ctx);
    expect(r.fields).toEqual([...fields, ...DERIVED_FIELDS]);
    expect(column(r, 'wa_second', 4)).toEqual([1, 1.2, 4, NaN]);
    expect(column(r, 'free_blocks_per_die', 4)).toEqual([24, 22, 12, 13]);
    expect(column(r, 'buffer_percent', 4)).toEqual([0, 50, 100, 0]);
    // The engine's columns pass through unchanged.
    expect(column(r, 'write_amplification', 4)).toEqual([1, 1.1, 1.4, 1.5]);
  });

  it('are NaN when their inputs are missing or the drive is unknown', () => {
    const r = withDerivedColumns(
      ['second', 'iops'],
      2,
      batch([
        [0, 5],
        [1, 6],
      ]),
      { dies: NaN, writeBufferBytes: NaN },
    );
    expect(column(r, 'wa_second', 2)).toEqual([NaN, NaN]);
    expect(column(r, 'iops', 2)).toEqual([5, 6]);
    const s = withDerivedColumns(['free_blocks'], 1, batch([[66]]), { dies: NaN, writeBufferBytes: 0 });
    expect(column(s, 'free_blocks_per_die', 1)).toEqual([NaN]);
  });
});
