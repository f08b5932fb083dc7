// A stand-in for an engine worker in unit tests: it records what the page sends and says what a
// test tells it to.

import type { WorkerLike } from './client';

export class FakeWorker implements WorkerLike {
  sent: { type: string; [k: string]: unknown }[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  onmessageerror: ((e: MessageEvent) => void) | null = null;
  postMessage(msg: unknown) {
    this.sent.push(msg as { type: string });
  }
  terminate() {
    this.terminated = true;
  }
  say(data: unknown) {
    this.onmessage?.({ data } as MessageEvent);
  }
  /** The types of the messages sent, in order. */
  get types(): string[] {
    return this.sent.map((m) => m.type);
  }
  last(type: string): { type: string; [k: string]: unknown } | undefined {
    return this.sent.filter((m) => m.type === type).at(-1);
  }
}

/** Workers for the code under test to make (`make`), and those it made, in order. */
export function fakeWorkers(): { workers: FakeWorker[]; make: () => FakeWorker } {
  const workers: FakeWorker[] = [];
  const make = () => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  };
  return { workers, make };
}
