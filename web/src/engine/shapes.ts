// Shape checks for messages that cross from a worker or an embedding page: types only, the
// ranges are the engine's to judge.

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isStr = (v: unknown): v is string => typeof v === 'string';
export const isInt = (v: unknown): v is number => isNum(v) && Number.isInteger(v);
export const isNumList = (v: unknown): v is number[] => Array.isArray(v) && v.every(isNum);
export const isStrList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isStr);
