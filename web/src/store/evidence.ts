// The published figures beside the edited run (engine/core/calibration.toml, through its
// worker): those its run can be compared with and this run's verdict on each, those it cannot
// and why, and what the chart draws of them.

import type { FigureMark } from '../data/panels';
import type { Evidence } from '../engine/evidence';
import { formatInt } from '../format';
import { editedRun, currentMetric } from './selectors';
import { memo } from './memo';
import type { PageState } from './state';

export interface RunEvidence<E extends Evidence = Evidence> {
  /** The run's drive (null before a run has started). */
  drive: string | null;
  /** Figures measured under this run's conditions, each with its verdict once the run is done. */
  comparable: readonly E[];
  /** The drive's other figures, each with the conditions that differ. */
  other: readonly E[];
}

const NONE: RunEvidence = { drive: null, comparable: [], other: [] };

const evidenceMemo = memo((figures: readonly Evidence[], cutsAsked: number, drive: string): RunEvidence => {
  if (figures.length === 0) return { ...NONE, drive };
  // A cut asked during the run changed its seconds; its request does not say so.
  const asked = (e: Evidence): Evidence =>
    cutsAsked > 0 && e.not_comparable === null
      ? { ...e, not_comparable: 'power cuts: the figure’s run has none, this one had a cut asked during it', simulated: null, holds: null }
      : e;
  const all = figures.map(asked);
  return { drive, comparable: all.filter((e) => e.not_comparable === null), other: all.filter((e) => e.not_comparable !== null) };
});

/** The edited run's published figures (none before it has started). */
export function runEvidence(s: PageState): RunEvidence {
  const r = editedRun(s);
  return r?.ran ? evidenceMemo(r.evidence, r.cutsAsked.length, r.ran.setup.drive) : NONE;
}

/** The sample column a figure's measure is of, when the chart can draw it as a level. */
const METRIC_OF: Record<string, string> = { min: 'iops', max: 'iops', mean: 'iops', mb_s: 'mb_s', latency_mean_us: 'mean_latency_us' };

/** The number a figure gives: as published, else its target. */
export const figureValue = (e: Evidence): number | null => e.published ?? e.target ?? null;

/** Figures of the IOPS seconds that are not levels, written over their window as notes. */
const NOTE_MEASURES = new Set(['dip_period_s']);

const marksMemo = memo((comparable: readonly Evidence[], metric: string): FigureMark[] => {
  const drawn = comparable.filter((e) => METRIC_OF[e.measure] === metric && figureValue(e) !== null);
  const marks: FigureMark[] = [];
  if (metric === 'iops') {
    for (const e of comparable.filter((x) => NOTE_MEASURES.has(x.measure))) {
      marks.push({ from: e.window_from_s, to: e.seconds, lo: 0, hi: 0, label: `published: ${e.says}`, note: true });
    }
  }
  for (const e of drawn) {
    const window = (x: Evidence) => x.window_from_s === e.window_from_s && x.seconds === e.seconds;
    if (e.measure === 'max' && drawn.some((x) => x.measure === 'min' && window(x))) continue; // drawn with its min
    const top = e.measure === 'min' ? drawn.find((x) => x.measure === 'max' && window(x)) : undefined;
    const lo = figureValue(e)!;
    const hi = top ? figureValue(top)! : lo;
    const label = top ? `published ${formatInt(lo)}–${formatInt(hi)}` : `published ${e.measure} ${formatInt(lo)}`;
    marks.push({ from: e.window_from_s, to: e.seconds, lo, hi, label });
  }
  return marks;
});

/** What the comparison chart draws of the edited run's figures, for the metric it plots. */
export const figureMarks = (s: PageState): FigureMark[] => marksMemo(runEvidence(s).comparable, currentMetric(s).id);

/** A run's slowest and fastest second over a window against a published band. */
export interface BandVerdict {
  from: number;
  to: number;
  /** This run's slowest and fastest second in the window. */
  lo: number;
  hi: number;
  publishedLo: number;
  publishedHi: number;
  /** Every second of the window within the published band. */
  inside: boolean;
  source: string;
}

/** The bands (a min and a max figure over one window, both published) with this run's verdict. */
export function bandVerdicts(comparable: readonly Evidence[]): BandVerdict[] {
  return comparable.flatMap((min) => {
    if (min.measure !== 'min' || min.published === undefined || min.simulated === null) return [];
    const max = comparable.find(
      (x) => x.measure === 'max' && x.window_from_s === min.window_from_s && x.seconds === min.seconds && x.published !== undefined,
    );
    if (!max || max.simulated === null || max.published === undefined) return [];
    return [
      {
        from: min.window_from_s,
        to: min.seconds,
        lo: min.simulated,
        hi: max.simulated,
        publishedLo: min.published,
        publishedHi: max.published,
        inside: min.simulated >= min.published && max.simulated <= max.published,
        source: min.cites.join('; ') || min.says,
      },
    ];
  });
}
