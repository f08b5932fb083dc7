// CPU seconds (user + system, from /proc: Linux only) of every thread of the processes this
// script started (a Chromium), by process and thread name: "PID NAME" -> seconds. The page
// benchmarks read the workers' (DedicatedWorker) and the renderer's threads from it.
import { readdirSync, readFileSync } from 'node:fs';

export function threadCpu() {
  const parentOf = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parentOf.set(pid, stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      // gone
    }
  }
  const ours = (pid) => {
    for (let p = pid, i = 0; p && p !== '1' && i < 20; p = parentOf.get(p), i++) if (p === String(process.pid)) return true;
    return false;
  };
  const cpu = new Map();
  for (const pid of parentOf.keys()) {
    if (!ours(pid)) continue;
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const key = `${pid} ${name}`;
        cpu.set(key, (cpu.get(key) ?? 0) + (Number(f[11]) + Number(f[12])) / 100);
      } catch {
        // gone
      }
    }
  }
  return cpu;
}

/** The CPU seconds of the browser's dedicated workers (the engines), together. */
export function workerCpu() {
  let total = 0;
  for (const [key, seconds] of threadCpu()) if (key.split(' ')[1]?.startsWith('DedicatedWorker')) total += seconds;
  return total;
}
