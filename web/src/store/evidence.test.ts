import { describe, expect, it } from 'vitest';
import type { Evidence } from '../engine/evidence';
import { bandVerdicts, figureMarks, runEvidence } from './evidence';
import type { PageState } from './state';

// The S3700's figures as the engine's evidence() gives them for a default 2000 s run, done.
const S3700 = '[000] ';
function figure(measure: string, patch: Partial<Evidence>): Evidence {
  return {
    figure: measure,
    source: `${S3700}${measure}`,
    cites: ['AnandTech’s review of the Intel SSD DC S3700 200GB (2012)'],
    says: measure,
    measure,
    expected: '29,000 to 35,000',
    min: 29000,
    max: 35000,
    window_from_s: 1400,
    seconds: 2000,
    not_comparable: null,
    simulated: null,
    holds: null,
    ...patch,
  };
}
const SLOWEST = figure('min', { published: 29150, simulated: 30016, holds: true });
const FASTEST = figure('max', { published: 34865, simulated: 34244, holds: true });
const RATED = figure('mean', { target: 32000, min: null, max: null, window_from_s: 1400, simulated: 32999, holds: true });
const DIPS = figure('dip_period_s', { simulated: 142, holds: true });
const QD1 = figure('mean', { figure: 'random read QD1', seconds: 5, not_comparable: 'workload: …' });

function page(evidence: Evidence[], patch: { metric?: string; cutsAsked?: number[] } = {}): PageState {
  const run = { id: 1, kind: 'sim', ran: { config: {}, setup: {} }, evidence, cutsAsked: patch.cutsAsked ?? [] };
  return {
    runs: [run],
    focusId: 1,
    chart: { view: 'whole-log', metric: patch.metric ?? 'iops', layout: 'overlay', charts: null },
  } as unknown as PageState;
}

describe('the published figures beside a run', () => {
  it('splits them into those the run can be compared with and the others', () => {
    const e = runEvidence(page([SLOWEST, FASTEST, RATED, DIPS, QD1]));
    expect(e.comparable).toEqual([SLOWEST, FASTEST, RATED, DIPS]);
    expect(e.other).toEqual([QD1]);
  });

  it('draws a min and a max over one window as a band, a mean as a line, the dip period as a note, only on their metric', () => {
    const s = page([SLOWEST, FASTEST, RATED, { ...DIPS, says: 'a dip roughly every 150 s' }, QD1]);
    expect(figureMarks(s)).toEqual([
      { from: 1400, to: 2000, lo: 0, hi: 0, label: 'published: a dip roughly every 150 s', note: true },
      { from: 1400, to: 2000, lo: 29150, hi: 34865, label: 'published 29,150–34,865' },
      { from: 1400, to: 2000, lo: 32000, hi: 32000, label: 'published mean 32,000' },
    ]);
    expect(figureMarks(page([DIPS], { metric: 'mb_s' }))).toEqual([]);
    expect(figureMarks(page([SLOWEST, FASTEST, RATED], { metric: 'mb_s' }))).toEqual([]);
  });

  it('says whether the run’s seconds stay inside a published band', () => {
    expect(bandVerdicts([SLOWEST, FASTEST])).toMatchObject([
      { lo: 30016, hi: 34244, publishedLo: 29150, publishedHi: 34865, inside: true },
    ]);
    const slow = { ...SLOWEST, simulated: 28000, holds: false };
    expect(bandVerdicts([slow, FASTEST])[0].inside).toBe(false);
    // No verdict before the run is done.
    expect(bandVerdicts([{ ...SLOWEST, simulated: null }, FASTEST])).toEqual([]);
  });

  it('takes a run with a cut asked during it out of the comparison', () => {
    const e = runEvidence(page([SLOWEST, FASTEST], { cutsAsked: [600] }));
    expect(e.comparable).toEqual([]);
    expect(e.other.map((x) => x.not_comparable)).toEqual([expect.stringContaining('power cuts'), expect.stringContaining('power cuts')]);
    expect(e.other[0].simulated).toBeNull();
  });
});
