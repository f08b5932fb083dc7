// The placement experiment's bars from its table: one group per host and over-provisioning (and
// run, when there are several), one bar per layout, for a column (device, host or total write
// amplification, app MB/s).

import type { BarGroup } from '../charts/xyMarks';
import { format1 } from '../format';
import { column, num, type ExperimentRun } from './experimentTable';
import { shortName } from './experimentSeries';

/** Layouts in the live page's handle colours: untagged data is handle 0's teal, tagged the next
 * handle's, a zoned drive the open zones' green. */
export const LAYOUT_LOOK: Record<string, { label: string; color: string }> = {
  block: { label: 'block: conventional drive, untagged', color: 'var(--c-teal)' },
  fdp: { label: 'fdp: tagged with placement handles', color: 'var(--series-1)' },
  zoned: { label: 'zoned: the host writes zones in order (and cleans them)', color: 'var(--c-green)' },
};

const lookOf = (layout: string) => LAYOUT_LOOK[layout] ?? { label: layout, color: 'var(--c-grey)' };

/** The layouts in the runs' tables, in block, fdp, zoned order. */
export function placementLayouts(runs: readonly ExperimentRun[]): string[] {
  const order = Object.keys(LAYOUT_LOOK);
  const rank = (l: string) => (order.includes(l) ? order.indexOf(l) : order.length);
  return [...new Set(runs.flatMap((r) => column(r.entry!.table!, 'layout').map(String)))].sort((a, b) => rank(a) - rank(b));
}

/** A group per run, host and over-provisioning (rows in table order), a bar per layout of `field`. */
export function placementGroups(runs: readonly ExperimentRun[], field: string): BarGroup[] {
  const groups: BarGroup[] = [];
  for (const r of runs) {
    const t = r.entry!.table!;
    const hosts = column(t, 'host');
    const ops = column(t, 'over_provisioning_percent');
    const layouts = column(t, 'layout');
    const values = column(t, field);
    const byKey = new Map<string, BarGroup & { bars: BarGroup['bars'][number][] }>();
    hosts.forEach((h, i) => {
      const op = num(ops[i]);
      const key = `${String(h)}|${op}`;
      let g = byKey.get(key);
      if (!g) {
        const run = runs.length > 1 ? `\n${shortName(r.name)}` : '';
        g = { label: `${String(h)}\n${format1(op)} % OP${run}`, short: `${String(h)} ${format1(op)} %`, bars: [] };
        byKey.set(key, g);
        groups.push(g);
      }
      const layout = String(layouts[i]);
      const look = lookOf(layout);
      g.bars.push({ key: layout, label: look.label, color: look.color, value: num(values[i]) });
    });
  }
  return groups;
}
