import { describe, expect, it } from 'vitest';
import { parsePageMessage, parseWorkerMessage } from './protocol';

const CONFIG = { drive: 's3700-200', workload: 'consistency', seconds: 60, span: 1, seed: 1 };

describe('page -> worker messages', () => {
  it('accepts the four commands', () => {
    expect(parsePageMessage({ type: 'start', config: CONFIG })).toEqual({ type: 'start', config: CONFIG });
    for (const type of ['pause', 'resume', 'reset']) expect(parsePageMessage({ type })).toEqual({ type });
  });

  it('rejects unknown types and malformed configs', () => {
    expect(parsePageMessage(null)).toBeNull();
    expect(parsePageMessage('start')).toBeNull();
    expect(parsePageMessage({ type: 'explode' })).toBeNull();
    expect(parsePageMessage({ type: 'start' })).toBeNull();
    expect(parsePageMessage({ type: 'start', config: { ...CONFIG, seconds: '60' } })).toBeNull();
    expect(parsePageMessage({ type: 'start', config: { ...CONFIG, span: NaN } })).toBeNull();
  });
});

describe('worker -> page messages', () => {
  it('accepts samples whose buffer holds fields x n doubles', () => {
    const fields = ['second', 'iops'];
    const ok = { type: 'samples', fields, n: 3, buffer: new ArrayBuffer(2 * 3 * 8) };
    expect(parseWorkerMessage(ok)).toBe(ok);
    expect(parseWorkerMessage({ ...ok, n: 4 })).toBeNull();
    expect(parseWorkerMessage({ ...ok, n: 1.5 })).toBeNull();
    expect(parseWorkerMessage({ ...ok, buffer: new Float64Array(6) })).toBeNull();
    expect(parseWorkerMessage({ ...ok, fields: [] })).toBeNull();
  });

  it('accepts each message type in its documented shape', () => {
    const preset = {
      id: 's3700-200',
      name: 'Intel SSD DC S3700 200GB',
      interface: 'SATA 6Gb/s',
      raw_bytes: 1,
      user_bytes: 1,
      advertised_bytes: 1,
      spec_random_write_iops: 1,
    };
    const good = [
      { type: 'ready', presets: [preset], fields: ['second'] },
      { type: 'state', state: 'paused' },
      { type: 'started', config: CONFIG, memory_bytes: 1, setup_ms: 2 },
      { type: 'progress', seconds_done: 1, memory_bytes: 2, slice_ios: 3, slice_ms: 4 },
      { type: 'finished', summary: { seconds_done: 60, elapsed_ms: 1, memory_bytes: 2 } },
      { type: 'error', message: 'span: must be between 0.01 and 1.0 (got 2)', recoverable: true },
    ];
    for (const m of good) expect(parseWorkerMessage(m)).toBe(m);
  });

  it('rejects wrong shapes', () => {
    expect(parseWorkerMessage({ type: 'state', state: 'exploded' })).toBeNull();
    expect(parseWorkerMessage({ type: 'ready', presets: [{ id: 1 }], fields: [] })).toBeNull();
    expect(parseWorkerMessage({ type: 'error', message: 'x' })).toBeNull();
    expect(parseWorkerMessage({ type: 'finished', summary: {} })).toBeNull();
    expect(parseWorkerMessage({ type: 'progress', seconds_done: '1' })).toBeNull();
    expect(parseWorkerMessage([])).toBeNull();
  });
});
