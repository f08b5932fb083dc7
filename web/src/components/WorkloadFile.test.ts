import { describe, expect, it } from 'vitest';
import { fileKind } from './WorkloadFile';

describe('what a dropped or pasted file is', () => {
  it('tells a fio job file by its sections, as fio and the engine read them', () => {
    expect(fileKind('[global]\nbs=4k\n[job1]\nrw=randwrite\n')).toBe('fio');
    // ceph/ceph src/test/fio/ceph-rados.fio (commit 4e600252) heads its job `[job1]]`; fio
    // strips a comment after a blank from every line, a section's too.
    expect(fileKind('[job1]]\nrw=randwrite\nbs=64k\n')).toBe('fio');
    expect(fileKind('[job] # 4k random writes\nrw=randwrite\n')).toBe('fio');
    expect(fileKind('[job] ; 4k random writes\nrw=randwrite\n')).toBe('fio');
  });

  it('reads anything else as a block trace', () => {
    expect(fileKind('fio version 3 iolog\n17 /dev/sdb add\n111 /dev/sdb write 0 4096\n')).toBe('trace');
    expect(fileKind('128166372003061629,hm,0,Write,7014912,4096,26\n')).toBe('trace');
    expect(fileKind('  8,0    3        1     0.000000000   697  Q  WS 3414144 + 8 [jbd2/sda3-8]\n')).toBe('trace');
    expect(fileKind('938944000 13 93230992 32 0\n')).toBe('trace');
  });
});
