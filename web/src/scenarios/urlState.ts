// Run settings <-> URL query, so any run and view can be shared as a link.
// Bad values are reported one sentence each and replaced by defaults; good ones are kept.

export interface RunSettings {
  drive: string;
  /** Fraction of the user LBA span filled and tested. */
  span: number;
  /** Simulated seconds. */
  seconds: number;
  seed: number;
  view: string;
}

export const LIMITS = {
  seconds: { min: 1, max: 86_400 },
  span: { min: 0.01, max: 1 },
  seed: { min: 0, max: 4_294_967_295 },
} as const;

export interface ParsedSettings {
  settings: RunSettings;
  errors: string[];
}

const KNOWN = ['drive', 'span', 'seconds', 'seed', 'view'] as const;

/**
 * Reads settings from a query string. `drives`, when given, are the known drive ids; otherwise
 * any drive id is accepted here and checked once the presets are known (see checkDrive).
 */
export function parseSettings(
  search: string,
  defaults: RunSettings,
  views: readonly string[],
  drives?: readonly string[],
): ParsedSettings {
  const q = new URLSearchParams(search);
  const settings = { ...defaults };
  const errors: string[] = [];

  const drive = q.get('drive');
  if (drive !== null) {
    const problem = checkDrive(drive, drives);
    if (problem) errors.push(problem);
    else settings.drive = drive;
  }

  const num = (name: 'span' | 'seconds' | 'seed', whole: boolean) => {
    const raw = q.get(name);
    if (raw === null) return;
    const { min, max } = LIMITS[name];
    const v = raw.trim() === '' ? NaN : Number(raw);
    const kind = whole ? 'a whole number' : 'a number';
    if (!Number.isFinite(v) || (whole && !Number.isInteger(v)) || v < min || v > max) {
      errors.push(`${name}: must be ${kind} between ${min} and ${max} (got "${raw}")`);
      return;
    }
    settings[name] = v;
  };
  num('span', false);
  num('seconds', true);
  num('seed', true);

  const view = q.get('view');
  if (view !== null) {
    if (views.includes(view)) settings.view = view;
    else errors.push(`view: must be one of ${views.join(', ')} (got "${view}")`);
  }

  for (const key of q.keys()) {
    if (!(KNOWN as readonly string[]).includes(key)) {
      errors.push(`${key}: unknown setting (known: ${KNOWN.join(', ')})`);
    }
  }
  return { settings, errors };
}

/** Null when the drive id is known (or nothing is known yet), else a sentence. */
export function checkDrive(drive: string, drives?: readonly string[]): string | null {
  if (drive.trim() === '') return 'drive: must not be empty';
  if (drives && !drives.includes(drive)) {
    return `drive: unknown drive "${drive}" (known: ${drives.join(', ')})`;
  }
  return null;
}

/** The query string for settings, listing only what differs from the defaults. */
export function settingsToSearch(settings: RunSettings, defaults: RunSettings): string {
  const q = new URLSearchParams();
  for (const key of KNOWN) {
    if (settings[key] !== defaults[key]) q.set(key, String(settings[key]));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
