// The last calibration's outcomes (files/calibration.ts), fetched the first time a view asks.

import { useEffect, useState } from 'react';
import { CALIBRATION_FILE, parseCalibration, type Calibration } from '../files/calibration';

export type CalibrationState = { calibration: Calibration } | { error: string } | null;

async function fetchCalibration(): Promise<Exclude<CalibrationState, null>> {
  try {
    const res = await fetch(new URL(CALIBRATION_FILE, document.baseURI).href, { cache: 'no-cache' });
    if (!res.ok) return { error: `${CALIBRATION_FILE}: the server answered ${res.status}` };
    return parseCalibration(await res.json());
  } catch (e) {
    return { error: `${CALIBRATION_FILE}: could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** The outcomes once `wanted` (null while loading or before). */
export function useCalibration(wanted: boolean): CalibrationState {
  const [state, setState] = useState<CalibrationState>(null);
  const asked = wanted || state !== null;
  useEffect(() => {
    if (!asked) return;
    let live = true;
    void fetchCalibration().then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, [asked]);
  return state;
}
