// The published figures for the edited run's drive, under the chart: each figure its run can be
// compared with, its source and target, and this run's value and verdict once the run is done;
// then the drive's other figures with the conditions in which this run differs. An experiment's
// figures sit at rows of its table (`placeOf` names the row).

import { memo } from 'react';
import type { Evidence } from '../engine/evidence';
import { formatMeasure } from '../files/calibration';
import { formatInt } from '../format';
import { bandVerdicts, type RunEvidence } from '../store/evidence';

/** "AnandTech's review of ... (2012): min 29,150", or a source that cites no article as it is. */
const sourceText = (e: Evidence) => (e.cites.length ? `${e.cites.join('; ')}: ${e.says}` : e.says);

/** Where an experiment's figure is measured: a row ("4 KB random read at QD 8") or, null, all its seconds. */
type Place = string | null;

function Verdict({ e, place }: { e: Evidence; place: Place | undefined }) {
  if (e.simulated === null || e.holds === null) {
    const when =
      place === undefined
        ? `when the run reaches ${formatInt(e.seconds)} s`
        : place === null
          ? 'when the experiment ends'
          : `when its ${place} point is measured`;
    return <span className="verdict pending">verdict {when}</span>;
  }
  const value = formatMeasure(e.measure, e.simulated);
  const subject = place === undefined ? 'this run' : place === null ? 'this experiment' : `this experiment, ${place}`;
  if (e.holds) {
    return (
      <span className="verdict holds">
        {subject}: {value}, within the target ✓
      </span>
    );
  }
  return (
    <span className="verdict misses">
      {subject}: {value}, outside the target{e.miss ? ` (a known miss: ${e.miss})` : ''}
    </span>
  );
}

export interface EvidenceListProps<E extends Evidence = Evidence> {
  evidence: RunEvidence<E>;
  /** An experiment's figures: the row each comparable one is measured at ("4 KB random read at QD 8"), or null for all its seconds. */
  placeOf?(e: E): Place;
  /** Opens "how close is the model" (the app; an embed has no such view). */
  onHowClose?(): void;
  /** Its heading's level in the page's outline (the app's results have an h2 above it). */
  heading?: 'h2' | 'h3';
}

function EvidenceListOf<E extends Evidence>({ evidence, placeOf, onHowClose, heading: Heading = 'h3' }: EvidenceListProps<E>) {
  const { comparable, other } = evidence;
  const subject = placeOf ? 'this experiment' : 'this run';
  if (comparable.length === 0 && other.length === 0) return null;
  const bands = bandVerdicts(comparable);
  return (
    <section className="evidence" aria-labelledby="evidence-title" data-testid="evidence">
      <Heading id="evidence-title">Published figures for this drive</Heading>
      {bands.map((b) => (
        <p key={`${b.from}-${b.to}`} className={b.inside ? 'band-verdict inside' : 'band-verdict outside'} data-testid="band-verdict">
          Seconds {formatInt(b.from)}–{formatInt(b.to)} of this run: {formatInt(b.lo)} to {formatInt(b.hi)} IOPS,{' '}
          {b.inside ? 'inside' : 'outside'} the published band of {formatInt(b.publishedLo)} to {formatInt(b.publishedHi)} ({b.source}).
        </p>
      ))}
      {comparable.length > 0 ? (
        <ul className="figures">
          {comparable.map((e, i) => (
            <li key={`${i}${e.figure}`} data-testid="evidence-figure" data-holds={e.holds === null ? undefined : String(e.holds)}>
              <span className="figure-name">{e.figure}</span>: {e.expected} <span className="source">({sourceText(e)})</span>;{' '}
              <Verdict e={e} place={placeOf ? placeOf(e) : undefined} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">None of them was measured under {subject}’s conditions.</p>
      )}
      {other.length > 0 && (
        <details className="not-comparable" data-testid="evidence-other">
          <summary>
            {other.length} figure{other.length === 1 ? '' : 's'} measured under other conditions
          </summary>
          <ul className="figures">
            {other.map((e, i) => (
              <li key={`${i}${e.figure}`} data-testid="evidence-not-comparable">
                <span className="figure-name">{e.figure}</span> <span className="source">({sourceText(e)})</span>: not comparable with{' '}
                {subject}. {capitalize(e.not_comparable ?? '')}.
              </li>
            ))}
          </ul>
        </details>
      )}
      {onHowClose && (
        <p className="hint">
          <button type="button" className="link-button" onClick={onHowClose} data-testid="evidence-how-close">
            How close is the model on every drive?
          </button>
        </p>
      )}
    </section>
  );
}

export const EvidenceList = memo(EvidenceListOf) as typeof EvidenceListOf;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
