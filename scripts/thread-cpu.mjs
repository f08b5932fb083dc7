// CPU seconds (user + system, from /proc: Linux only) of every thread of the processes this
// script started (a Chromium), by process and thread name: "PID NAME" -> seconds; null where
// there is no /proc. The page benchmarks read the workers' (DedicatedWorker) and the renderer's
// threads from it.
import { readdirSync, readFileSync } from 'node:fs';

export function threadCpu() {
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const parentOf = new Map();
  for (const pid of pids) {
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

/** The CPU seconds of the threads `keep(pid, thread name)` picks, together; null without /proc. */
function cpuOf(keep) {
  const cpu = threadCpu();
  if (!cpu) return null;
  let total = 0;
  for (const [key, seconds] of cpu) {
    const [pid, name] = key.split(' ');
    if (keep(pid, name ?? '')) total += seconds;
  }
  return total;
}

/** The CPU seconds of the browser's dedicated workers (the engines), together; null without /proc. */
export const workerCpu = () => cpuOf((_, name) => name.startsWith('DedicatedWorker'));

/** The CPU seconds of every thread of the browser's processes (not Playwright's own Node driver), together. */
export function browserCpu() {
  const comm = new Map();
  return cpuOf((pid) => {
    if (!comm.has(pid)) {
      try {
        comm.set(pid, readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
      } catch {
        comm.set(pid, null); // gone
      }
    }
    return comm.get(pid) !== null && comm.get(pid) !== 'node';
  });
}

/**
 * Waits until a browser just launched has finished its own start (Chromium 156 preloads its
 * omnibox popup, a WebUI page in a renderer of its own, which took 30-120 % of a core for about
 * a second beside a first visit on 2 cores): until its processes together used under 3 % of a
 * core over the last second, at most `maxSeconds`. Returns the seconds waited. A user's first
 * visit starts from a browser already open, so a page's first-visit tasks are measured from there.
 * Without /proc, waits 3 s.
 */
export async function browserIdle(maxSeconds = 20) {
  const t0 = performance.now();
  const cpu0 = browserCpu();
  if (cpu0 === null) {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    return 3;
  }
  const samples = [{ at: t0, cpu: cpu0 }];
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = { at: performance.now(), cpu: browserCpu() };
    samples.push(now);
    while (samples.length > 1 && now.at - samples[1].at >= 1000) samples.shift();
    const first = samples[0];
    if (now.at - first.at >= 1000 && now.cpu - first.cpu < 0.03 * ((now.at - first.at) / 1000)) break;
    if (now.at - t0 > maxSeconds * 1000) break;
  }
  return (performance.now() - t0) / 1000;
}
