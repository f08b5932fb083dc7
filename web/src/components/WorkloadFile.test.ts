import { describe, expect, it } from 'vitest';
import { fileKind, jobWithIncludes } from './WorkloadFile';

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

// The shape of fio's examples/including.fio (its HOWTO's example): a job file whose sections
// `include` option-only files; the page takes them chosen together with it.
describe('a fio job file chosen with the files it includes', () => {
  const JOB = { name: 'including.fio', text: '[global]\ninclude glob-include.fio\n[job]\ninclude common/test-include.fio\n' };
  const GLOB = { name: 'glob-include.fio', text: 'thread=1\ngroup_reporting=1\n' };
  const TEST = { name: 'test-include.fio', text: 'bs=4k\nrw=randread\n' };

  it('takes the one with [sections] as the job, the others as its includes by file name, in any order', () => {
    expect(jobWithIncludes([GLOB, JOB, TEST])).toEqual({
      job: JOB,
      includes: { 'glob-include.fio': GLOB.text, 'test-include.fio': TEST.text },
    });
    expect(jobWithIncludes([JOB])).toEqual({ job: JOB, includes: {} });
    // One file alone is read as it is (a trace too).
    expect(jobWithIncludes([GLOB])).toEqual({ job: GLOB, includes: {} });
  });

  it('refuses several files that are not one job file and its includes, naming them', () => {
    expect(jobWithIncludes([GLOB, TEST])).toBe(
      'glob-include.fio, test-include.fio: several files are one fio job file (with [sections]) and the files it includes; none of these has [sections]',
    );
    expect(jobWithIncludes([JOB, { ...JOB, name: 'other.fio' }, GLOB])).toBe(
      'including.fio, other.fio, glob-include.fio: several files are one fio job file (with [sections]) and the files it includes; including.fio, other.fio each have [sections]',
    );
  });
});
