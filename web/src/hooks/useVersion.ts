// Re-renders when a mutable store's version moves, at most every `everyMs` (stores grow in
// place while a run streams; views that are not the main chart need not keep up with it).

import { useEffect, useEffectEvent, useRef, useState } from 'react';

export function useVersion(version: () => number, everyMs = 250): number {
  const [seen, setSeen] = useState(version);
  const read = useEffectEvent(() => version());
  useEffect(() => {
    const timer = setInterval(() => {
      const v = read();
      setSeen((old) => (old === v ? old : v));
    }, everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return seen;
}

/**
 * The width of an element, following resizes; 0 until the browser has laid it out. Read from a
 * ResizeObserver only: reading it while React commits would force the layout of the whole page
 * into that task (at load, one task of 80-110 ms on the shared test machine).
 */
export function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) setWidth(Math.floor(e.contentRect.width));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

/** A canvas sized for the screen's pixel ratio; returns its context with CSS-pixel units. */
export function prepareCanvas(canvas: HTMLCanvasElement, width: number, height: number): CanvasRenderingContext2D | null {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(width * dpr);
  const h = Math.round(height * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  ctx?.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx?.clearRect(0, 0, width, height);
  return ctx;
}
