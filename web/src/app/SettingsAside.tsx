// Beside the chart: the open lab (with a tab to switch to the settings), and the settings of the
// edited run: the experiment picker, the drive, duration and spare area, and the design.

import { lazy, Suspense, useCallback, useDeferredValue } from 'react';
import { DesignControls } from '../components/DesignControls';
import { ExperimentPicker } from '../components/ExperimentPicker';
import { SetupPanel } from '../components/SetupPanel';
import type { ExperimentInfo } from '../engine/experimentProtocol';
import type { DrivePreset, WorkloadInfo } from '../engine/protocol';
import { labResults } from '../labs/results';
import { consistency as scenario } from '../scenarios/consistency';
import { zonesOf } from '../settings/capacity';
import type { DesignValues } from '../settings/options';
import { settingsOf as experimentSettingsOf, type ExperimentSettings } from '../settings/experimentState';
import type { Overrides } from '../settings/overrides';
import type { RunSettings } from '../settings/urlState';
import * as select from '../store/selectors';
import type { PageState } from '../store/state';
import type { PageStore } from '../store/store';
import type { useLabSteps } from './useLabSteps';

const LabPanel = lazy(() => import('../components/LabPanel').then((m) => ({ default: m.LabPanel })));

/** The settings sections an experiment takes (it sets its own workloads). */
const EXPERIMENT_SECTIONS = ['design'] as const;
const NO_EXPERIMENTS: readonly ExperimentInfo[] = [];
const NO_PRESETS: readonly DrivePreset[] = [];
const NO_WORKLOADS: readonly WorkloadInfo[] = [];

export interface SettingsAsideProps {
  store: PageStore;
  state: PageState;
  labs: ReturnType<typeof useLabSteps>;
  hidden: boolean;
  /** Whether its content is mounted yet (the page mounts in steps). */
  mounted: boolean;
}

export function SettingsAside({ store, state, labs, hidden, mounted }: SettingsAsideProps) {
  const { lab } = labs.labState;
  const showSettings = !lab || labs.asideTab === 'settings';

  return (
    <aside
      className={showSettings ? 'panel settings-col' : 'panel settings-col showing-lab'}
      id="settings"
      aria-label={lab ? 'Lab and settings' : 'Settings'}
      hidden={hidden}
    >
      {mounted && lab && (
        <>
          <div className="tabs aside-tabs" role="group" aria-label="Beside the chart">
            {(['lab', 'settings'] as const).map((t) => (
              <button
                key={t}
                type="button"
                className={labs.asideTab === t ? 'tab active' : 'tab'}
                aria-pressed={labs.asideTab === t}
                onClick={() => labs.setAsideTab(t)}
                data-testid={`aside-${t}`}
              >
                {t === 'lab' ? 'Lab' : 'Settings'}
              </button>
            ))}
          </div>
          {!showSettings && (
            <Suspense fallback={null}>
              <LabPanel
                lab={lab}
                progress={labs.labState.progress}
                onProgress={labs.labState.update}
                results={labResults(state.runs, state.experiments)}
                setupBlocked={select.engineReady(state) ? null : 'The engine is loading…'}
                onSetUp={labs.setUpStep}
                setupProblems={labs.setupProblems}
                onClose={labs.close}
                link={labs.labLink}
              />
            </Suspense>
          )}
        </>
      )}
      {mounted && <SettingsContent store={store} state={state} />}
    </aside>
  );
}

/** The edited run's settings. */
function SettingsContent({ store, state: current }: { store: PageStore; state: PageState }) {
  // The engine's catalog (every drive, workload and experiment) builds most of the settings at
  // once: drawn in a transition, which React renders in slices between other tasks, instead of
  // in the task that received it (200 ms on a 2-core machine). Edits render at once as before.
  const catalog = useDeferredValue(current.catalog);
  const state = catalog === current.catalog ? current : { ...current, catalog };
  const settings = select.settingsOf(state);
  const expMode = state.experiment.id !== null;
  const info = state.catalog?.experiments.find((e) => e.id === state.experiment.id) ?? null;
  const problem = select.placedProblem(state);
  const focused = select.editedRun(state);
  const editedDrive = state.catalog?.presets.find((p) => p.id === settings.drive);
  const zoned = editedDrive !== undefined && zonesOf(editedDrive) !== null;

  const onChange = useCallback((patch: Partial<RunSettings>) => store.edit(patch), [store]);
  const onWorkload = useCallback((workload: string) => store.edit({ workload }), [store]);
  const onDesign = useCallback((design: DesignValues) => store.edit({ design }), [store]);
  const onOverrides = useCallback((overrides: Overrides) => store.edit({ overrides }), [store]);
  const onSource = useCallback((source: RunSettings['source']) => store.edit({ source }), [store]);
  const onExperiment = useCallback((patch: Partial<ExperimentSettings>) => store.setExperiment(patch), [store]);

  return (
    <>
      <h2>
        Settings <span className="editing">of {select.runNames(state, true).get(state.focusId) || 'the run'}</span>
      </h2>
      <ExperimentPicker
        experiments={state.catalog?.experiments ?? NO_EXPERIMENTS}
        settings={state.experiment}
        onChange={onExperiment}
        problem={select.pickerProblem(state)}
      />
      {!expMode && (
        <p className="hint" data-testid="test-about">
          {zoned ? scenario.zonedDescription : scenario.description}
        </p>
      )}
      <SetupPanel
        presets={state.catalog?.presets ?? NO_PRESETS}
        spans={scenario.spans}
        settings={settings}
        onChange={onChange}
        sourcesOf={store.presetSources}
        problem={problem}
        hideDuration={expMode}
        hideSpan={info !== null && experimentSettingsOf(info).spans}
      >
        <DesignControls
          offer={select.editedOffer(state)}
          workloads={state.catalog?.workloads ?? NO_WORKLOADS}
          workload={settings.workload}
          onWorkload={onWorkload}
          values={settings.design}
          onValues={onDesign}
          overrides={settings.overrides}
          onOverrides={onOverrides}
          parameters={state.parameterInfo[settings.drive] ?? null}
          source={settings.source ?? null}
          onSource={onSource}
          // The run's length as set, not as a file in effect caps it: a file read next finds its own length again.
          request={{ ...select.editedRequest(state), seconds: settings.seconds }}
          inspect={store.inspect}
          problem={problem}
          sections={expMode ? EXPERIMENT_SECTIONS : undefined}
        />
      </SetupPanel>
      {problem && problem.place === null && (
        <p className="field-error" role="alert" data-testid="settings-problem">
          {problem.message}
        </p>
      )}
      <p className="hint settings-foot">
        Changes apply when you press Start{focused?.ran ? ' (or Run again)' : ''}; the URL keeps them, so the page can be shared as a link.
      </p>
    </>
  );
}
