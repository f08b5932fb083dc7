// What the SLC cache's experiments draw from their tables: a whole-drive fill's speed and cache
// against data written (TechPowerUp's chart), where the run's own cache filled, the published
// figures as lines over the range they describe, and the write before and after each rest.

import type { BarGroup } from '../charts/xyMarks';
import type { XYGuide, XYSeries } from '../charts/xyMarks';
import type { ExperimentTable, TableFigure } from '../engine/experimentProtocol';
import { formatInt } from '../format';
import { figureValue } from '../store/evidence';
import { column, num, type ExperimentRun } from './experimentTable';

/** Below this much room (GB) the cache counts as full: a block's worth on any drive modelled. */
const FULL_BELOW_GB = 0.05;

/** Dashes of a fill chart's second line per run (folding; data waiting to fold). */
export const SECOND_LINE_DASH = '6 4';

/** A run's `field` against GB written, one point per row (a row per second: a path, no dots). */
export function fillSeries(runs: readonly ExperimentRun[], field: string, what: string, dash?: string): XYSeries[] {
  return runs.flatMap((r) => {
    const t = r.entry!.table!;
    const gb = column(t, 'gb_written');
    const ys = column(t, field);
    if (ys.length === 0) return [];
    return [
      {
        key: `${r.key}-${field}`,
        label: runs.length > 1 ? `${r.name} · ${what}` : what,
        color: r.color,
        dash,
        dots: gb.length <= 60,
        points: gb.map((g, i) => ({ x: num(g), y: num(ys[i]) })),
      },
    ];
  });
}

/** GB written when the run's SLC cache first had no room left; null while it still has room (or has none). */
export function cacheFullAtGb(table: ExperimentTable): number | null {
  const free = column(table, 'slc_free_gb').map(num);
  const gb = column(table, 'gb_written').map(num);
  if (!free.some((f) => f >= FULL_BELOW_GB)) return null;
  const i = free.findIndex((f) => f < FULL_BELOW_GB);
  return i < 0 ? null : gb[i];
}

/** Each run's own cache end, as a vertical line in its colour. */
export function cacheEndGuides(runs: readonly ExperimentRun[]): XYGuide[] {
  return runs.flatMap((r) => {
    const at = cacheFullAtGb(r.entry!.table!);
    if (at === null) return [];
    const text = `cache full at ${formatInt(at)} GB`;
    return [
      {
        x0: at,
        x1: at,
        y0: -Infinity,
        y1: Infinity,
        color: r.color,
        dash: '2 3',
        text,
        label: `${r.name}: the SLC cache was full after ${formatInt(at)} GB written`,
      },
    ];
  });
}

/**
 * The published figures a fill's MB/s chart can draw (those measured under this run's conditions):
 * a speed over its range of GB written, the whole fill's average across the chart, the cache's end
 * as a vertical line. Others (a trend) are in the list under the charts only.
 */
export function fillFigureGuides(figures: readonly TableFigure[]): XYGuide[] {
  return figures.flatMap((f): XYGuide[] => {
    const value = figureValue(f);
    if (f.row === null || value === null) return [];
    const verdict =
      f.holds === null ? 'verdict when the fill ends' : f.holds ? 'this fill is within the target' : 'this fill is outside the target';
    const label = (what: string) => `Published: ${f.figure}, ${what} (${f.cites.join('; ') || f.says}); ${verdict}`;
    const base = { color: 'var(--ink-2)', dash: '8 4', holds: f.holds };
    switch (f.measure) {
      case 'mb_s': {
        const from = f.from_gb ?? -Infinity;
        const to = f.to_gb ?? Infinity;
        const range = `${Number.isFinite(from) ? `from ${formatInt(from)} GB` : 'from the start'} ${Number.isFinite(to) ? `to ${formatInt(to)} GB` : 'to the end'}`;
        return [
          {
            ...base,
            x0: from,
            x1: to,
            y0: value,
            y1: value,
            text: `published ${formatInt(value)} MB/s`,
            label: label(`${formatInt(value)} MB/s ${range}`),
          },
        ];
      }
      case 'fill_mean_mb_s':
        return [
          {
            ...base,
            x0: -Infinity,
            x1: Infinity,
            y0: value,
            y1: value,
            text: `published average ${formatInt(value)} MB/s`,
            label: label(`${formatInt(value)} MB/s over the whole fill`),
          },
        ];
      case 'phase_end_gb':
        return [
          {
            ...base,
            x0: value,
            x1: value,
            y0: -Infinity,
            y1: Infinity,
            text: `published: cache ends at ${formatInt(value)} GB`,
            label: label(`the fast phase ends at ${formatInt(value)} GB`),
          },
        ];
      default:
        return [];
    }
  });
}

/**
 * A recovery table as bars. Idle recovery: per run and rest, the write before the rest and the
 * one after. A dirty drive's recovery: a bar per state (dirty, rested, trimmed, secure-erased).
 */
export function recoveryGroups(runs: readonly ExperimentRun[]): BarGroup[] {
  return runs.flatMap((r) => {
    const t = r.entry!.table!;
    const rest = column(t, 'rest_s').map(num);
    const mbs = column(t, 'mb_s').map(num);
    const name = runs.length > 1 ? `\n${r.name.split(',')[0]}` : '';
    if (t.columns.includes('state')) {
      return column(t, 'state').map((state, i) => {
        const rested = Number.isFinite(rest[i]) && rest[i] > 0 ? `, ${formatInt(rest[i])} s rest` : '';
        return {
          label: `${String(state)}${rested}${name}`,
          short: String(state),
          bars: [{ key: String(state), label: `${String(state)}${rested}`, color: r.color, value: mbs[i] }],
        };
      });
    }
    const write = column(t, 'write').map(String);
    return [...new Set(rest)].map((s) => {
      const at = (w: string) => mbs[rest.findIndex((x, i) => x === s && write[i] === w)] ?? NaN;
      return {
        label: `${formatInt(s)} s rest${name}`,
        short: `${formatInt(s)} s`,
        bars: [
          { key: 'before', label: 'Before the rest (the cache filled)', color: 'var(--c-grey)', value: at('before') },
          { key: 'after', label: 'After the rest', color: r.color, value: at('after') },
        ],
      };
    });
  });
}
