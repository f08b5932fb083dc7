// Labels for spare area, the way the S3500 review labels its buttons: by the capacity a vendor
// would advertise had it set aside that much NAND, plus the spare share of the raw NAND.

import type { DrivePreset } from '../engine/protocol';
import { formatPercent, formatVendorCapacity } from '../format';

/** Share of the raw NAND not holding tested user data: (raw - span * user) / raw. */
export function spareFraction(drive: Pick<DrivePreset, 'raw_bytes' | 'user_bytes'>, span: number): number {
  if (!(drive.raw_bytes > 0)) return NaN;
  return (drive.raw_bytes - span * drive.user_bytes) / drive.raw_bytes;
}

/** A zoned drive's zones and each one's writable bytes (from its `zoned.*` parameters); null for
 * other drives. Its LBA space counts every zone's whole size, so its spare is figured from these. */
export function zonesOf(drive: Pick<DrivePreset, 'parameters' | 'user_bytes'>): { zones: number; capacity: number } | null {
  const size = Number(drive.parameters['zoned.zone_bytes']);
  const capacity = Number(drive.parameters['zoned.zone_capacity_bytes']);
  if (!(size > 0 && capacity > 0)) return null;
  return { zones: Math.round(drive.user_bytes / size), capacity };
}

/** The raw NAND not in any zone's writable part, as a share of it; the spare share of other drives. */
export function driveSpare(drive: DrivePreset, span: number): number {
  const z = zonesOf(drive);
  return z ? spareFraction({ raw_bytes: drive.raw_bytes, user_bytes: z.zones * z.capacity }, 1) : spareFraction(drive, span);
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
    spareLabel: `${formatPercent(driveSpare(drive, span))} spare`,
    isDefault,
  };
}

/** The spare-area buttons of a drive, largest tested share first. */
export function spanOptions(drive: DrivePreset, spans: readonly number[]): SpanOption[] {
  return [...spans].sort((a, b) => b - a).map((s) => spanOption(drive, s));
}

/** The spare-area slider: any tested share from a tenth of the drive to all of it. */
export const SPAN_SLIDER = { min: 0.1, max: 1, step: 0.01 } as const;

const PROTOCOL_GROUPS: readonly { protocol: string; label: string }[] = [
  { protocol: 'sata', label: 'SATA' },
  { protocol: 'sas', label: 'SAS' },
  { protocol: 'nvme', label: 'PCIe / NVMe' },
];

/** The drives grouped by host interface (by their `host.protocol`), in the engine's order. */
export function driveGroups(presets: readonly DrivePreset[]): { label: string; drives: DrivePreset[] }[] {
  const known = PROTOCOL_GROUPS.map((g) => g.protocol);
  const groups = PROTOCOL_GROUPS.map((g) => ({
    label: g.label,
    drives: presets.filter((d) => d.parameters['host.protocol'] === g.protocol),
  }));
  const other = presets.filter((d) => !known.includes(String(d.parameters['host.protocol'])));
  if (other.length > 0) groups.push({ label: 'Other', drives: other });
  return groups.filter((g) => g.drives.length > 0);
}
