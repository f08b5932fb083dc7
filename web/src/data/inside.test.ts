import { describe, expect, it } from 'vitest';
import { InsideStore, type InsideLayout } from './inside';

// One die, 6 kinds, 2 valid bins and 2 erase bins: 6 + 2 + 2 + 2 = 12 values per member.
const layout = (members: number) => ({
  dies: 1,
  channels: 1,
  kinds: ['host_read', 'host_program', 'gc_read', 'gc_program', 'erase', 'map'],
  valid_bins: 2,
  erase_bins: 2,
  members,
  member_row: 12,
  row: 12 * members,
});

/** A member's values for one second: its die's shares all `x`, then its histograms. */
const memberRow = (x: number) => [x, x, x, x, x, x, 10 * x, 20 * x, 30 * x, 40 * x, x, 2 * x];

describe('the inside store', () => {
  it('reads each member of an array out of its second', () => {
    const store = new InsideStore();
    store.reset(layout(3));
    store.append(7, 1, new Float32Array([...memberRow(1), ...memberRow(2), ...memberRow(3)]), new Float64Array(0));
    for (const m of [0, 1, 2]) {
      const at = store.at(7, m)!;
      expect(Array.from(at.dies[0])).toEqual(Array(6).fill(m + 1));
      expect(Array.from(at.valid)).toEqual([10 * (m + 1), 20 * (m + 1)]);
      expect(Array.from(at.erase)).toEqual([30 * (m + 1), 40 * (m + 1)]);
      expect([at.eraseMin, at.eraseMax]).toEqual([m + 1, 2 * (m + 1)]);
    }
    // A member past the last shows the last; a second not recorded is null.
    expect(store.at(7, 9)!.eraseMin).toBe(3);
    expect(store.at(8, 0)).toBeNull();
  });

  it('reads a single drive as before (no members in its layout)', () => {
    const store = new InsideStore();
    const one: InsideLayout = { ...layout(1), row: 12 };
    delete one.members;
    delete one.member_row;
    store.reset(one);
    store.append(0, 2, new Float32Array([...memberRow(1), ...memberRow(5)]), new Float64Array(0));
    expect(store.at(1)!.eraseMax).toBe(10);
  });

  it('reads no handle or zone parts for a drive without them', () => {
    const store = new InsideStore();
    store.reset(layout(1));
    store.append(0, 1, new Float32Array(memberRow(1)), new Float64Array(0));
    const at = store.at(0)!;
    expect([at.handleBlocks, at.zoneStates, at.zoneWritten]).toEqual([null, null, null]);
  });

  it('reads the blocks by handle of each die after the histograms', () => {
    const store = new InsideStore();
    // Two dies, 2 handles: 3 counts a die (the last for the shared GC stream).
    const two = { ...layout(2), dies: 2, handles: 2, member_row: 12 + 6 + 6 };
    two.row = 2 * two.member_row;
    store.reset(two);
    const member = (x: number) => [...Array(12).fill(x), ...memberRow(x).slice(6), 1, 2, 3, 4, 5, 6 * x];
    store.append(3, 1, new Float32Array([...member(1), ...member(2)]), new Float64Array(0));
    const at = store.at(3, 1)!;
    expect([at.eraseMin, at.eraseMax]).toEqual([2, 4]);
    expect(at.handleBlocks!.map((d) => Array.from(d))).toEqual([
      [1, 2, 3],
      [4, 5, 12],
    ]);
    expect(at.zoneStates).toBeNull();
  });

  it("reads each zone's state and write pointer after the histograms", () => {
    const store = new InsideStore();
    const zoned = { ...layout(1), zones: 3, zone_states: ['empty', 'implicitly-opened', 'full'], member_row: 18, row: 18 };
    store.reset(zoned);
    store.append(0, 1, new Float32Array([...memberRow(1), 0, 0, 1, 0.25, 2, 1]), new Float64Array(0));
    const at = store.at(0)!;
    expect(Array.from(at.zoneStates!)).toEqual([0, 1, 2]);
    expect(Array.from(at.zoneWritten!)).toEqual([0, 0.25, 1]);
    expect(at.handleBlocks).toBeNull();
  });
});
