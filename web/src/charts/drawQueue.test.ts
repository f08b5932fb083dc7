import { afterEach, describe, expect, it, vi } from 'vitest';

describe('drawInFrame', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('spreads draws over frames by a time budget, at least one a frame, and cancels', async () => {
    const frames: (() => void)[] = [];
    let now = 0;
    vi.stubGlobal('requestAnimationFrame', (fn: () => void) => frames.push(fn));
    vi.stubGlobal('performance', { now: () => now });
    const { drawInFrame } = await import('./drawQueue');
    const ran: string[] = [];
    // Each draw takes 5 ms; the budget is 8 ms a frame.
    const draw =
      (name: string, ms = 5) =>
      () => {
        ran.push(name);
        now += ms;
      };
    drawInFrame(draw('a'));
    drawInFrame(draw('b'));
    const cancelC = drawInFrame(draw('c'));
    drawInFrame(draw('d'));
    drawInFrame(draw('slow', 30));
    drawInFrame(draw('e'));
    expect(frames).toHaveLength(1); // one frame asked for, however many draws wait
    cancelC();
    frames.shift()!();
    expect(ran).toEqual(['a', 'b']);
    frames.shift()!();
    expect(ran).toEqual(['a', 'b', 'd', 'slow']);
    frames.shift()!();
    expect(ran).toEqual(['a', 'b', 'd', 'slow', 'e']);
    expect(frames).toHaveLength(0);
    // Every draw cancelled before its frame: the frame finds nothing to do.
    drawInFrame(draw('f'))();
    frames.shift()!();
    expect(ran).toHaveLength(5);
  });
});
