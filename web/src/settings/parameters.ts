// Every drive parameter (`ssdlab params`) placed in the drive part it belongs to, with its unit
// read from its name, and checked against what the engine says it accepts (`parameter_info`).

import type { ParameterInfo } from '../engine/protocol';
import { formatPlain, parseDecimal } from '../format';
import type { ParamValue } from './options';
import type { Parsed } from './urlState';

/** The drive's parts, in the order the panel lists them; a path goes to the first that claims it. */
export const PARAMETER_GROUPS: readonly { id: string; title: string; claims(path: string): boolean }[] = [
  { id: 'host', title: 'Host interface', claims: (p) => p.startsWith('host.') },
  {
    id: 'buffer',
    title: 'Write buffer and capacitors',
    claims: (p) => p.startsWith('power.') || p === 'controller.write_buffer_bytes',
  },
  { id: 'controller', title: 'Controller', claims: (p) => p.startsWith('controller.') },
  { id: 'map', title: 'Mapping table', claims: (p) => p.startsWith('map.') },
  { id: 'gc', title: 'Garbage collection', claims: (p) => p.startsWith('gc.') },
  { id: 'cache', title: 'SLC cache', claims: (p) => p.startsWith('slc_cache.') },
  { id: 'thermal', title: 'Heat and cooling', claims: (p) => p.startsWith('thermal.') },
  { id: 'wear', title: 'Wear and endurance', claims: (p) => p.startsWith('wear.') || p.startsWith('endurance.') },
  { id: 'nand', title: 'NAND', claims: (p) => p.startsWith('geometry.') || p.startsWith('timing.') || p.startsWith('nand.') },
  { id: 'drive', title: 'The drive as sold', claims: () => true },
];

export function groupParameters(list: readonly ParameterInfo[]): { id: string; title: string; parameters: ParameterInfo[] }[] {
  const out = PARAMETER_GROUPS.map((g) => ({ id: g.id, title: g.title, parameters: [] as ParameterInfo[] }));
  for (const p of list) out[PARAMETER_GROUPS.findIndex((g) => g.claims(p.path))].parameters.push(p);
  return out.filter((g) => g.parameters.length > 0);
}

const UNITS: readonly [RegExp, string][] = [
  [/_ns$/, 'ns'],
  [/_mb_s$/, 'MB/s'],
  [/_bytes$/, 'bytes'],
  [/_percent$/, '%'],
  [/_s$/, 's'],
  [/_mw$/, 'mW'],
  [/_mv$/, 'mV'],
  [/_uf$/, 'µF'],
  [/_cycles_per_io$/, 'CPU cycles per IO'],
  [/pe_cycles$/, 'erases per block'],
  [/_per_day$/, 'drive writes per day'],
  [/_years$/, 'years'],
  [/_blocks$/, 'blocks'],
  [/_iops$/, 'IO/s'],
  [/_k_per_w$/, 'K/W'],
  [/_j_per_k$/, 'J/K'],
  [/_c$/, '°C'],
  [/_w$/, 'W'],
];

/** The unit a parameter's name gives (`timing.program_ns` -> ns), or ''. */
export function unitOf(path: string): string {
  return UNITS.find(([re]) => re.test(path))?.[1] ?? '';
}

/** "10 – 1,000", "0 or more", or '' when the engine names no limits. */
export function rangeText(info: ParameterInfo): string {
  const f = formatPlain;
  if (info.min !== null && info.max !== null) return `${f(info.min)} – ${f(info.max)}`;
  if (info.min !== null) return `${f(info.min)} or more`;
  return '';
}

/** Reads typed text as a value of this parameter; errors name the path and the range. */
export function parseParameter(info: ParameterInfo, text: string): Parsed<ParamValue> {
  const t = text.trim();
  if (info.kind === 'text' || info.kind === 'name') {
    if (t === '') return { error: `${info.path}: needs a value` };
    if (info.choices && !info.choices.includes(t)) return { error: `${info.path}: must be one of ${info.choices.join(', ')} (got "${t}")` };
    return { value: t };
  }
  if (info.kind === 'bool')
    return t === 'true' || t === 'false' ? { value: t === 'true' } : { error: `${info.path}: must be true or false` };
  const v = parseDecimal(t);
  const whole = info.kind === 'whole';
  const range = info.range ?? (whole ? 'must be a whole number, 0 or more' : 'must be a number');
  const bad = (got: string) => ({ error: `${info.path}: ${range} (got ${got})` });
  if (!Number.isFinite(v)) return bad(`"${text}"`);
  if (whole && !Number.isInteger(v)) return { error: `${info.path}: must be a whole number (got ${t})` };
  if ((info.min !== null && v < info.min) || (info.max !== null && v > info.max)) return bad(t);
  return { value: v };
}
