// The workload, test-bed, controller-design and power-loss options, drawn from the table in
// settings/options.ts, in sections that open when they hold a change or the engine's objection;
// each option's control is OptionControl.tsx, the advanced overrides ParametersPanel.tsx.

import { memo, useState, type ReactNode } from 'react';
import type { ImportReport, ParameterInfo, SimConfig, WorkloadInfo } from '../engine/protocol';
import {
  DESIGN_OPTIONS,
  isActive,
  setByFile,
  shippedChoice,
  shippedNumber,
  type DesignOption,
  type DesignValue,
  type DesignValues,
  type EngineOffer,
  type SectionId,
} from '../settings/options';
import type { Overrides } from '../settings/overrides';
import type { WorkloadFile as WorkloadFileValue } from '../settings/urlState';
import { OptionControl } from './OptionControl';
import { ParametersPanel } from './ParametersPanel';
import { WorkloadFile } from './WorkloadFile';
import { WorkloadSelect } from './WorkloadSelect';

/** Where the engine's objection is shown: an option id, 'workload', 'advanced', or null. */
export type ProblemPlace = string | null;

export interface DesignControlsProps {
  offer: EngineOffer;
  workloads: readonly WorkloadInfo[];
  workload: string;
  onWorkload(id: string): void;
  values: DesignValues;
  onValues(values: DesignValues): void;
  overrides: Overrides;
  onOverrides(overrides: Overrides): void;
  /** A fio job file or trace giving the workload, and the request it would join. */
  source: WorkloadFileValue | null;
  onSource(source: WorkloadFileValue | null): void;
  request: SimConfig;
  inspect(config: SimConfig): Promise<ImportReport>;
  /** Every parameter of the drive with what it accepts (null until the engine has said). */
  parameters: readonly ParameterInfo[] | null;
  /** The engine's message about the current settings, which control it belongs to, and its field. */
  problem: { place: ProblemPlace; message: string; field: string } | null;
  /** Only these sections (an experiment sets its own workloads); all when absent. */
  sections?: readonly SectionId[];
}

const SECTIONS: readonly { id: SectionId; title: string }[] = [
  { id: 'workload', title: 'Workload' },
  { id: 'bed', title: 'Test bed' },
  { id: 'design', title: 'Controller design' },
  { id: 'power', title: 'Power loss' },
];

