// Canvas marks for the scatter: one small dot per simulated second.
// Positions come from D3 scales; nothing here allocates per point.

import { Mark, classifyY, type YKind } from './scales';

export interface ScatterStyle {
  dot: string;
  /** Marker for 0 IOPS seconds on a log axis (drawn at the floor). */
  zero: string;
  /** Marker for values above a fixed top (drawn at the top edge). */
  above: string;
  radius: number;
}

export interface ScatterCounts {
  /** Seconds drawn, of any mark. */
  points: number;
  zeros: number;
  above: number;
}

export interface Scale {
  (v: number): number;
}

/** Draws `xs[i], ys[i]` for `i < n` whose x lies in `xDomain`. The caller sets the transform. */
export function drawScatter(
  ctx: CanvasRenderingContext2D,
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  x: Scale,
  y: Scale,
  yKind: YKind,
  xDomain: [number, number],
  yDomain: [number, number],
  style: ScatterStyle,
): ScatterCounts {
  const out: [number] = [0];
  const r = style.radius;
  let points = 0;
  let zeros = 0;
  let above = 0;

  // Pass 1: plain dots, one path. Dots landing on an already-filled pixel are skipped
  // (uPlot's trick: when seconds outnumber pixels the picture is the same, the work is not).
  const seen = new Set<number>();
  ctx.beginPath();
  for (let i = 0; i < n; i++) {
    const xv = xs[i];
    if (!(xv >= xDomain[0] && xv <= xDomain[1])) continue;
    const m = classifyY(ys[i], yKind, yDomain, out);
    if (m === Mark.None) continue;
    points++;
    if (m === Mark.ZeroAtFloor) {
      zeros++;
      continue;
    }
    if (m === Mark.AboveTop) {
      above++;
      continue;
    }
    const px = x(xv);
    const py = y(out[0]);
    const key = Math.round(px * 2) * 65536 + Math.round(py * 2);
    if (seen.has(key)) continue;
    seen.add(key);
    ctx.moveTo(px + r, py);
    ctx.arc(px, py, r, 0, 2 * Math.PI);
  }
  ctx.fillStyle = style.dot;
  ctx.fill();

  // Pass 2: the rare special marks, drawn on top so they are never hidden.
  const s = r + 1.8;
  const special = (want: Mark, count: number, color: string, dir: 1 | -1) => {
    if (count === 0) return;
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const xv = xs[i];
      if (!(xv >= xDomain[0] && xv <= xDomain[1])) continue;
      if (classifyY(ys[i], yKind, yDomain, out) !== want) continue;
      const px = x(xv);
      const py = y(out[0]);
      // A triangle with its tip on the axis edge, pointing out of the plot.
      ctx.moveTo(px - s, py - dir * 2 * s);
      ctx.lineTo(px + s, py - dir * 2 * s);
      ctx.lineTo(px, py);
      ctx.closePath();
    }
    ctx.fillStyle = color;
    ctx.fill();
  };
  special(Mark.ZeroAtFloor, zeros, style.zero, 1);
  special(Mark.AboveTop, above, style.above, -1);
  return { points, zeros, above };
}
