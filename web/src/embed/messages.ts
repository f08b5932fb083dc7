// The embed's message protocol, version 1: what a host page may send an embedded SSD Lab, what
// the embed sends back, and the checks every incoming message passes before it does anything.
// docs/EMBEDDING.md documents it for authors; a change here that a host would notice raises
// PROTOCOL_VERSION. Every message, both ways, carries `ssdlab: PROTOCOL_VERSION`.

import type { ConfigValue } from './embedState';
import { rangeWords } from '../format';

export const PROTOCOL_VERSION = 1;

// ---- host page -> embed ------------------------------------------------------------------------

/** Fields every host message may carry: `ref` is echoed in the error a message causes. */
interface Base {
  ref?: string | number;
}

export type HostMessage = Base &
  (
    | /** Asks for `ready` again (sent once the engine is ready). */ { type: 'hello' }
    | /** Changes the setup (URL keys and values), whole or not at all; the chart is cleared. */ {
        type: 'config';
        settings: Record<string, ConfigValue>;
      }
    | /** Runs the setup from second 0 (again, if it ran). */ { type: 'start' }
    | { type: 'pause' }
    | { type: 'resume' }
    /** One more simulated second, then paused. */
    | { type: 'step' }
    /** Stops and clears the results; the setup stays. */
    | { type: 'reset' }
    /** Shows the run up to this second (null: everything, as it comes). */
    | { type: 'seek'; second: number | null }
  );

export type HostMessageType = HostMessage['type'];

/** Each message type and the fields it takes besides `ssdlab`, `type` and `ref`. */
const FIELDS: Record<HostMessageType, readonly string[]> = {
  hello: [],
  config: ['settings'],
  start: [],
  pause: [],
  resume: [],
  step: [],
  reset: [],
  seek: ['second'],
};
export const HOST_MESSAGE_TYPES = Object.keys(FIELDS) as HostMessageType[];

/** The last second `seek` accepts before it is checked against the run: a day, as `seconds`. */
export const MAX_SEEK_SECOND = 86_400;

// ---- embed -> host page ------------------------------------------------------------------------

export type EmbedState = 'loading' | 'idle' | 'starting' | 'running' | 'paused' | 'finished' | 'stopped' | 'error';

export type EmbedEvent =
  /** The engine is ready; messages are answered from now on. `setup` is the setup as URL keys. */
  | { type: 'ready'; setup: string; state: EmbedState }
  /** The runs' state changed, or the embed went off or on screen (runs pause while it is off). */
  | { type: 'state'; state: EmbedState; visible: boolean }
  /** How far run `run` (1 for the first) has come: simulated seconds, or an experiment's points. */
  | { type: 'progress'; run: number; done: number; total: number; unit: 'second' | 'point' }
  /** One simulated second of a live run (every sample column), or one row of an experiment's table. */
  | { type: 'sample'; run: number; second: number; values: Record<string, number> }
  | { type: 'sample'; run: number; point: number; values: Record<string, string | number | boolean | null> }
  /** A message, URL key or the engine refused something: `field` names it. */
  | { type: 'error'; field: string; message: string; ref?: string | number }
  /** The embed's content height, px, so the host page can size the iframe. */
  | { type: 'height'; height: number };

/** An event as posted: the protocol version and the embed's `id` (null when the URL gave none). */
export type Posted = EmbedEvent & { ssdlab: typeof PROTOCOL_VERSION; id: string | null };

// ---- checking ----------------------------------------------------------------------------------

export interface ProtocolError {
  field: string;
  message: string;
  ref?: string | number;
}

export type ParsedMessage = { message: HostMessage; error?: undefined } | { error: ProtocolError };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => {
  try {
    const text = JSON.stringify(v);
    return text === undefined ? String(v) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
  } catch {
    return String(v);
  }
};

/** A config value: text, a number, true/false, null, or a list of texts or numbers. */
function isConfigValue(v: unknown): v is ConfigValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  return Array.isArray(v) && v.every((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x)));
}

/**
 * Checks a message from a host page. An answer names the first field that is wrong and what it
 * accepts; nothing in `data` is trusted or kept beyond the checked message.
 */
export function parseHostMessage(data: unknown): ParsedMessage {
  if (!isObj(data)) {
    return {
      error: { field: 'message', message: `must be an object like {"ssdlab": ${PROTOCOL_VERSION}, "type": "start"} (got ${show(data)})` },
    };
  }
  const fail = (field: string, message: string): ParsedMessage => ({
    error: { field, message, ...(ref !== undefined ? { ref } : {}) },
  });
  // The ref first, so every later error can carry it.
  const rawRef = data.ref;
  const ref =
    (typeof rawRef === 'string' && rawRef.length <= 100) || (typeof rawRef === 'number' && Number.isFinite(rawRef)) ? rawRef : undefined;
  if (rawRef !== undefined && ref === undefined)
    return fail('ref', `must be a number or a text of up to 100 characters (got ${show(rawRef)})`);

  if (!('ssdlab' in data)) return fail('ssdlab', `missing: every message carries "ssdlab": ${PROTOCOL_VERSION}, the protocol version`);
  if (data.ssdlab !== PROTOCOL_VERSION) return fail('ssdlab', `this embed speaks version ${PROTOCOL_VERSION} (got ${show(data.ssdlab)})`);
  const type = data.type;
  if (typeof type !== 'string' || !(HOST_MESSAGE_TYPES as string[]).includes(type)) {
    return fail('type', `must be one of ${HOST_MESSAGE_TYPES.join(', ')} (got ${show(type)})`);
  }
  const t = type as HostMessageType;
  const allowed = ['ssdlab', 'type', 'ref', ...FIELDS[t]];
  const extra = Object.keys(data).find((k) => !allowed.includes(k));
  if (extra !== undefined) return fail(extra, `not a field of a ${t} message (its fields: ${allowed.join(', ')})`);
  const base = ref !== undefined ? { ref } : {};

  switch (t) {
    case 'config': {
      const settings = data.settings;
      if (!isObj(settings))
        return fail(
          'settings',
          `must be an object of URL keys and values, like {"drive": "p400e-400", "span": 0.8} (got ${show(settings)})`,
        );
      const keys = Object.keys(settings);
      if (keys.length === 0) return fail('settings', 'must name at least one key');
      for (const key of keys) {
        if (!isConfigValue(settings[key])) {
          return fail(
            `settings.${key}`,
            `must be text, a number, true or false, null (back to the default) or a list of texts or numbers (got ${show(settings[key])})`,
          );
        }
      }
      return { message: { ...base, type: 'config', settings: settings as Record<string, ConfigValue> } };
    }
    case 'seek': {
      const second = data.second;
      if (second === null) return { message: { ...base, type: 'seek', second: null } };
      if (typeof second !== 'number' || !Number.isInteger(second) || second < 0 || second > MAX_SEEK_SECOND) {
        return fail('second', `must be ${rangeWords(0, MAX_SEEK_SECOND, true)}, or null for the whole run (got ${show(second)})`);
      }
      return { message: { ...base, type: 'seek', second } };
    }
    default:
      return { message: { ...base, type: t } as HostMessage };
  }
}

/**
 * Whether an embed answers messages from `origin`: its own origin (a page that can already reach
 * into the frame) and the origins its URL allows. Never every origin: there is no `*`.
 */
export function originAllowed(origin: string, allowed: readonly string[], own: string): boolean {
  if (origin === 'null' || origin === '') return false;
  return origin === own || allowed.includes(origin);
}
