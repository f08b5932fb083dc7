import type { EngineState } from '../engine/protocol';

const TEXT: Record<EngineState, string> = {
  loading: 'Loading engine…',
  idle: 'Ready',
  running: 'Running',
  paused: 'Paused',
  finished: 'Finished',
  error: 'Engine error',
};

export function StateBadge({ state }: { state: EngineState }) {
  return (
    <output className={`state state-${state}`} data-testid="engine-state" data-state={state} aria-live="polite">
      <span className="dot" aria-hidden="true" />
      {TEXT[state]}
    </output>
  );
}
