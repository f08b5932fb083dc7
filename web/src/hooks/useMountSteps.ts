// Mounting the page in steps, one a frame: each step's first style and layout is a task of its
// own, where the whole page's at once held the main thread for over 50 ms on a 2-core laptop.

import { startTransition, useEffect, useState } from 'react';

/** How many of `steps` steps are mounted: 1 at first, one more after each frame that shows one. */
export function useMountSteps(steps: number): number {
  const [step, setStep] = useState(1);
  useEffect(() => {
    if (step >= steps) return;
    let taken = false;
    const next = () => {
      if (taken) return;
      taken = true;
      startTransition(() => setStep((s) => s + 1));
    };
    let timer = 0;
    // After the frame that lays out this step; a hidden page draws no frames, hence the timer.
    const frame = requestAnimationFrame(() => (timer = window.setTimeout(next, 0)));
    const fallback = window.setTimeout(next, 250);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      clearTimeout(fallback);
    };
  }, [step, steps]);
  return step;
}
