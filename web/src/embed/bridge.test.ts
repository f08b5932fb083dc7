import { describe, expect, it } from 'vitest';
import { HostBridge, type FrameWindow } from './bridge';
import type { HostMessage } from './messages';

/** A frame and its host page, with what the host received and the origins it was sent to. */
function frame(options: { own?: string; ancestor?: string | null } = {}) {
  const sent: { message: Record<string, unknown>; origin: string }[] = [];
  const parent = { postMessage: (message: unknown, origin: string) => sent.push({ message: message as Record<string, unknown>, origin }) };
  let listener: ((e: MessageEvent) => void) | null = null;
  const win: FrameWindow = {
    parent,
    location: {
      origin: options.own ?? 'https://ssdlab.example',
      ...(options.ancestor === null ? {} : { ancestorOrigins: [options.ancestor ?? 'https://blog.example'] }),
    },
    addEventListener: (_type, fn) => (listener = fn),
  };
  const deliver = (data: unknown, origin: string, source: unknown = parent) => listener?.({ data, origin, source } as MessageEvent);
  return { win, sent, deliver, parent };
}

describe('the embed bridge', () => {
  it('answers the allowed host page; messages wait until the engine is ready', () => {
    const f = frame();
    const bridge = new HostBridge(f.win, ['https://blog.example'], 'chart-1');
    const got: HostMessage[] = [];
    f.deliver({ ssdlab: 1, type: 'start' }, 'https://blog.example');
    expect(got).toEqual([]);
    bridge.open((m) => got.push(m));
    f.deliver({ ssdlab: 1, type: 'seek', second: 10 }, 'https://blog.example');
    expect(got).toEqual([{ type: 'start' }, { type: 'seek', second: 10 }]);

    bridge.post({ type: 'height', height: 480 });
    expect(f.sent).toEqual([{ message: { type: 'height', height: 480, ssdlab: 1, id: 'chart-1' }, origin: 'https://blog.example' }]);
  });

  it('holds messages again while the embed swaps its handler', () => {
    const f = frame();
    const bridge = new HostBridge(f.win, ['https://blog.example'], null);
    const first: HostMessage[] = [];
    const second: HostMessage[] = [];
    bridge.open((m) => first.push(m));
    bridge.hold();
    f.deliver({ ssdlab: 1, type: 'pause' }, 'https://blog.example');
    bridge.open((m) => second.push(m));
    expect(first).toEqual([]);
    expect(second).toEqual([{ type: 'pause' }]);
  });

  it('ignores other origins and other windows, and tells them nothing', () => {
    const f = frame();
    const bridge = new HostBridge(f.win, ['https://blog.example'], null);
    const got: HostMessage[] = [];
    bridge.open((m) => got.push(m));
    f.deliver({ ssdlab: 1, type: 'start' }, 'https://evil.example');
    f.deliver({ nonsense: true }, 'https://evil.example');
    f.deliver({ ssdlab: 1, type: 'start' }, 'https://blog.example', { postMessage: () => undefined });
    expect(got).toEqual([]);
    expect(f.sent).toEqual([]);
  });

  it('answers a malformed message from the host with an error event naming the field', () => {
    const f = frame();
    const bridge = new HostBridge(f.win, ['https://blog.example'], null);
    bridge.open(() => undefined);
    f.deliver({ ssdlab: 1, type: 'warp', ref: 'r1' }, 'https://blog.example');
    expect(f.sent).toHaveLength(1);
    expect(f.sent[0].origin).toBe('https://blog.example');
    expect(f.sent[0].message).toMatchObject({ type: 'error', field: 'type', ref: 'r1', ssdlab: 1 });
  });

  it('never posts to a host page whose origin is not allowed, nor to *', () => {
    const f = frame({ ancestor: 'https://evil.example' });
    const bridge = new HostBridge(f.win, ['https://blog.example'], null);
    expect(bridge.connected).toBe(false);
    bridge.post({ type: 'state', state: 'running', visible: true });
    expect(f.sent).toEqual([]);

    // Without ancestorOrigins (not Chromium), each allowed origin is named; the browser delivers
    // to the one the host page has.
    const g = frame({ ancestor: null });
    new HostBridge(g.win, ['https://blog.example', 'https://www.blog.example'], null).post({ type: 'height', height: 1 });
    expect(g.sent.map((s) => s.origin)).toEqual(['https://ssdlab.example', 'https://blog.example', 'https://www.blog.example']);
    expect(g.sent.some((s) => s.origin === '*')).toBe(false);
  });

  it('a page opened on its own (not framed) listens to no one', () => {
    let added = false;
    const win = {
      location: { origin: 'https://ssdlab.example' },
      addEventListener: () => (added = true),
    } as unknown as FrameWindow;
    (win as { parent: unknown }).parent = win;
    const bridge = new HostBridge(win, ['https://blog.example'], null);
    expect(added).toBe(false);
    expect(bridge.connected).toBe(false);
  });
});
