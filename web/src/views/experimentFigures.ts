// The published figures beside an experiment's table (the engine's `figures_json()`): those a row
// is measured under, drawn on the queue-depth charts as markers, and the list under the charts.

import type { XYFigure } from '../charts/xyMarks';
import type { TableFigure } from '../engine/experimentProtocol';
import { formatInt } from '../format';
import { figureValue } from '../store/evidence';
import { CORNER_WORDS } from './experimentTable';

/** The figures a row is measured under, and the drive's others (each says why not). */
export function splitFigures(figures: readonly TableFigure[]): { comparable: TableFigure[]; other: TableFigure[] } {
  return { comparable: figures.filter((f) => f.row !== null), other: figures.filter((f) => f.row === null) };
}

/** "4 KB random read at QD 8" (with the array's size for RAID rows); null for a figure measured over all the table's seconds (a fill). */
export function placeOf(f: TableFigure): string | null {
  const row = f.row ?? {};
  if (row.queue_depth === undefined) return null;
  const corner = typeof row.corner === 'string' ? (CORNER_WORDS[row.corner] ?? row.corner) : 'the point';
  const drives = row.drives !== undefined ? `, ${String(row.drives)} drives` : '';
  return `${corner}${drives} at QD ${String(row.queue_depth)}`;
}

/**
 * The markers a queue-depth chart of `metric` (iops, mb_s or latency_mean_us) draws: each
 * comparable figure of that metric at its queue depth, an IOPS figure as MB/s and back at its
 * request size (MB/s = IOPS x bytes / 10^6, as the engine counts them). Colours come from
 * `colorOf(corner)`, the corner's line.
 */
export function figureMarkers(figures: readonly TableFigure[], metric: string, colorOf: (corner: string) => string): XYFigure[] {
  return splitFigures(figures).comparable.flatMap((f) => {
    const value = figureValue(f);
    const qd = Number(f.row?.queue_depth);
    if (value === null || !Number.isFinite(qd)) return [];
    const asMbS = (iops: number) => (iops * f.block_bytes) / 1e6;
    let y: number;
    if (f.column === metric) y = value;
    else if (f.column === 'iops' && metric === 'mb_s') y = asMbS(value);
    else if (f.column === 'mb_s' && metric === 'iops') y = (value * 1e6) / f.block_bytes;
    else return [];
    const unit = f.column === 'mb_s' ? 'MB/s' : f.column === 'iops' ? 'IOPS' : 'µs';
    const shown = f.column === metric ? '' : ` (${formatInt(y)} ${metric === 'mb_s' ? 'MB/s' : 'IOPS'} at ${f.block_bytes / 1024} KiB)`;
    const verdict =
      f.holds === null ? 'no row yet' : f.holds ? 'this experiment is within the target' : 'this experiment is outside the target';
    return [
      {
        x: qd,
        y,
        color: colorOf(String(f.row?.corner ?? '')),
        label: `Published: ${f.figure}, ${formatInt(value)} ${unit}${shown} (${f.cites.join('; ') || f.says}); ${verdict}`,
        holds: f.holds,
      },
    ];
  });
}
