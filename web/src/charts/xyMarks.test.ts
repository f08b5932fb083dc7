import { describe, expect, it } from 'vitest';
import { lineMarks, perPixelColumn, type XYPoint } from './xyMarks';

describe('a dense line per pixel column', () => {
  // 10,000 seconds on a 500-pixel chart: 20 points a column.
  const points: XYPoint[] = Array.from({ length: 10_000 }, (_, i) => ({
    x: i,
    y: i === 4_321 ? 9_000 : i === 7_777 ? -5 : (i * 37) % 101,
  }));
  const x = (v: number) => (v / 10_000) * 500;
  const kept = perPixelColumn(points, x);

  it('keeps at most four points a column, in x order', () => {
    expect(kept.length).toBeLessThanOrEqual(4 * 501);
    expect(kept.length).toBeGreaterThan(500);
    for (let i = 1; i < kept.length; i++) expect(kept[i].x).toBeGreaterThan(kept[i - 1].x);
  });

  it("keeps each column's first, last, lowest and highest point: a one-second dip or spike is still drawn", () => {
    expect(kept).toContainEqual({ x: 4_321, y: 9_000 });
    expect(kept).toContainEqual({ x: 7_777, y: -5 });
    expect(kept[0]).toEqual(points[0]);
    expect(kept[kept.length - 1]).toEqual(points[points.length - 1]);
    for (let c = 0; c < 500; c++) {
      const inColumn = (q: XYPoint) => Math.round(x(q.x)) === c;
      const all = points.filter(inColumn).map((q) => q.y);
      const drawn = kept.filter(inColumn).map((q) => q.y);
      expect(Math.min(...drawn)).toBe(Math.min(...all));
      expect(Math.max(...drawn)).toBe(Math.max(...all));
    }
  });

  it('leaves a line with a point or less a column as it is', () => {
    const sparse = points.filter((_, i) => i % 50 === 0);
    expect(perPixelColumn(sparse, x)).toEqual(sparse);
  });
});

describe('a line chart of a whole 4 TB fill', () => {
  it('draws 25,000 seconds of two series without overflowing the stack (it spread every value into Math.max)', () => {
    const points = Array.from({ length: 25_000 }, (_, i) => ({ x: i * 0.16, y: 100 + (i % 7), lo: 90, hi: 120 }));
    const series = ['host', 'fold'].map((key) => ({ key, label: key, color: 'red', dots: false, points }));
    for (const y of ['linear', 'log'] as const) {
      const body = lineMarks({ series, x: 'linear', y, xLabel: 'GB written', yLabel: 'MB/s' }, 800, 300, String);
      expect(body.empty).toBe(false);
    }
  });
});
