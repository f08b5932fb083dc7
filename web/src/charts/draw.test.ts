import { describe, expect, it } from 'vitest';
import { scaleLinear } from 'd3';
import { drawBands, drawLine, drawScatter, type ScatterStyle } from './draw';
import { makeYScale } from './scales';

/** Records the calls drawScatter makes on a 2D context. */
function fakeContext() {
  const calls: { op: string; args: number[]; fill?: string }[] = [];
  const ctx = {
    fillStyle: '',
    beginPath: () => calls.push({ op: 'beginPath', args: [] }),
    moveTo: (...a: number[]) => calls.push({ op: 'moveTo', args: a }),
    lineTo: (...a: number[]) => calls.push({ op: 'lineTo', args: a }),
    stroke: () => calls.push({ op: 'stroke', args: [] }),
    arc: (...a: number[]) => calls.push({ op: 'arc', args: a }),
    closePath: () => calls.push({ op: 'closePath', args: [] }),
    fill() {
      calls.push({ op: 'fill', args: [], fill: ctx.fillStyle });
    },
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, calls };
}

const STYLE: ScatterStyle = { dot: 'blue', zero: 'red', above: 'orange', radius: 1.5 };

describe('drawScatter', () => {
  const x = scaleLinear().domain([0, 10]).range([0, 100]);
  const y = makeYScale('log', [1, 100_000], [100, 0]);

  it('draws one dot per second and zeros as floor markers', () => {
    const { ctx, calls } = fakeContext();
    const xs = new Float64Array([1, 2, 3, 4, 5]);
    const ys = new Float64Array([60_000, 0, 30_000, NaN, 0]);
    const c = drawScatter(ctx, xs, ys, 5, x, y, 'log', [0, 10], [1, 100_000], STYLE);
    expect(c).toEqual({ points: 4, zeros: 2, above: 0 });
    const arcs = calls.filter((k) => k.op === 'arc');
    expect(arcs).toHaveLength(2);
    // Zero markers: triangles whose tip sits on the axis floor (y = 100).
    const tips = calls.filter((k) => k.op === 'lineTo' && k.args[1] === 100);
    expect(tips.map((k) => k.args[0])).toEqual([20, 50]);
    expect(calls.filter((k) => k.op === 'fill').map((k) => k.fill)).toEqual(['blue', 'red']);
  });

  it('skips seconds outside the x range and duplicates of a filled pixel', () => {
    const { ctx, calls } = fakeContext();
    const xs = new Float64Array([1, 1, 9, 12]);
    const ys = new Float64Array([500, 500, 500, 500]);
    const c = drawScatter(ctx, xs, ys, 4, x, y, 'log', [0, 10], [1, 100_000], STYLE);
    expect(c.points).toBe(3);
    expect(calls.filter((k) => k.op === 'arc')).toHaveLength(2);
  });

  it('only reads the first n values', () => {
    const { ctx } = fakeContext();
    const xs = new Float64Array([1, 2, 3]);
    const ys = new Float64Array([5, 6, 7]);
    expect(drawScatter(ctx, xs, ys, 2, x, y, 'log', [0, 10], [1, 100_000], STYLE).points).toBe(2);
  });
});

describe('drawLine', () => {
  const x = scaleLinear().domain([0, 10]).range([0, 100]);
  const y = scaleLinear().domain([0, 10]).range([100, 0]);

  it('joins the seconds in view, breaks at NaN and counts seconds above the top', () => {
    const { ctx, calls } = fakeContext();
    const xs = new Float64Array([1, 2, 3, 4, 5, 12]);
    const ys = new Float64Array([2, 40, NaN, 4, 5, 6]);
    const c = drawLine(ctx, xs, ys, 6, x, y, [0, 10], [0, 10], 'green');
    expect(c).toEqual({ points: 4, zeros: 0, above: 1 });
    // Two pieces: 1-2 (the 40 clamped to the top edge), then 4-5; second 12 is out of view.
    expect(calls.filter((k) => k.op === 'moveTo').map((k) => k.args)).toEqual([
      [10, 80],
      [40, 60],
    ]);
    expect(calls.filter((k) => k.op === 'lineTo').map((k) => k.args)).toEqual([
      [20, 0],
      [50, 50],
    ]);
  });
});

describe('drawBands', () => {
  const x = scaleLinear().domain([0, 10]).range([0, 100]);

  it('shades each run of seconds in the state with one rectangle', () => {
    const rects: number[][] = [];
    const ctx = { fillStyle: '', fillRect: (...a: number[]) => rects.push(a) } as unknown as CanvasRenderingContext2D;
    const xs = new Float64Array([0, 1, 2, 3, 4, 5, 6]);
    const boost = new Float64Array([0, 1, 1, 0, 1, 1, 1]);
    expect(drawBands(ctx, xs, boost, 7, x, [0, 10], 1, 5, 95, 'orange')).toBe(5);
    expect(rects).toEqual([
      [10, 5, 20, 90],
      [40, 5, 30, 90],
    ]);
  });
});
