// Canvas marks for the scatter: one small dot per simulated second.
// Positions come from D3 scales; nothing here allocates per point.

import type { YKind } from '../data/views';
import { Mark, classifyY } from './scales';

export interface ScatterStyle {
  dot: string;
  /** Marker for 0 IOPS seconds on a log axis (drawn at the floor). */
  zero: string;
  /** Marker for values above a fixed top (drawn at the top edge). */
  above: string;
  radius: number;
  /** Skip zeros on a log axis instead of marking them (e.g. latency in a second with no IO). */
  hideZeros?: boolean;
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
    if (m === Mark.None || (m === Mark.ZeroAtFloor && style.hideZeros)) continue;
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

/**
 * A polyline through `xs[i], ys[i]` for `i < n` inside `xDomain`, clamped to `yDomain` (a log
 * axis takes values <= 0 at its floor). NaN breaks the line. Counts the points joined and those
 * above the top (drawn along the top edge).
 */
export function drawLine(
  ctx: CanvasRenderingContext2D,
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  x: Scale,
  y: Scale,
  xDomain: [number, number],
  yDomain: [number, number],
  color: string,
  width = 1.6,
): ScatterCounts {
  let points = 0;
  let above = 0;
  let pen = false;
  ctx.beginPath();
  for (let i = 0; i < n; i++) {
    const xv = xs[i];
    const v = ys[i];
    if (!(xv >= xDomain[0] && xv <= xDomain[1]) || Number.isNaN(v)) {
      pen = false;
      continue;
    }
    const py = y(Math.min(yDomain[1], Math.max(yDomain[0], v)));
    if (pen) ctx.lineTo(x(xv), py);
    else ctx.moveTo(x(xv), py);
    pen = true;
    points++;
    if (v > yDomain[1]) above++;
  }
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  ctx.lineJoin = 'round';
  ctx.stroke();
  return { points, zeros: 0, above };
}

/**
 * Shades the seconds whose value is `value` (a second spans [s, s + 1)), one rectangle per run
 * of such seconds, from `top` to `bottom` in pixels. Returns the seconds shaded.
 */
export function drawBands(
  ctx: CanvasRenderingContext2D,
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  x: Scale,
  xDomain: [number, number],
  value: number,
  top: number,
  bottom: number,
  color: string,
): number {
  let shaded = 0;
  let start = NaN;
  let end = NaN;
  ctx.fillStyle = color;
  const flush = () => {
    if (Number.isNaN(start)) return;
    const x0 = x(Math.max(xDomain[0], start));
    const x1 = x(Math.min(xDomain[1], end));
    ctx.fillRect(x0, top, Math.max(1, x1 - x0), bottom - top);
    start = NaN;
  };
  for (let i = 0; i < n; i++) {
    const s = xs[i];
    const on = ys[i] === value && s + 1 > xDomain[0] && s < xDomain[1];
    if (on && !Number.isNaN(start) && s === end) {
      end = s + 1;
    } else if (on) {
      flush();
      start = s;
      end = s + 1;
    } else {
      flush();
    }
    if (on) shaded++;
  }
  flush();
  return shaded;
}
