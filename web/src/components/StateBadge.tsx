import type { EngineState } from '../engine/protocol';

const TEXT: Record<EngineState, string> = {
  loading: 'Loading engine…',
  idle: 'Ready',
  running: 'Running',
  paused: 'Paused',
  finished: 'Finished',
  error: 'Engine error',
};

/** The engine state; `starting` covers the erase and fill between Start and the first slice. */
export function StateBadge({ state, starting }: { state: EngineState; starting: boolean }) {
  const cls = starting ? 'state state-starting' : `state state-${state}`;
  return (
    <output className={cls} data-testid="engine-state" data-state={state} data-starting={starting} aria-live="polite">
      <span className="dot" aria-hidden="true" />
      {starting ? 'Erasing and filling the drive…' : TEXT[state]}
    </output>
  );
}
