import { describe, expect, it } from 'vitest';
import type { TableFigure } from '../engine/experimentProtocol';
import { figureMarkers, placeOf, splitFigures } from './experimentFigures';

const base = {
  source: '[003] x',
  cites: ['AnandTech'],
  says: 'x',
  expected: '',
  window_from_s: 1,
  seconds: 5,
  simulated: null,
  holds: null,
};
const read: TableFigure = {
  ...base,
  figure: '4 KB random read QD8',
  measure: 'mean',
  target: 58400,
  not_comparable: null,
  row: { corner: 'random-read', queue_depth: 8 },
  column: 'iops',
  block_bytes: 4096,
};
const write: TableFigure = {
  ...read,
  figure: '128 KB sequential write QD4',
  measure: 'mb_s',
  target: 1900,
  row: { corner: 'sequential-write', queue_depth: 4 },
  column: 'mb_s',
  block_bytes: 131072,
  simulated: 1901,
  holds: true,
};
const latency: TableFigure = { ...read, figure: 'latency', measure: 'latency_mean_us', target: 860, column: 'latency_mean_us' };
const other: TableFigure = { ...read, figure: 'slowest second', measure: 'min', row: null, column: null, not_comparable: 'method: ...' };
const colors = (corner: string) => `c-${corner}`;

describe('an experiment’s published figures', () => {
  it('split into those a row is measured under and the others', () => {
    expect(splitFigures([read, other, write])).toEqual({ comparable: [read, write], other: [other] });
    expect(placeOf(read)).toBe('4 KB random read at QD 8');
    expect(placeOf({ ...read, row: { drives: 4, corner: 'random-read', queue_depth: 32 } })).toBe('4 KB random read, 4 drives at QD 32');
    expect(placeOf({ ...read, row: {}, column: null })).toBeNull(); // a fill's figure: all its seconds
  });

  it('mark each at its queue depth on the chart of its metric, IOPS as MB/s and back at its request size', () => {
    const all = [read, write, latency, other];
    const iops = figureMarkers(all, 'iops', colors);
    expect(iops.map((m) => [m.x, Math.round(m.y), m.color])).toEqual([
      [8, 58400, 'c-random-read'],
      [4, 14496, 'c-sequential-write'], // 1,900 MB/s of 128 KiB requests
    ]);
    const mbS = figureMarkers(all, 'mb_s', colors);
    expect(mbS.map((m) => [m.x, Math.round(m.y * 10) / 10])).toEqual([
      [8, 239.2], // 58,400 IOPS x 4 KiB
      [4, 1900],
    ]);
    expect(mbS[0].label).toContain('58,400 IOPS (239 MB/s at 4 KiB)');
    expect(mbS[1]).toMatchObject({ holds: true });
    expect(mbS[1].label).toContain('this experiment is within the target');
    expect(figureMarkers(all, 'latency_mean_us', colors).map((m) => [m.x, m.y])).toEqual([[8, 860]]);
  });
});
