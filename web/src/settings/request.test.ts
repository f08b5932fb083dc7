// A workload file in the run request: a trace's format, when chosen in the page, goes with it
// (as `ssdlab replay --format` names it); when not, the engine detects it.

import { describe, expect, it } from 'vitest';
import type { EngineOffer } from './options';
import { buildRequest } from './request';
import { DEFAULTS } from './pageDefaults';
import type { RunSettings } from './urlState';

const OFFER: EngineOffer = { parameters: {}, requestFields: { queue_depth: 32, threads: 1 } };
const SETTINGS: RunSettings = { ...DEFAULTS, seconds: 60, workload: 'random-write' };
// A DiskSim ASCII trace in whole milliseconds, which reads as the ns variant unless named.
const TRACE = { kind: 'trace' as const, name: 'ms.trace', text: '0 0 1234 8 1\n3 0 99 8 0\n' };

describe('a trace in the run request', () => {
  it('carries the format chosen, and none when the engine is to detect it', () => {
    expect(buildRequest({ ...SETTINGS, source: { ...TRACE, format: 'disksim' } }, OFFER).trace).toEqual({
      text: TRACE.text,
      name: TRACE.name,
      format: 'disksim',
    });
    expect(buildRequest({ ...SETTINGS, source: TRACE }, OFFER).trace).toEqual({ text: TRACE.text, name: TRACE.name });
  });
});

describe('a fio job file in the run request', () => {
  const JOB = { kind: 'fio' as const, name: 'including.fio', text: '[job]\ninclude test-include.fio\n' };

  it('carries the files it includes in fio_includes, and no such field without them', () => {
    const includes = { 'test-include.fio': 'bs=4k\nrw=randread\n' };
    const request = buildRequest({ ...SETTINGS, source: { ...JOB, includes } }, OFFER);
    expect([request.fio, request.fio_includes]).toEqual([JOB.text, includes]);
    expect('fio_includes' in buildRequest({ ...SETTINGS, source: JOB }, OFFER)).toBe(false);
  });
});
