// Per-second samples kept as columns: one growing Float64Array per field, no row objects.
// Batches arrive column-major (fields.length columns of n rows) and are appended in place.

export type StoreListener = () => void;

export class ColumnStore {
  private cols = new Map<string, Float64Array>();
  private _fields: string[] = [];
  private _length = 0;
  private capacity = 0;
  /** Bumped on every change; a chart redraws when the version it drew differs. */
  version = 0;
  private readonly listeners = new Set<StoreListener>();

  constructor(fields: readonly string[] = [], initialCapacity = 1024) {
    this.reset(fields, initialCapacity);
  }

  get length(): number {
    return this._length;
  }
  get fields(): readonly string[] {
    return this._fields;
  }

  has(field: string): boolean {
    return this.cols.has(field);
  }

  /** The first `length` values of a field (a view: valid until the next append). */
  column(field: string): Float64Array {
    const c = this.cols.get(field);
    if (!c) throw new Error(`no column named "${field}"`);
    return c.subarray(0, this._length);
  }

  /** The last value of a field, or NaN when empty or unknown. */
  last(field: string): number {
    const c = this.cols.get(field);
    return c && this._length > 0 ? c[this._length - 1] : NaN;
  }

  /** Empties the store, optionally with a new set of fields. */
  reset(fields: readonly string[] = this._fields, initialCapacity = 1024): void {
    this._fields = [...fields];
    this.capacity = Math.max(1, initialCapacity);
    this.cols = new Map(this._fields.map((f) => [f, new Float64Array(this.capacity)]));
    this._length = 0;
    this.changed();
  }

  /**
   * Appends `n` rows given column-major: `data[c * n + i]` is row i of `fields[c]`.
   * Fields are matched by name, so a batch may carry columns in any order, or extra ones
   * (which are ignored). A store field missing from the batch gets NaN.
   */
  appendColumnMajor(fields: readonly string[], n: number, data: Float64Array): void {
    if (data.length !== fields.length * n) {
      throw new Error(`batch has ${data.length} values, expected ${fields.length} x ${n}`);
    }
    if (n === 0) return;
    this.reserve(this._length + n);
    const at = this._length;
    for (const [name, col] of this.cols) {
      const c = fields.indexOf(name);
      if (c < 0) col.fill(NaN, at, at + n);
      else col.set(data.subarray(c * n, c * n + n), at);
    }
    this._length += n;
    this.changed();
  }

  subscribe(fn: StoreListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private reserve(needed: number): void {
    if (needed <= this.capacity) return;
    let cap = this.capacity;
    while (cap < needed) cap *= 2;
    for (const [name, old] of this.cols) {
      const grown = new Float64Array(cap);
      grown.set(old.subarray(0, this._length));
      this.cols.set(name, grown);
    }
    this.capacity = cap;
  }

  private changed(): void {
    this.version++;
    for (const fn of [...this.listeners]) fn();
  }
}

/** The row of `second` in the store (seconds arrive in order, one row each), or -1. */
export function rowOf(store: ColumnStore, second: number): number {
  if (store.length === 0 || !store.has('second')) return -1;
  const xs = store.column('second');
  const guess = second - xs[0];
  if (xs[guess] === second) return guess;
  return xs.indexOf(second);
}

/** The rows [lo, hi) whose x (ascending, e.g. seconds) lies within [from, to]. */
export function rowsWithin(xs: Float64Array, from: number, to: number): [number, number] {
  const first = (v: number, strict: boolean) => {
    let lo = 0;
    let hi = xs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (strict ? xs[mid] <= v : xs[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return [first(from, false), first(to, true)];
}
