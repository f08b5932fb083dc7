// "How close is the model": every published figure the presets are calibrated against
// (engine/core/calibration.toml), what the model gave for it at the last `ssdlab calibrate`
// (public/calibration.json, the file docs/CALIBRATION.md's table is printed from), and, where the
// edited run was made under the figure's conditions, this run's value beside it. A modal dialog.

import { useEffect, useRef } from 'react';
import { byDrive, formatMeasure, type CalibrationOutcome } from '../files/calibration';
import { formatInt } from '../format';
import { useCalibration } from '../hooks/useCalibration';
import type { RunEvidence } from '../store/evidence';

export interface HowCloseProps {
  open: boolean;
  onClose(): void;
  /** The edited run's published figures, and its drive (null before a run). */
  evidence: RunEvidence;
  driveName(id: string): string;
}

function Verdict({ holds, miss }: { holds: boolean; miss?: string | null }) {
  if (holds) return <span className="verdict holds">✓ holds</span>;
  return <span className="verdict misses">{miss ? '✗ a known miss' : '✗ misses'}</span>;
}

function Row({ o, evidence }: { o: CalibrationOutcome; evidence: RunEvidence }) {
  const here = evidence.drive === o.drive ? evidence.comparable.find((e) => e.figure === o.figure) : undefined;
  return (
    <tr data-testid="how-close-row" data-drive={o.drive} data-holds={String(o.holds)}>
      <th scope="row">
        {o.figure}
        {o.miss && <p className="hint miss-why">Why: {o.miss}</p>}
      </th>
      <td data-label="Published">{o.expected}</td>
      <td data-label="Model">
        {formatMeasure(o.measure, o.simulated)} <Verdict holds={o.holds} miss={o.miss} />
      </td>
      <td data-label="This run" data-testid={here ? 'how-close-this-run' : undefined}>
        {here?.simulated != null && here.holds !== null ? (
          <>
            {formatMeasure(o.measure, here.simulated)} <Verdict holds={here.holds} miss={o.miss} />
          </>
        ) : here ? (
          'when the run ends'
        ) : evidence.drive === o.drive ? (
          <span className="hint">other conditions</span>
        ) : (
          <span className="hint" aria-label="no run of this drive">
            –
          </span>
        )}
      </td>
      <td data-label="Source" className="source">
        {o.cites.length ? `${o.cites.join('; ')}: ${o.says}` : o.says}
      </td>
    </tr>
  );
}

export function HowClose({ open, onClose, evidence, driveName }: HowCloseProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const loaded = useCalibration(open);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const calibration = loaded && 'calibration' in loaded ? loaded.calibration : null;
  const misses = calibration?.outcomes.filter((o) => !o.holds) ?? [];
  return (
    <dialog ref={ref} className="how-close" aria-labelledby="how-close-title" onClose={onClose} data-testid="how-close">
      <div className="lab-list-head">
        <h2 id="how-close-title">How close is the model</h2>
        <button type="button" onClick={onClose} aria-label="Close how close the model is" data-testid="how-close-close">
          ×
        </button>
      </div>
      {loaded === null && <p className="hint">Loading the last calibration…</p>}
      {loaded && 'error' in loaded && (
        <p className="field-error" role="alert">
          {loaded.error}
        </p>
      )}
      {calibration && (
        <>
          <p data-testid="how-close-summary">
            {formatInt(calibration.held)} of {formatInt(calibration.outcomes.length)} published figures hold
            {misses.length > 0 &&
              `; ${misses.length} ${misses.length === 1 ? 'is a known miss' : 'are known misses'}, each with the mechanism the model would need`}
            .
          </p>
          <p className="hint">
            Each drive preset is built from documented parameters; the values its sources mark “model” were chosen so that these figures
            come out. “Model” is what <code>ssdlab calibrate</code> measured on each figure’s run, the last time it ran; “this run” is the
            run on the chart, where it was made under the figure’s conditions (drive, workload, spare area, duration).
          </p>
          {byDrive(calibration.outcomes).map(([drive, outcomes]) => (
            <table key={drive} className="how-close-table" data-testid={`how-close-${drive}`}>
              <caption>
                {driveName(drive)} <span className="hint">({drive})</span>
              </caption>
              <colgroup>
                <col className="figure" />
                <col className="published" />
                <col className="model" />
                <col className="this-run" />
                <col />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col">Figure</th>
                  <th scope="col">Published</th>
                  <th scope="col">Model</th>
                  <th scope="col">This run</th>
                  <th scope="col">Source</th>
                </tr>
              </thead>
              <tbody>
                {outcomes.map((o, i) => (
                  <Row key={`${i}${o.figure}`} o={o} evidence={evidence} />
                ))}
              </tbody>
            </table>
          ))}
        </>
      )}
    </dialog>
  );
}
