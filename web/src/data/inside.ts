// What the drive did inside each second (each die's work, the valid-page and erase-count
// histograms) and the run's latency histogram, as the worker sends them. Rows are kept per
// second so the "why" panel can show any second; past a memory budget the oldest go first.

/** The shape of the inside rows (`inside_layout()`): per die 6 busy shares, then the histograms. */
export interface InsideLayout {
  dies: number;
  channels: number;
  kinds: string[];
  valid_bins: number;
  erase_bins: number;
  /** Values per row (one row per simulated second). */
  row: number;
  /** Drives in the run's array (a row holds each member's values in turn); absent or 1: one drive. */
  members?: number;
  /** Values per member in a row (`row` / `members`). */
  member_row?: number;
  /** Placement handles (a drive with them): per die `handles + 1` block counts follow the erase
   * histogram, the last for the GC stream all handles share. */
  handles?: number;
  /** Zones (a zoned drive): per zone its state's number and its write pointer follow. */
  zones?: number;
  /** The zone states' names, by number. */
  zone_states?: string[];
}

/** At most this many bytes of inside rows per run (~40 min of a 256-die drive). */
const INSIDE_BUDGET_BYTES = 64 << 20;

/** The kinds of die work, in the engine's order, with the page's words and colours. */
export const DIE_WORK = [
  { id: 'host_read', label: 'host read', color: 'var(--series-1)' },
  { id: 'host_program', label: 'host program', color: 'var(--c-teal)' },
  { id: 'gc_read', label: 'GC read', color: 'var(--c-green)' },
  { id: 'gc_program', label: 'GC program', color: 'var(--c-amber)' },
  { id: 'erase', label: 'erase', color: 'var(--c-red)' },
  { id: 'map', label: 'map', color: 'var(--c-violet)' },
  { id: 'fold', label: 'folding', color: 'var(--c-pink)' },
] as const;

/** One second inside the drive, read out of a row. */
export interface InsideSecond {
  second: number;
  /** die -> the share of the second spent on each kind of work (DIE_WORK's order). */
  dies: Float32Array[];
  /** Closed blocks by the share of them still valid, in equal bins from 0 to 100 %. */
  valid: Float32Array;
  /** Blocks by erase count, in equal bins from `eraseMin` to `eraseMax`. */
  erase: Float32Array;
  eraseMin: number;
  eraseMax: number;
  /** die -> its open and closed blocks by placement handle (the last: the shared GC stream's);
   * null on a drive without handles. */
  handleBlocks: Float32Array[] | null;
  /** Per zone its state (an index into the layout's `zone_states`) and its write pointer as a
   * share of its capacity (0 to 1); null on a drive without zones. */
  zoneStates: Uint8Array | null;
  zoneWritten: Float32Array | null;
}

interface Chunk {
  first: number;
  n: number;
  data: Float32Array;
}

export class InsideStore {
  layout: InsideLayout | null = null;
  /** The run's latency histogram: (lowest ns, next lowest ns, count) triples. */
  latency: Float64Array = new Float64Array(0);
  /** Bumped on every change (views redraw when it moves). */
  version = 0;
  private chunks: Chunk[] = [];
  private bytes = 0;

  constructor(private readonly budget = INSIDE_BUDGET_BYTES) {}

  reset(layout: InsideLayout | null): void {
    this.layout = layout;
    this.latency = new Float64Array(0);
    this.chunks = [];
    this.bytes = 0;
    this.version++;
  }

  /** Rows of `n` seconds from second `first` on. */
  append(first: number, n: number, data: Float32Array, latency: Float64Array): void {
    if (!this.layout || n === 0 || data.length !== n * this.layout.row) return;
    this.chunks.push({ first, n, data });
    this.bytes += data.byteLength;
    while (this.bytes > this.budget && this.chunks.length > 1) this.bytes -= this.chunks.shift()!.data.byteLength;
    this.latency = latency;
    this.version++;
  }

  /** The earliest second still kept (NaN when none). */
  get firstSecond(): number {
    return this.chunks[0]?.first ?? NaN;
  }

  get lastSecond(): number {
    const c = this.chunks.at(-1);
    return c ? c.first + c.n - 1 : NaN;
  }

  /** Second `second` of the drive (or of the array's member `member`, from 0), or null when it
   * has not come yet or was dropped for memory. */
  at(second: number, member = 0): InsideSecond | null {
    const layout = this.layout;
    const chunk = this.chunks.find((c) => second >= c.first && second < c.first + c.n);
    if (!layout || !chunk) return null;
    const size = layout.member_row ?? layout.row;
    const start = (second - chunk.first) * layout.row + Math.min(member, (layout.members ?? 1) - 1) * size;
    const row = chunk.data.subarray(start, start + size);
    const k = layout.kinds.length;
    const dies = Array.from({ length: layout.dies }, (_, d) => row.subarray(d * k, (d + 1) * k));
    const v0 = layout.dies * k;
    const e0 = v0 + layout.valid_bins;
    const h0 = e0 + layout.erase_bins + 2;
    const perDie = layout.handles ? layout.handles + 1 : 0;
    const z0 = h0 + layout.dies * perDie;
    const zones = layout.zones ?? 0;
    return {
      second,
      dies,
      valid: row.subarray(v0, e0),
      erase: row.subarray(e0, e0 + layout.erase_bins),
      eraseMin: row[e0 + layout.erase_bins],
      eraseMax: row[e0 + layout.erase_bins + 1],
      handleBlocks: perDie ? Array.from({ length: layout.dies }, (_, d) => row.subarray(h0 + d * perDie, h0 + (d + 1) * perDie)) : null,
      zoneStates: zones ? Uint8Array.from({ length: zones }, (_, z) => row[z0 + 2 * z]) : null,
      zoneWritten: zones ? Float32Array.from({ length: zones }, (_, z) => row[z0 + 2 * z + 1]) : null,
    };
  }
}

/** Latency percentiles from histogram triples: the middle of the bucket holding each, in µs. */
export function latencyPercentiles(triples: Float64Array, percents: readonly number[]): number[] {
  let total = 0;
  for (let i = 2; i < triples.length; i += 3) total += triples[i];
  return percents.map((p) => {
    if (total === 0) return NaN;
    const target = Math.min(total, Math.max(1, Math.ceil((p / 100) * total)));
    let seen = 0;
    for (let i = 0; i < triples.length; i += 3) {
      seen += triples[i + 2];
      if (seen >= target) return (triples[i] + (triples[i + 1] - triples[i]) / 2) / 1000;
    }
    return NaN;
  });
}
