// Labels for spare area, the way the S3500 review labels its buttons: by the capacity a vendor
// would advertise had it set aside that much NAND, plus the spare share of the raw NAND.

import type { DrivePreset } from '../engine/protocol';

/** Decimal units, as drive vendors quote them: 200 GB, 1.6 TB. */
export function formatVendorCapacity(bytes: number): string {
  const gb = bytes / 1e9;
  if (gb >= 1000) return `${trimNumber(gb / 1000, 2)} TB`;
  if (gb >= 100) return `${Math.round(gb)} GB`;
  if (gb >= 10) return `${trimNumber(gb, 1)} GB`;
  return `${trimNumber(gb, 2)} GB`;
}

/** Binary units for memory: 512 MiB, 1.2 GiB. */
export function formatMemory(bytes: number): string {
  if (!(bytes >= 0)) return '–';
  const mib = bytes / 2 ** 20;
  if (mib >= 1024) return `${trimNumber(mib / 1024, 2)} GiB`;
  if (mib >= 10) return `${Math.round(mib)} MiB`;
  return `${trimNumber(mib, 1)} MiB`;
}

function trimNumber(v: number, decimals: number): string {
  return String(Number(v.toFixed(decimals)));
}

/** Share of the raw NAND not holding tested user data: (raw - span * user) / raw. */
export function spareFraction(drive: Pick<DrivePreset, 'raw_bytes' | 'user_bytes'>, span: number): number {
  if (!(drive.raw_bytes > 0)) return NaN;
  return (drive.raw_bytes - span * drive.user_bytes) / drive.raw_bytes;
}

export function formatPercent(fraction: number): string {
  if (!Number.isFinite(fraction)) return '–';
  const pct = fraction * 100;
  return Math.abs(pct) >= 10 ? `${Math.round(pct)}%` : `${trimNumber(pct, 1)}%`;
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
