import { describe, expect, it } from 'vitest';
import type { DrivePreset } from '../engine/protocol';
import { consistency } from '../scenarios/consistency';
import { formatMemory, formatPercent, formatVendorCapacity } from '../format';
import { driveGroups, spanOption, spanOptions, spareFraction } from './capacity';

// The S3700 200GB as the engine describes it: 264 GiB of NAND behind 200 GB of LBAs.
const S3700: DrivePreset = {
  id: 's3700-200',
  name: 'Intel SSD DC S3700 200GB',
  interface: 'SATA 6Gb/s',
  raw_bytes: 264 * 2 ** 30,
  user_bytes: 200e9,
  advertised_bytes: 200e9,
  spec_random_write_iops: 32_000,
  parameters: {},
};

describe('spare-area labels', () => {
  it('name each span by the capacity a vendor would advertise', () => {
    const labels = spanOptions(S3700, consistency.spans).map((o) => o.capacityLabel);
    expect(labels).toEqual(['200 GB (default)', '180 GB', '160 GB', '150 GB', '130 GB', '100 GB']);
  });

  it('give the spare share of raw NAND', () => {
    expect(spareFraction(S3700, 1)).toBeCloseTo(0.2944, 3);
    expect(spareFraction(S3700, 0.5)).toBeCloseTo(0.6472, 3);
    const spare = spanOptions(S3700, consistency.spans).map((o) => o.spareLabel);
    expect(spare[0]).toBe('29% spare');
    expect(spare[5]).toBe('65% spare');
  });

  it('label any span the slider gives, and group drives by interface', () => {
    expect(spanOption(S3700, 0.7).capacityLabel).toBe('140 GB');
    expect(spanOptions(S3700, [0.5, 1]).map((o) => o.span)).toEqual([1, 0.5]);
    const nvme = { ...S3700, id: 'p', parameters: { 'host.protocol': 'nvme' } };
    const sata = { ...S3700, parameters: { 'host.protocol': 'sata' } };
    const odd = { ...S3700, id: 'x', parameters: {} };
    expect(driveGroups([nvme, sata, odd]).map((g) => [g.label, g.drives.map((d) => d.id)])).toEqual([
      ['SATA', ['s3700-200']],
      ['PCIe / NVMe', ['p']],
      ['Other', ['x']],
    ]);
  });

  it('format capacities in decimal units and memory in binary units', () => {
    expect(formatVendorCapacity(480e9 * 0.65)).toBe('312 GB');
    expect(formatVendorCapacity(1.6e12)).toBe('1.6 TB');
    expect(formatVendorCapacity(64e9 * 0.75)).toBe('48 GB');
    expect(formatVendorCapacity(8e9 * 0.65)).toBe('5.2 GB');
    expect(formatMemory(512 * 2 ** 20)).toBe('512 MiB');
    expect(formatMemory(1.5 * 2 ** 30)).toBe('1.5 GiB');
    expect(formatPercent(0.075)).toBe('7.5%');
    expect(formatPercent(NaN)).toBe('–');
  });
});
