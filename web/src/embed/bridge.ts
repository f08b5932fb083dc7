// The embed's side of the message protocol: which messages it hears (from its host frame, from
// an allowed origin), which it answers and where events go (the host page's origin, never `*`).
// Messages that arrive before the engine is ready wait, in order, until `open()`.

import { originAllowed, parseHostMessage, PROTOCOL_VERSION, type EmbedEvent, type HostMessage, type Posted } from './messages';

/** What the bridge needs of `window`; tests pass a fake. */
export interface FrameWindow {
  parent: { postMessage(message: unknown, targetOrigin: string): void };
  location: { origin: string; ancestorOrigins?: ArrayLike<string> };
  addEventListener(type: 'message', fn: (e: MessageEvent) => void): void;
}

export type MessageHandler = (message: HostMessage) => void;

export class HostBridge {
  private handler: MessageHandler | null = null;
  private readonly waiting: HostMessage[] = [];
  /** The host page's origin once a message from it was heard. */
  private heard: string | null = null;
  private readonly listener = (e: MessageEvent) => this.receive(e);

  constructor(
    private readonly win: FrameWindow,
    private readonly allowed: readonly string[],
    private readonly id: string | null,
  ) {
    if (this.framed) win.addEventListener('message', this.listener);
  }

  /** Whether the embed is inside another page at all. */
  get framed(): boolean {
    return (this.win.parent as unknown) !== this.win;
  }

  /** Whether events reach a host page (one whose origin is allowed). */
  get connected(): boolean {
    return this.targets().length > 0;
  }

  /** From now on messages go to `handler`, the waiting ones first. */
  open(handler: MessageHandler): void {
    this.handler = handler;
    for (const m of this.waiting.splice(0)) handler(m);
  }

  /** Messages wait again until the next `open()` (the embed is re-rendering its handler). */
  hold(): void {
    this.handler = null;
  }

  /** Sends an event to the host page, if its origin is allowed; never to `*`. */
  post(event: EmbedEvent): void {
    const posted: Posted = { ...event, ssdlab: PROTOCOL_VERSION, id: this.id };
    for (const origin of this.targets()) this.win.parent.postMessage(posted, origin);
  }

  private receive(e: MessageEvent): void {
    // Only the frame that holds the embed, from an origin the embed allows, is answered.
    if (e.source !== (this.win.parent as unknown) || !originAllowed(e.origin, this.allowed, this.win.location.origin)) return;
    this.heard = e.origin;
    const parsed = parseHostMessage(e.data);
    if (parsed.error !== undefined) {
      this.post({ type: 'error', ...parsed.error });
      return;
    }
    if (this.handler) this.handler(parsed.message);
    else this.waiting.push(parsed.message);
  }

  /**
   * Where events go: the host page's origin when known (it wrote to us, or the browser says
   * whose frame this is) and allowed; otherwise each allowed origin, of which the browser
   * delivers only to the one the host page has.
   */
  private targets(): string[] {
    if (!this.framed) return [];
    if (this.heard !== null) return [this.heard];
    const own = this.win.location.origin;
    const ancestor = this.win.location.ancestorOrigins?.[0];
    if (ancestor !== undefined) return originAllowed(ancestor, this.allowed, own) ? [ancestor] : [];
    return [own, ...this.allowed.filter((o) => o !== own)];
  }
}
