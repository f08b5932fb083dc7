// Types for thread-cpu.mjs, which the page benchmark (TypeScript) imports.
export function threadCpu(): Map<string, number> | null;
export function workerCpu(): number | null;
export function browserCpu(): number | null;
export function browserIdle(maxSeconds?: number): Promise<number>;
