import { describe, expect, it } from 'vitest';
import { placeGuideNotes, type GuideSegment, type NotePlace } from './guideNotes';
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

describe('placeGuideNotes', () => {
  const h = (x0: number, x1: number, y: number, text: string): GuideSegment => ({ x0, x1, y0: y, y1: y, vertical: false, text });
  const v = (x: number, text: string): GuideSegment => ({ x0: x, x1: x, y0: 300, y1: 0, vertical: true, text });
  /** The note's left and right edges, by the placement's own width estimate. */
  const edges = (p: NotePlace, text: string) => {
    const width = text.length * 6.2;
    return p.anchor === 'start' ? [p.x, p.x + width] : [p.x - width, p.x];
  };

  it('writes a long horizontal line’s note over its right end', () => {
    const [p] = placeGuideNotes([h(0, 600, 100, 'published 169 MB/s')], 800);
    expect(p).toEqual({ x: 596, y: 95, anchor: 'end' });
  });

  it('never lets a short line’s note run off the plot’s left edge: it goes past the line’s end', () => {
    // KitGuru's 487 MB/s over 1-5 GB of a 4 TB fill: a few pixels at the left edge.
    const text = 'published 487 MB/s';
    const [p] = placeGuideNotes([h(1, 6, 100, text)], 800);
    const [left, right] = edges(p, text);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(800);
    expect(left).toBeGreaterThanOrEqual(6); // beside the line, not over it
  });

  it('keeps a short line’s note inside a plot too narrow for it beside the line', () => {
    const text = 'published average 800 MB/s';
    const [p] = placeGuideNotes([h(180, 190, 100, text)], 200);
    const [left, right] = edges(p, text);
    expect(left).toBeGreaterThanOrEqual(0);
    expect(right).toBeLessThanOrEqual(200);
  });

  it('stacks the notes of vertical lines at the same place instead of writing one over the other', () => {
    const texts = ['cache full at 78 GB', 'published: cache ends at 78 GB'];
    const [a, , b] = placeGuideNotes([v(130, texts[0]), h(0, 700, 200, 'published 169 MB/s'), v(131, texts[1])], 800);
    expect(a.y).not.toBe(b.y);
    expect(Math.abs(a.y - b.y)).toBeGreaterThanOrEqual(13);
  });

  it('keeps vertical notes far apart on one row, and turns a note at the right edge to its left', () => {
    const [a, b, c] = placeGuideNotes([v(50, 'cache full at 10 GB'), v(500, 'cache full at 400 GB'), v(795, 'published: cache ends')], 800);
    expect(a.y).toBe(b.y);
    expect(c.anchor).toBe('end');
    expect(edges(c, 'published: cache ends')[1]).toBeLessThanOrEqual(800);
  });
});
