// The placement experiment's settings (engine/core/src/experiment/placement.rs): which apps
// (hosts), layouts, over-provisionings and how many drive writes. Names and ranges are the
// engine's (experiment/mod.rs `names`, `real_range`); the engine checks them again.

import { parseListText, parseNumberText, type Parsed } from './urlState';

export const PLACEMENT_HOSTS = ['uniform', 'hot-cold', 'streams', 'cache', 'lsm'] as const;
export const PLACEMENT_LAYOUTS = ['block', 'fdp', 'zoned'] as const;

export const PLACEMENT_LIMITS = {
  opPercent: { min: 1, max: 100 },
  opPercents: { min: 1, max: 8 },
  driveWrites: { min: 1, max: 100 },
} as const;

export interface PlacementChoice {
  hosts: readonly string[];
  layouts: readonly string[];
  opPercents: readonly number[];
  driveWrites: number;
}

/** The page's first run: two hosts at 28 and 7 %, written twice (9.4 s in Chromium). */
export const PLACEMENT_PAGE: PlacementChoice = {
  hosts: ['streams', 'cache'],
  layouts: PLACEMENT_LAYOUTS,
  opPercents: [28, 7],
  driveWrites: 2,
};

/** The engine's own set: every host at 7 and 28 %, written four times (~90 s in the page). */
export const PLACEMENT_FULL: PlacementChoice = {
  hosts: PLACEMENT_HOSTS,
  layouts: PLACEMENT_LAYOUTS,
  opPercents: [7, 28],
  driveWrites: 4,
};

export const PLACEMENT_LABELS = {
  hosts: 'Hosts',
  layouts: 'Layouts',
  opPercents: 'Over-provisioning',
  driveWrites: 'Drive writes',
} as const;

/** A comma-separated list of names, each one of `allowed` and at most once. */
export function parseNamesText(label: string, text: string, allowed: readonly string[]): Parsed<string[]> {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0) return { error: `${label}: must list 1 to ${allowed.length} of ${allowed.join(', ')} (got none)` };
  for (const [i, p] of parts.entries()) {
    if (!allowed.includes(p) || parts.indexOf(p) !== i) {
      return { error: `${label}: "${p}" is not one of ${allowed.join(', ')} (each at most once)` };
    }
  }
  return { value: parts };
}

export const parseHostsText = (t: string) => parseNamesText(PLACEMENT_LABELS.hosts, t, PLACEMENT_HOSTS);
export const parseLayoutsText = (t: string) => parseNamesText(PLACEMENT_LABELS.layouts, t, PLACEMENT_LAYOUTS);

export function parseOpPercentsText(text: string): Parsed<number[]> {
  const label = PLACEMENT_LABELS.opPercents;
  const { min, max } = PLACEMENT_LIMITS.opPercent;
  return parseListText(label, text, (t) => parseNumberText(label, t, min, max, false), PLACEMENT_LIMITS.opPercents, 'percentages');
}

export function parseDriveWritesText(text: string): Parsed<number> {
  const { min, max } = PLACEMENT_LIMITS.driveWrites;
  return parseNumberText(PLACEMENT_LABELS.driveWrites, text, min, max, false);
}

/** `list` with `name` added (in `allowed`'s order) or taken out; never empty. */
export function toggleName(list: readonly string[], name: string, allowed: readonly string[]): string[] {
  const next = list.includes(name) ? list.filter((n) => n !== name) : allowed.filter((n) => n === name || list.includes(n));
  return next.length > 0 ? next : [...list];
}

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Whether a choice is the page's first run (kept out of links) or the engine's full set. */
export function isChoice(c: PlacementChoice, of: PlacementChoice): boolean {
  return (
    sameList(c.hosts, of.hosts) &&
    sameList(c.layouts, of.layouts) &&
    sameList(c.opPercents, of.opPercents) &&
    c.driveWrites === of.driveWrites
  );
}
