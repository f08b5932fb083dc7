// The lines an experiment's charts draw from its table: per run and corner against queue depth,
// per run against spare area. Colours tell corners apart, and line patterns runs.

import type { XYSeries } from '../charts/xyMarks';
import { formatInt } from '../format';
import { column, CORNER_WORDS, num, type ExperimentRun } from './experimentTable';

/** Colours of the corners (run colours tell runs apart when there is one corner). */
export const CORNER_COLORS = ['var(--run-1)', 'var(--run-2)', 'var(--run-3)', 'var(--run-4)', 'var(--c-teal)', 'var(--c-brown)'];
/** Line patterns of runs 1 to 4 when colours tell corners apart. */
export const RUN_DASHES = [undefined, '7 4', '2 3', '9 3 2 3'];

function runLabel(runs: readonly ExperimentRun[], r: ExperimentRun, what: string): string {
  return runs.length > 1 ? `${r.name} · ${what}` : what;
}

/** One line per run and corner of a queue-depth table's `field` against queue depth. */
export function queueDepthSeries(runs: readonly ExperimentRun[], title: string, field: string): XYSeries[] {
  const out: XYSeries[] = [];
  const corners = [...new Set(runs.flatMap((r) => column(r.entry!.table!, 'corner').map(String)))];
  runs.forEach((r, ri) => {
    const t = r.entry!.table!;
    const cornerCol = column(t, 'corner');
    const qd = column(t, 'queue_depth');
    const ys = column(t, field);
    const groups = corners.length > 0 ? corners : [''];
    groups.forEach((c, ci) => {
      const points = qd
        .map((q, i) => ({ x: num(q), y: num(ys[i]), c: cornerCol.length ? String(cornerCol[i]) : '' }))
        .filter((p) => p.c === c)
        .map(({ x, y }) => ({ x, y }));
      if (points.length === 0) return;
      const oneCorner = groups.length === 1;
      out.push({
        key: `${r.key}-${c}`,
        label: runLabel(runs, r, CORNER_WORDS[c] ?? (c || title)),
        color: oneCorner ? r.color : CORNER_COLORS[ci % CORNER_COLORS.length],
        dash: oneCorner ? undefined : RUN_DASHES[ri % RUN_DASHES.length],
        points,
      });
    });
  });
  return out;
}

/** One line per run of a span table's `field` against spare area (with its range when asked). */
export function spanSeries(runs: readonly ExperimentRun[], field: string, range: boolean): XYSeries[] {
  return runs.map((r) => {
    const t = r.entry!.table!;
    const spare = column(t, 'spare_percent');
    const ys = column(t, field);
    const lo = column(t, 'steady_iops_min');
    const hi = column(t, 'steady_iops_max');
    const gb = column(t, 'advertised_gb');
    return {
      key: `${r.key}`,
      label: r.name,
      color: r.color,
      points: spare.map((s, i) => ({
        x: num(s),
        y: num(ys[i]),
        ...(range && lo.length ? { lo: num(lo[i]), hi: num(hi[i]) } : {}),
        note: gb.length ? `${formatInt(num(gb[i]))} GB` : undefined,
      })),
    };
  });
}

/** "S3700 200GB, 29% spare, ..." -> "S3700 200GB". */
export function shortName(name: string): string {
  return name.split(',')[0];
}
