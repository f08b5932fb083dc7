// The window's size as the layout needs it: a chart height that fits a short window, and
// whether the narrow (phone) layout is in effect.

import { useEffect, useState } from 'react';

function chartHeight(max: number, min: number): number {
  return Math.round(Math.min(max, Math.max(min, window.innerHeight * 0.5)));
}

/** A chart height that leaves room for the run controls in a short window (a phone, an embed). */
export function useChartHeight(max = 400, min = 240): number {
  const [h, setH] = useState(() => chartHeight(max, min));
  useEffect(() => {
    const on = () => setH(chartHeight(max, min));
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, [max, min]);
  return h;
}

/** Whether a media query matches, following changes (e.g. a phone turned sideways). */
export function useMediaQuery(query: string): boolean {
  const [match, setMatch] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = () => setMatch(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return match;
}
