import { describe, expect, it } from 'vitest';
import { HOST_MESSAGE_TYPES, originAllowed, parseHostMessage, PROTOCOL_VERSION } from './messages';

const ok = (data: unknown) => {
  const parsed = parseHostMessage(data);
  if (parsed.error) throw new Error(`refused: ${parsed.error.field}: ${parsed.error.message}`);
  return parsed.message;
};
const refused = (data: unknown) => {
  const parsed = parseHostMessage(data);
  if (!parsed.error) throw new Error(`accepted: ${JSON.stringify(parsed.message)}`);
  return parsed.error;
};

describe('host messages', () => {
  it('reads every message type', () => {
    expect(PROTOCOL_VERSION).toBe(1);
    for (const type of ['hello', 'start', 'pause', 'resume', 'step', 'reset']) {
      expect(ok({ ssdlab: 1, type })).toEqual({ type });
    }
    expect(ok({ ssdlab: 1, type: 'seek', second: 600 })).toEqual({ type: 'seek', second: 600 });
    expect(ok({ ssdlab: 1, type: 'seek', second: null })).toEqual({ type: 'seek', second: null });
    expect(
      ok({ ssdlab: 1, type: 'config', settings: { drive: 'p400e-400', span: 0.8, cuts: [700, 900], compress: null }, ref: 'a1' }),
    ).toEqual({
      type: 'config',
      settings: { drive: 'p400e-400', span: 0.8, cuts: [700, 900], compress: null },
      ref: 'a1',
    });
    expect(HOST_MESSAGE_TYPES).toEqual(['hello', 'config', 'start', 'pause', 'resume', 'step', 'reset', 'seek']);
  });

  it('names a missing or wrong version', () => {
    expect(refused({ type: 'start' })).toEqual({
      field: 'ssdlab',
      message: 'missing: every message carries "ssdlab": 1, the protocol version',
    });
    expect(refused({ ssdlab: 2, type: 'start', ref: 7 })).toEqual({
      field: 'ssdlab',
      message: 'this embed speaks version 1 (got 2)',
      ref: 7,
    });
    expect(refused({ ssdlab: '1', type: 'start' }).message).toBe('this embed speaks version 1 (got "1")');
  });

  it('names an unknown or missing type with the known ones', () => {
    expect(refused({ ssdlab: 1, type: 'play' })).toEqual({
      field: 'type',
      message: 'must be one of hello, config, start, pause, resume, step, reset, seek (got "play")',
    });
    expect(refused({ ssdlab: 1 }).field).toBe('type');
    expect(refused({ ssdlab: 1, type: 3 }).message).toContain('(got 3)');
  });

  it('refuses what is not a message object', () => {
    for (const data of [null, 'start', 42, [1, 'start'], undefined]) {
      const e = refused(data);
      expect(e.field).toBe('message');
      expect(e.message).toMatch(/^must be an object like \{"ssdlab": 1, "type": "start"\}/);
    }
  });

  it('names a field a message does not take (a typo is not silently ignored)', () => {
    expect(refused({ ssdlab: 1, type: 'seek', seconds: 600 })).toEqual({
      field: 'seconds',
      message: 'not a field of a seek message (its fields: ssdlab, type, ref, second)',
    });
    expect(refused({ ssdlab: 1, type: 'start', settings: {} }).field).toBe('settings');
  });

  it('checks seek seconds', () => {
    for (const second of [-1, 1.5, '600', 86_401, Number.NaN, undefined]) {
      const e = refused({ ssdlab: 1, type: 'seek', second, ref: 'x' });
      expect(e.field).toBe('second');
      expect(e.message).toMatch(/^must be a whole number from 0 to 86,400, or null for the whole run/);
      expect(e.ref).toBe('x');
    }
  });

  it('checks config settings', () => {
    expect(refused({ ssdlab: 1, type: 'config' }).field).toBe('settings');
    expect(refused({ ssdlab: 1, type: 'config', settings: [] }).field).toBe('settings');
    expect(refused({ ssdlab: 1, type: 'config', settings: {} })).toEqual({ field: 'settings', message: 'must name at least one key' });
    const e = refused({ ssdlab: 1, type: 'config', settings: { drive: 's3700-200', span: { value: 0.8 } } });
    expect(e.field).toBe('settings.span');
    expect(e.message).toContain('(got {"value":0.8})');
    expect(refused({ ssdlab: 1, type: 'config', settings: { seconds: Infinity } }).field).toBe('settings.seconds');
    expect(refused({ ssdlab: 1, type: 'config', settings: { cuts: [1, [2]] } }).field).toBe('settings.cuts');
  });

  it('checks ref', () => {
    expect(refused({ ssdlab: 1, type: 'start', ref: { id: 1 } }).field).toBe('ref');
    expect(refused({ ssdlab: 1, type: 'start', ref: 'x'.repeat(101) }).field).toBe('ref');
    expect(ok({ ssdlab: 1, type: 'start', ref: 3 })).toEqual({ type: 'start', ref: 3 });
  });
});

describe('allowed origins', () => {
  const own = 'https://ssdlab.example';
  it('answers its own origin and the listed ones only', () => {
    expect(originAllowed(own, [], own)).toBe(true);
    expect(originAllowed('https://blog.example', ['https://blog.example'], own)).toBe(true);
    expect(originAllowed('https://blog.example', [], own)).toBe(false);
    expect(originAllowed('https://evil.example', ['https://blog.example'], own)).toBe(false);
    expect(originAllowed('http://blog.example', ['https://blog.example'], own)).toBe(false);
    // Sandboxed frames and file pages have an opaque origin; it is never allowed.
    expect(originAllowed('null', ['null'], own)).toBe(false);
  });
});
