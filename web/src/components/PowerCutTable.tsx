// What each power cut did: the host's truth (writes acknowledged) against the NAND's (what the
// flush saved), the energy it took, and how long the next power-on rebuilt the map.

import type { PowerCut } from '../engine/protocol';
import { numberFormat } from '../format';

const nf0 = numberFormat({ maximumFractionDigits: 0 });
const nf1 = numberFormat({ maximumFractionDigits: 1 });
const nf2 = numberFormat({ minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function PowerCutTable({ cuts }: { cuts: readonly PowerCut[] }) {
  if (cuts.length === 0) return null;
  return (
    <div className="table-wrap">
      <table className="cuts" data-testid="power-cuts">
        <caption>Power cuts</caption>
        <thead>
          <tr>
            <th scope="col">At</th>
            <th scope="col" title="Acknowledged writes not yet on NAND when power failed">
              Writes at risk
            </th>
            <th scope="col" title="Units the capacitor flush programmed">
              Flushed
            </th>
            <th scope="col">Lost</th>
            <th scope="col" title="Energy the flush needed and the capacitors held">
              Energy needed / stored
            </th>
            <th scope="col">Map rebuild</th>
          </tr>
        </thead>
        <tbody>
          {cuts.map((c) => (
            <tr key={c.at_s} className={c.acknowledged_writes_lost > 0 ? 'lost' : undefined}>
              <td>{nf1.format(c.at_s)} s</td>
              <td>{nf0.format(c.writes_at_risk)}</td>
              <td>{nf0.format(c.flushed_units)}</td>
              <td data-testid="cut-lost">{nf0.format(c.acknowledged_writes_lost)}</td>
              <td>
                {nf1.format(c.energy_needed_uj / 1000)} / {nf1.format(c.energy_stored_uj / 1000)} mJ
              </td>
              <td>{nf2.format(c.rebuild_ms)} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
