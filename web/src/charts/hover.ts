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

/**
 * The second a key moves the hover to, within `range` (the seconds in view): arrows by one (ten
 * with Shift; from the last when none is hovered), Home and End to the ends. Null: not a move.
 */
export function secondForKey(key: string, shift: boolean, current: number | null, range: [number, number]): number | null {
  const stepBy = shift ? 10 : 1;
  let next: number;
  switch (key) {
    case 'ArrowRight':
      next = current === null ? range[1] : current + stepBy;
      break;
    case 'ArrowLeft':
      next = current === null ? range[1] : current - stepBy;
      break;
    case 'Home':
      next = range[0];
      break;
    case 'End':
      next = range[1];
      break;
    default:
      return null;
  }
  return Math.min(range[1], Math.max(range[0], next));
}
