// The lab file reader's small toolkit: reads one field at a time and collects every problem with
// the path of the field it is about (schema.ts reads the whole lab with it).

import { rangeWords } from '../format';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const show = (v: unknown) => (typeof v === 'string' ? `"${v}"` : JSON.stringify(v));

export class Reader {
  readonly errors: string[] = [];
  fail(path: string, message: string): void {
    this.errors.push(`${path}: ${message}`);
  }
  /** The object at `path`, refusing keys it does not know (a typo would otherwise be ignored). */
  obj(v: unknown, path: string, keys: readonly string[]): Obj | null {
    if (!isObj(v)) {
      this.fail(path, `must be an object (got ${show(v)})`);
      return null;
    }
    for (const k of Object.keys(v)) if (!keys.includes(k)) this.fail(`${path}.${k}`, `unknown field (known: ${keys.join(', ')})`);
    return v;
  }
  str(o: Obj, key: string, path: string, opts: { pattern?: RegExp; patternText?: string; optional?: string } = {}): string {
    const v = o[key];
    if (v === undefined && opts.optional !== undefined) return opts.optional;
    if (typeof v !== 'string' || v.trim() === '') {
      this.fail(`${path}.${key}`, `must be a non-empty string (got ${v === undefined ? 'nothing' : show(v)})`);
      return '';
    }
    if (opts.pattern && !opts.pattern.test(v)) this.fail(`${path}.${key}`, `must be ${opts.patternText} (got ${show(v)})`);
    return v;
  }
  num(o: Obj, key: string, path: string, min: number, max: number, opts: { whole?: boolean; optional?: number | null } = {}): number {
    const v = o[key];
    if (v === undefined && opts.optional !== undefined) return opts.optional as number;
    const whole = opts.whole ?? false;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (whole && !Number.isInteger(v))) {
      this.fail(`${path}.${key}`, `must be ${rangeWords(min, max, whole)} (got ${v === undefined ? 'nothing' : show(v)})`);
      return min;
    }
    return v;
  }
  oneOf<T extends string>(o: Obj, key: string, path: string, values: readonly T[], optional?: T): T {
    const v = o[key];
    if (v === undefined && optional !== undefined) return optional;
    if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T;
    this.fail(`${path}.${key}`, `must be one of ${values.join(', ')} (got ${v === undefined ? 'nothing' : show(v)})`);
    return values[0];
  }
  list(o: Obj, key: string, path: string, min: number, max: number): unknown[] {
    const v = o[key];
    if (!Array.isArray(v) || v.length < min || v.length > max) {
      this.fail(
        `${path}.${key}`,
        `must be a list of ${min} to ${max} entries (got ${Array.isArray(v) ? `${v.length}` : v === undefined ? 'nothing' : show(v)})`,
      );
      return [];
    }
    return v;
  }
  strings(o: Obj, key: string, path: string, min: number, max: number): string[] {
    return this.list(o, key, path, min, max).map((v, i) => {
      if (typeof v === 'string' && v.trim() !== '') return v;
      this.fail(`${path}.${key}[${i}]`, `must be a non-empty string (got ${show(v)})`);
      return '';
    });
  }
}
