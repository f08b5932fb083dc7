import { describe, expect, it } from 'vitest';
import { parsePageMessage, parseWorkerMessage } from './protocol';

const CONFIG = { drive: 's3700-200', workload: 'consistency', seconds: 60, span: 1, seed: 1 };

describe('page -> worker messages', () => {
  it('accepts the commands and checks', () => {
    expect(parsePageMessage({ type: 'start', config: CONFIG })).toEqual({ type: 'start', config: CONFIG });
    const check = { type: 'check', id: 3, config: { ...CONFIG, queue_depth: 8, set: { 'gc.pacing': 'lazy' } } };
    expect(parsePageMessage(check)).toEqual(check);
    expect(parsePageMessage({ ...check, id: 1.5 })).toBeNull();
    expect(parsePageMessage({ ...check, config: { ...CONFIG, set: 'gc.pacing=lazy' } })).toBeNull();
    for (const type of ['pause', 'resume', 'reset', 'cut_power']) expect(parsePageMessage({ type })).toEqual({ type });
    expect(parsePageMessage({ type: 'capacitors', healthy: false })).toEqual({ type: 'capacitors', healthy: false });
    expect(parsePageMessage({ type: 'capacitors', healthy: 'no' })).toBeNull();
    expect(parsePageMessage({ type: 'describe', id: 2, drive: 'x' })).toEqual({ type: 'describe', id: 2, drive: 'x' });
    expect(parsePageMessage({ type: 'sources', id: 3, drive: 'x' })).toEqual({ type: 'sources', id: 3, drive: 'x' });
    expect(parsePageMessage({ type: 'sources', id: 3 })).toBeNull();
    expect(parsePageMessage({ type: 'share', share: 0.375 })).toEqual({ type: 'share', share: 0.375 });
    expect(parsePageMessage({ type: 'share', share: 1 })).toEqual({ type: 'share', share: 1 });
    for (const share of [0, -0.5, 1.01, NaN, Infinity, '0.5', undefined]) expect(parsePageMessage({ type: 'share', share })).toBeNull();
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
    const ok = {
      type: 'samples',
      fields,
      n: 3,
      buffer: new ArrayBuffer(2 * 3 * 8),
      inside: new ArrayBuffer(3 * 4 * 12),
      latency: new ArrayBuffer(24),
    };
    expect(parseWorkerMessage(ok)).toBe(ok);
    expect(parseWorkerMessage({ ...ok, n: 4 })).toBeNull();
    expect(parseWorkerMessage({ ...ok, n: 1.5 })).toBeNull();
    expect(parseWorkerMessage({ ...ok, buffer: new Float64Array(6) })).toBeNull();
    expect(parseWorkerMessage({ ...ok, fields: [] })).toBeNull();
    expect(parseWorkerMessage({ ...ok, inside: undefined })).toBeNull();
    expect(parseWorkerMessage({ ...ok, latency: new ArrayBuffer(20) })).toBeNull();
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
      parameters: { 'gc.pacing': 'lazy' },
    };
    const layout = { dies: 1, channels: 1, kinds: ['a'], valid_bins: 2, erase_bins: 2, row: 7 };
    const workload = { id: 'consistency', description: 'd', block_bytes: 4096, queue_depth: 32, read_percent: 0 };
    const cut = {
      at_s: 1,
      acknowledged_writes_lost: 0,
      writes_at_risk: 1,
      flushed_units: 1,
      energy_needed_uj: 1,
      energy_stored_uj: 1,
      rebuild_ms: 1,
    };
    const good = [
      { type: 'ready', presets: [preset], workloads: [workload], request_fields: { seed: 1 }, fields: ['second'] },
      { type: 'checked', id: 1, problem: null },
      { type: 'checked', id: 2, problem: { field: 'span', message: 'must be between 0.01 and 1.0 (got 2)' } },
      { type: 'power_cuts', cuts: [cut] },
      { type: 'state', state: 'paused' },
      { type: 'started', config: CONFIG, parameters: {}, memory_bytes: 1, setup_ms: 2, inside_layout: layout },
      { type: 'described', id: 3, parameters: [{ path: 'gc.pacing', kind: 'name', range: null, min: null, max: null, value: 'lazy' }] },
      { type: 'cut_asked', at_s: 12.5 },
      { type: 'sourced', id: 4, answer: { ok: true, sources: { 'gc.pacing': 'model choice' } } },
      { type: 'sourced', id: 5, answer: { ok: false, message: 'the engine stopped' } },
      { type: 'progress', seconds_done: 1, memory_bytes: 2, slice_ios: 3, slice_ms: 4 },
      { type: 'finished', summary: { seconds_done: 60, elapsed_ms: 1, memory_bytes: 2 } },
      { type: 'error', message: 'span: must be between 0.01 and 1.0 (got 2)', recoverable: true },
      { type: 'error', message: 'span: must be between 0.01 and 1.0 (got 2)', field: 'span', recoverable: true },
    ];
    for (const m of good) expect(parseWorkerMessage(m)).toBe(m);
  });

  it('rejects wrong shapes', () => {
    expect(parseWorkerMessage({ type: 'state', state: 'exploded' })).toBeNull();
    expect(parseWorkerMessage({ type: 'ready', presets: [{ id: 1 }], fields: [] })).toBeNull();
    expect(parseWorkerMessage({ type: 'ready', presets: [], workloads: [{ id: 'x' }], request_fields: {}, fields: [] })).toBeNull();
    expect(parseWorkerMessage({ type: 'checked', id: 1, problem: 'bad' })).toBeNull();
    expect(parseWorkerMessage({ type: 'power_cuts', cuts: [{ at_s: 1 }] })).toBeNull();
    expect(parseWorkerMessage({ type: 'error', message: 'x' })).toBeNull();
    expect(parseWorkerMessage({ type: 'finished', summary: {} })).toBeNull();
    expect(parseWorkerMessage({ type: 'progress', seconds_done: '1' })).toBeNull();
    expect(parseWorkerMessage({ type: 'sourced', id: 1, answer: { ok: true, sources: { 'gc.pacing': 3 } } })).toBeNull();
    expect(parseWorkerMessage({ type: 'sourced', id: 1, answer: { ok: false } })).toBeNull();
    expect(parseWorkerMessage([])).toBeNull();
  });
});
