// The embed's run controls: the run bar, or the experiment bar, over the store's commands. Each
// press is a command of the reader's, so runs it pauses stay paused when the embed scrolls back.

import { ExperimentBar } from '../components/ExperimentBar';
import { RunBar } from '../components/RunBar';
import * as select from '../store/selectors';
import type { PageState } from '../store/state';
import type { PageStore } from '../store/store';

export interface EmbedControlsProps {
  store: PageStore;
  state: PageState;
  activity: select.PageActivity;
  ready: boolean;
  /** Tells the embed a command was given (see usePlayWhenSeen). */
  commanded(): void;
}

export function EmbedControls({ store, state, activity, ready, commanded }: EmbedControlsProps) {
  const sims = state.runs.filter((r) => r.kind === 'sim' && r.setup !== null);
  const focused = select.editedRun(state);
  const expMode = state.experiment.id !== null;
  const expInfo = state.catalog?.experiments.find((e) => e.id === state.experiment.id) ?? null;
  const running = activity === 'running';
  const paused = activity === 'paused';
  const blocked = ready && (!expMode || expInfo) ? null : 'The engine is loading…';
  const command = (fn: () => unknown) => () => {
    commanded();
    fn();
  };
  return expMode ? (
    <ExperimentBar
      startLabel="Run experiment"
      startBlocked={blocked}
      onStart={command(() => store.start())}
      canPause={running || paused}
      paused={paused}
      onPauseResume={command(() => store.pauseOrResume())}
      canStop={running || paused}
      onStop={command(() => store.stop())}
      canClear={sims.some((r) => state.experiments.has(r.id))}
      onClear={command(() => store.clear())}
      entry={state.experiments.get(state.focusId) ?? null}
    />
  ) : (
    <RunBar
      startLabel={sims.length > 1 ? `Start ${sims.length} runs` : focused?.ran ? 'Run again' : 'Start'}
      startBlocked={blocked}
      onStart={command(() => store.start())}
      canPause={running || paused}
      paused={paused}
      onPauseResume={command(() => store.pauseOrResume())}
      canStep={running || paused}
      onStep={command(() => store.step())}
      canRestart={sims.some((r) => r.ran) && activity !== 'starting'}
      onRestart={command(() => store.start())}
      canClear={sims.some((r) => r.ran || r.starting)}
      onClear={command(() => store.clear())}
      progress={select.progress(state)}
      runCount={sims.filter((r) => r.ran).length}
    />
  );
}
