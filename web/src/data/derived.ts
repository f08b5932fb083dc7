// Columns the page derives from each batch of engine samples, appended next to the engine's own.

/** Facts about the run's drive the derived columns need. */
export interface DeriveContext {
  dies: number;
  writeBufferBytes: number;
}

const UNIT_BYTES = 4096;

interface Derived {
  name: string;
  needs: readonly string[];
  /** The value for one row, from the needed columns' values in that row. */
  row(v: readonly number[], ctx: DeriveContext): number;
}

const DERIVED: readonly Derived[] = [
  {
    // This second's NAND writes per host write (the engine's column is cumulative).
    name: 'wa_second',
    needs: ['nand_writes', 'host_writes'],
    row: ([nand, host]) => (host > 0 ? nand / host : NaN),
  },
  {
    // Free blocks per die, the unit the GC thresholds are set in.
    name: 'free_blocks_per_die',
    needs: ['free_blocks'],
    row: ([free], ctx) => (ctx.dies > 0 ? free / ctx.dies : NaN),
  },
  {
    name: 'buffer_percent',
    needs: ['buffer_units'],
    row: ([units], ctx) => (ctx.writeBufferBytes > 0 ? (units * UNIT_BYTES * 100) / ctx.writeBufferBytes : NaN),
  },
];

export const DERIVED_FIELDS: readonly string[] = DERIVED.map((d) => d.name);

/**
 * Appends the derived columns to a column-major batch (`fields.length` columns of `n` rows).
 * A derived column whose inputs are missing from the batch is NaN.
 */
export function withDerivedColumns(
  fields: readonly string[],
  n: number,
  data: Float64Array,
  ctx: DeriveContext,
): { fields: string[]; data: Float64Array } {
  const out = new Float64Array((fields.length + DERIVED.length) * n);
  out.set(data.subarray(0, fields.length * n));
  DERIVED.forEach((d, k) => {
    const cols = d.needs.map((f) => fields.indexOf(f));
    const base = (fields.length + k) * n;
    const v = new Array<number>(cols.length);
    for (let i = 0; i < n; i++) {
      if (cols.some((c) => c < 0)) {
        out[base + i] = NaN;
        continue;
      }
      for (let j = 0; j < cols.length; j++) v[j] = data[cols[j] * n + i];
      out[base + i] = d.row(v, ctx);
    }
  });
  return { fields: [...fields, ...DERIVED_FIELDS], data: out };
}
