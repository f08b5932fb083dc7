// The second under the pointer, shared by every chart on the page, so pointing at a dip in one
// chart shows what every panel read in that second.

import { useSyncExternalStore } from 'react';

type Listener = () => void;

export class HoverSecond {
  private second: number | null = null;
  private readonly listeners = new Set<Listener>();

  get = (): number | null => this.second;

  set(second: number | null): void {
    if (second === this.second) return;
    this.second = second;
    for (const fn of [...this.listeners]) fn();
  }

  subscribe = (fn: Listener): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };
}

export const hoverSecond = new HoverSecond();

export function useHoverSecond(): number | null {
  return useSyncExternalStore(hoverSecond.subscribe, hoverSecond.get);
}
