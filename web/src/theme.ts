// Light and dark themes: the system's choice unless the user picks one (remembered). The
// choice sits on <html data-theme>, CSS variables do the rest; canvases ask for the colours
// they draw with (colorOf) and redraw when the theme changes (useTheme).

import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const KEY = 'ssdlab.theme';
const listeners = new Set<() => void>();
let choice: ThemeChoice = readChoice();

function readChoice(): ThemeChoice {
  try {
    const v = globalThis.localStorage?.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

// One query object: every chart asks for the theme on each render.
const darkQuery = globalThis.matchMedia?.('(prefers-color-scheme: dark)');

function systemTheme(): Theme {
  return darkQuery?.matches ? 'dark' : 'light';
}

/** Colours resolved for the theme in effect (see colorOf), emptied when it changes. */
const resolved = new Map<string, string>();

export function currentTheme(): Theme {
  return choice === 'system' ? systemTheme() : choice;
}

function apply(): void {
  if (typeof document === 'undefined') return;
  resolved.clear();
  document.documentElement.dataset.theme = currentTheme();
  for (const fn of [...listeners]) fn();
}

export function themeChoice(): ThemeChoice {
  return choice;
}

/** Uses a theme; `remember` keeps it for later visits (an embed's theme comes from its URL). */
export function setThemeChoice(next: ThemeChoice, remember = true): void {
  choice = next;
  if (!remember) {
    apply();
    return;
  }
  try {
    if (next === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, next);
  } catch {
    // Private mode: the choice lasts for this visit.
  }
  apply();
}

/** Call once at start-up: sets the theme and follows the system's changes. */
export function initTheme(): void {
  apply();
  darkQuery?.addEventListener?.('change', () => {
    if (choice === 'system') apply();
  });
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The theme in effect; components re-render (and canvases redraw) when it changes. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, currentTheme, () => 'light');
}

/**
 * A colour a canvas can use: `var(--name)` resolved against the page's current theme. Kept until
 * the theme changes: reading the style while the page has pending changes would make the browser
 * recompute it, on every redraw of every chart.
 */
export function colorOf(color: string): string {
  const m = /^var\((--[\w-]+)\)$/.exec(color);
  if (!m || typeof document === 'undefined') return color;
  let value = resolved.get(m[1]);
  if (value === undefined) {
    value = getComputedStyle(document.documentElement).getPropertyValue(m[1]).trim();
    if (value) resolved.set(m[1], value); // not before the style sheet has loaded
  }
  return value || '#888';
}
