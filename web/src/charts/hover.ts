// The second under the pointer, shared by every chart on the page, so pointing at a dip in one
// chart shows what every panel read in that second.

import { useSyncExternalStore } from 'react';
import type { ColumnStore } from './columns';

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

/** The row of `second` in the store (seconds arrive in order, one row each), or -1. */
export function rowOf(store: ColumnStore, second: number): number {
  if (store.length === 0 || !store.has('second')) return -1;
  const xs = store.column('second');
  const guess = second - xs[0];
  if (xs[guess] === second) return guess;
  return xs.indexOf(second);
}
