// The performance-consistency experiment, after AnandTech's Intel SSD DC S3700 and S3500 reviews:
// secure erase, sequential fill, then 4 KB random writes at QD32 over the tested span, with
// instantaneous IOPS recorded every second for 2000 s and plotted three ways.

import type { ViewSpec } from '../data/views';

export interface Scenario {
  id: string;
  /** The engine's workload name. */
  workload: string;
  title: string;
  description: string;
  /** The same on a zoned drive, which is not filled first (its zone store writes the zones). */
  zonedDescription: string;
  defaultSeconds: number;
  /** Fractions of the user LBA span to fill and test (the spare-area buttons). */
  spans: readonly number[];
  views: readonly ViewSpec[];
}

export const consistency: Scenario = {
  id: 'consistency',
  workload: 'consistency',
  title: 'Performance consistency',
  description:
    'Secure erase, fill sequentially, then run the workload across the tested span (the articles: 4 KB random ' +
    'writes at queue depth 32). One dot per simulated second.',
  zonedDescription:
    'Secure erase, then run the workload through the host’s zone store, which fills the zones as it writes (no ' +
    'sequential fill first: a zoned drive starts with every zone empty). One dot per simulated second.',
  defaultSeconds: 2000,
  spans: [1.0, 0.9, 0.8, 0.75, 0.65, 0.5],
  views: [
    {
      id: 'whole-log',
      label: 'Whole run (log)',
      xFrom: 0,
      y: { kind: 'log' },
      explain:
        'The first chart of each drive in AnandTech’s S3700 and S3500 reviews: the whole run on a log scale. Look for ' +
        'the fast start while clean flash lasts, the fall when it runs out and garbage collection begins, and how ' +
        'tight the band of dots stays afterwards. Dots on the floor are seconds in which nothing completed.',
      general:
        'The whole run on a log scale, a dot per simulated second: a fall to a tenth or a thousandth shows as ' +
        'clearly as a small dip. Dots on the floor are seconds in which nothing completed.',
    },
    {
      id: 'steady-log',
      label: 'From {from} s (log)',
      xFrom: 1400,
      y: { kind: 'log' },
      explain:
        'The reviews’ second chart: only the steady state (from 1400 s of a 2000 s run), still on a log scale. A drive ' +
        'that stalls to clean (try lazy GC pacing, the Micron P400e) drops whole orders of magnitude here; the S3700 ' +
        'keeps a thin line.',
      general:
        'The end of the run only, still on a log scale: where the drive settles once its clean flash (or its cache) ' +
        'is used up, and whether it stalls on the way.',
    },
    // The articles top this axis at 40K (S3700) or 50K (S3500); here it fits the seconds shown,
    // so a faster drive (the P3700) is not pinned to the top edge.
    {
      id: 'steady-linear',
      label: 'From {from} s (linear)',
      xFrom: 1400,
      y: { kind: 'linear' },
      explain:
        'The reviews’ third chart: the steady state on a linear axis, where small differences show. Look for the ' +
        'S3700’s shallow dip every ~150 s (its periodic drive-wide clean-up) and read the lowest and highest second ' +
        'under the chart: the review measured 29,150 to 34,865 IOPS, a 17 % spread.',
      general: 'The end of the run on a linear axis, where small differences show: the lowest and highest second are under ' + 'the chart.',
    },
  ],
};
