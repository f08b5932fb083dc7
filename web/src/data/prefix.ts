// A run's seconds up to a chosen one: what an embed shows after its host page seeks (a story told
// as the reader scrolls). It is a read-only view of the run's store that the charts draw like any
// store; the run itself goes on filling the store behind it.

import { ColumnStore, type StoreListener } from './columns';

export class StorePrefix extends ColumnStore {
  private until: number | null = null;
  private readonly viewers = new Set<StoreListener>();
  private readonly unsubscribe: () => void;

  constructor(private readonly source: ColumnStore) {
    super();
    this.unsubscribe = source.subscribe(() => this.notify());
  }

  /** Shows seconds up to `second` (null: every second the run has). */
  setUntil(second: number | null): void {
    if (second === this.until) return;
    this.until = second;
    this.notify();
  }

  override get length(): number {
    const n = this.source.length;
    if (this.until === null || n === 0 || !this.source.has('second')) return n;
    // Seconds arrive in order: the rows up to `until` are a prefix.
    const xs = this.source.column('second');
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (xs[mid] <= this.until) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  override get fields(): readonly string[] {
    return this.source.fields;
  }
  override has(field: string): boolean {
    return this.source.has(field);
  }
  override column(field: string): Float64Array {
    return this.source.column(field).subarray(0, this.length);
  }
  override last(field: string): number {
    const n = this.length;
    return n > 0 && this.source.has(field) ? this.source.column(field)[n - 1] : NaN;
  }
  override reset(): void {
    // A view: the run's own store is reset by the run.
  }
  override appendColumnMajor(): void {
    throw new Error('a StorePrefix is read-only');
  }
  override subscribe(fn: StoreListener): () => void {
    this.viewers.add(fn);
    return () => this.viewers.delete(fn);
  }

  /** Stops following the run's store. */
  dispose(): void {
    this.unsubscribe();
    this.viewers.clear();
  }

  private notify(): void {
    this.version++;
    for (const fn of [...this.viewers]) fn();
  }
}
