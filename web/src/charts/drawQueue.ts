// Chart draws share the frames: a frame runs the queued draws until a budget is spent and leaves
// the rest to the next one. A view change redraws every chart at once; during four runs on two
// cores, all of them in one frame made a task of over 50 ms.

const FRAME_BUDGET_MS = 8;
const queue: (() => void)[] = [];
let frame = 0;

/** Runs `draw` in a coming frame (at least one draw runs each frame); returns a cancel. */
export function drawInFrame(draw: () => void): () => void {
  queue.push(draw);
  if (!frame) frame = requestAnimationFrame(runQueued);
  return () => {
    const i = queue.indexOf(draw);
    if (i >= 0) queue.splice(i, 1);
  };
}

function runQueued(): void {
  frame = 0;
  const start = performance.now();
  // Draws cancelled since the frame was asked for are gone: the queue may be empty.
  while (queue.length > 0) {
    queue.shift()!();
    if (performance.now() - start >= FRAME_BUDGET_MS) break;
  }
  if (queue.length > 0) frame = requestAnimationFrame(runQueued);
}
