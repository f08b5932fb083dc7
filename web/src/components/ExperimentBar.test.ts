import { describe, expect, it } from 'vitest';
import { progressText, progressValue } from './ExperimentBar';

const TIMED = { points_done: 1, points: 4, seconds_done: 30, seconds: 60, written_bytes: 0, bytes: 0 };
// A whole-drive fill: its writes end it, its cap (the engine's most seconds) says nothing of its length.
const FILL = { points_done: 0, points: 1, seconds_done: 2_950, seconds: 1_000_000, written_bytes: 412e9, bytes: 1e12 };

describe('experiment progress', () => {
  it('counts a timed point in seconds', () => {
    expect(progressText(TIMED, 'running')).toBe('Point 2 of 4 · 30 of 60 s simulated');
    expect(progressValue(TIMED, 'running')).toBe(1.5);
  });

  it('counts a fill in bytes written, not against its cap in seconds', () => {
    expect(progressText(FILL, 'paused')).toBe('Point 1 of 1 · 412 GB of 1 TB written · 2,950 s simulated · paused');
    expect(progressValue(FILL, 'running')).toBeCloseTo(0.412);
    expect(progressValue(FILL, 'finished')).toBe(1);
  });
});