export const DesignControls = memo(function DesignControls(props: DesignControlsProps) {
  const { offer, values } = props;
  const place = props.problem?.place ?? null;

  const setValue = (option: DesignOption, v: DesignValue | undefined) => {
    const next: Record<string, DesignValue> = { ...values };
    // A value equal to the drive's own design is not a change: keep links short.
    const shipped =
      option.kind === 'choice' ? shippedChoice(option, offer).value : option.kind === 'number' ? shippedNumber(option, offer) : undefined;
    if (v === undefined || v === shipped || (Array.isArray(v) && v.length === 0)) delete next[option.id];
    else next[option.id] = v;
    props.onValues(next);
  };

  const fileKind = props.source?.kind;
  const shownIn = (section: SectionId) =>
    DESIGN_OPTIONS.filter((o) => o.section === section && isActive(o, values, offer) && !setByFile(o, fileKind));
  const hasProblem = (section: SectionId) => place === section || DESIGN_OPTIONS.some((o) => o.id === place && o.section === section);

  return (
    <>
      {SECTIONS.filter((section) => !props.sections || props.sections.includes(section.id)).map((section) => {
        const options = shownIn(section.id);
        if (options.length === 0 && section.id !== 'workload') return null;
        const changed = options.filter((o) => values[o.id] !== undefined).length;
        return (
          <Disclosure
            key={section.id}
            title={section.title}
            badge={changed > 0 ? `${changed} changed` : undefined}
            initiallyOpen={(section.id !== 'power' && section.id !== 'bed') || changed > 0}
            forceOpen={hasProblem(section.id)}
            testId={`section-${section.id}`}
            onReset={
              changed > 0 && section.id !== 'workload'
                ? () => {
                    const next = { ...values };
                    for (const o of DESIGN_OPTIONS) if (o.section === section.id) delete next[o.id];
                    props.onValues(next);
                  }
                : undefined
            }
          >
            {section.id === 'workload' && (
              <>
                {!props.source && (
                  <WorkloadSelect
                    workloads={props.workloads}
                    value={props.workload}
                    onChange={props.onWorkload}
                    problem={place === 'workload' ? props.problem!.message : null}
                  />
                )}
                <WorkloadFile source={props.source} onSource={props.onSource} base={props.request} inspect={props.inspect} />
              </>
            )}
            <OptionRows
              options={options}
              render={(o) => (
                <OptionControl
                  key={o.id}
                  option={o}
                  values={values}
                  offer={offer}
                  placeholder={workloadDefault(props.workloads, props.workload, o.id)}
                  onChange={(v) => setValue(o, v)}
                  problem={place === o.id ? props.problem!.message : null}
                />
              )}
            />
          </Disclosure>
        );
      })}
      <Disclosure
        title="Advanced: every parameter"
        badge={Object.keys(props.overrides).length > 0 ? `${Object.keys(props.overrides).length} set` : undefined}
        initiallyOpen={Object.keys(props.overrides).length > 0}
        forceOpen={place === 'advanced'}
        testId="section-advanced"
        lazy
      >
        <ParametersPanel
          parameters={props.parameters}
          preset={offer.parameters}
          overrides={props.overrides}
          onChange={props.onOverrides}
          problem={place === 'advanced' ? props.problem : null}
        />
      </Disclosure>
    </>
  );
});

/** Lays out numbers that belong to the same choice (work for / rest for) side by side. */
function OptionRows({ options, render }: { options: DesignOption[]; render(o: DesignOption): ReactNode }) {
  const parent = (o: DesignOption | undefined) => (o?.kind === 'number' || o?.kind === 'text' ? o.shownWhen?.option : undefined);
  const out: ReactNode[] = [];
  for (let i = 0; i < options.length; i++) {
    const a = options[i];
    const b = options[i + 1];
    if (parent(a) !== undefined && parent(a) === parent(b)) {
      out.push(
        <div className="field-row" key={`${a.id}+${b.id}`}>
          {render(a)}
          {render(b)}
        </div>,
      );
      i++;
    } else {
      out.push(render(a));
    }
  }
  return <>{out}</>;
}

function Disclosure(props: {
  title: string;
  badge?: string;
  initiallyOpen: boolean;
  forceOpen: boolean;
  testId: string;
  onReset?: () => void;
  /** Draw the body only while open (a long one the first paint need not lay out). */
  lazy?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(props.initiallyOpen);
  // An objection inside must be seen: opened when forceOpen turns on (adjusted while rendering).
  const [forced, setForced] = useState(false);
  if (props.forceOpen !== forced) {
    setForced(props.forceOpen);
    if (props.forceOpen) setOpen(true);
  }
  return (
    <details className="section" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid={props.testId}>
      <summary>
        <span className="section-title">{props.title}</span>
        {props.badge && <span className="badge">{props.badge}</span>}
      </summary>
      <div className="section-body">
        {(open || !props.lazy) && props.children}
        {props.onReset && (
          <button type="button" className="link" onClick={props.onReset}>
            Back to the drive’s own design
          </button>
        )}
      </div>
    </details>
  );
}

/** What an empty field means: the workload's own request size or queue depth, and alignment to the size. */
function workloadDefault(workloads: readonly WorkloadInfo[], id: string, option: string): string | undefined {
  if (option === 'align') return 'the request size';
  const w = workloads.find((x) => x.id === id);
  const value = option === 'block' ? w?.block_bytes : option === 'qd' ? w?.queue_depth : undefined;
  return value === undefined ? undefined : `${value} (the workload’s)`;
}
