// Labels for spare area, the way the S3500 review labels its buttons: by the capacity a vendor
// would advertise had it set aside that much NAND, plus the spare share of the raw NAND.

import type { DrivePreset } from '../engine/protocol';
import { formatPercent, formatVendorCapacity } from '../format';

/** Share of the raw NAND not holding tested user data: (raw - span * user) / raw. */
export function spareFraction(drive: Pick<DrivePreset, 'raw_bytes' | 'user_bytes'>, span: number): number {
  if (!(drive.raw_bytes > 0)) return NaN;
  return (drive.raw_bytes - span * drive.user_bytes) / drive.raw_bytes;
}

export interface SpanOption {
  span: number;
  /** "200 GB (default)", "160 GB" */
  capacityLabel: string;
  /** "27% spare" */
  spareLabel: string;
  isDefault: boolean;
}

export function spanOption(drive: DrivePreset, span: number): SpanOption {
  const isDefault = span === 1;
  const capacity = formatVendorCapacity(span * drive.advertised_bytes);
  return {
    span,
    capacityLabel: isDefault ? `${capacity} (default)` : capacity,
    spareLabel: `${formatPercent(spareFraction(drive, span))} spare`,
    isDefault,
  };
}

/** Options for a drive; a span not in the list (from a shared link) is added in order. */
export function spanOptions(drive: DrivePreset, spans: readonly number[], current?: number): SpanOption[] {
  const all = [...spans];
  if (current !== undefined && !all.includes(current)) all.push(current);
  all.sort((a, b) => b - a);
  return all.map((s) => spanOption(drive, s));
}
