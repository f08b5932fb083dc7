import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { SMALL_S3700, allRunsDone, untilAttribute } from './helpers';

// The built site (web/dist, built before the tests) as a teacher would host it: copied under a
// sub-path of a plain static server, with no special headers. It runs a simulation; after that
// first visit the service worker has cached it, so with the server stopped and the network cut
// it loads and runs again, a lab included. Nothing is asked of another origin.

test.use({ serviceWorkers: 'allow' });

/** Starts a server and resolves once it prints `ready` (on stdout or stderr). */
function start(command: string, args: string[], ready: RegExp): Promise<{ proc: ChildProcess; output: () => string }> {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      if (ready.test(out)) resolve({ proc, output: () => out });
    };
    proc.stdout!.on('data', seen);
    proc.stderr!.on('data', seen);
    proc.on('exit', (code) => reject(new Error(`${command} exited (${code}): ${out}`)));
  });
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve();
    proc.removeAllListeners('exit');
    proc.on('exit', () => resolve());
    proc.kill();
  });
}

/** Every request the browser makes (pages, workers, the service worker), by address. */
function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (r) => urls.push(r.url()));
  return urls;
}

async function runShort(page: Page): Promise<void> {
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  await page.getByTestId('start').click();
  await allRunsDone(page, 1);
  await expect(page.getByTestId('run-1')).toContainText('20/20 s, done');
  await expect(page.getByTestId('iops-chart')).toHaveAttribute('data-points', '20');
}

test('served from a sub-path by python’s http.server, the site runs; after one visit it runs offline, a trace import and labs too', async ({
  page,
  context,
}) => {
  const parent = mkdtempSync(join(tmpdir(), 'ssdlab-host-'));
  mkdirSync(join(parent, 'courses', 'storage'), { recursive: true });
  cpSync('web/dist', join(parent, 'courses', 'storage', 'ssdlab'), { recursive: true });
  // Port 0: any free port, which the server prints.
  const server = await start(
    'python3',
    ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', parent],
    /Serving HTTP on \S+ port \d+/,
  );
  const origin = `http://127.0.0.1:${server.output().match(/port (\d+)/)![1]}`;
  const app = `${origin}/courses/storage/ssdlab/`;
  const requests = recordRequests(context);
  try {
    await page.addInitScript(() => localStorage.setItem('ssdlab.guide.done', '1'));
    await page.goto(`${app}?seconds=20&${SMALL_S3700}`);
    await runShort(page);
    // The service worker takes the page over once it has cached every file of the build.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    const cached = await page.evaluate(async () => {
      const keys = await caches.keys();
      const cache = await caches.open(keys.find((k) => k.startsWith('ssdlab '))!);
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    expect(cached).toContain('/courses/storage/ssdlab/');
    expect(cached.some((p) => /\/courses\/storage\/ssdlab\/assets\/ssdlab_wasm_bg-.*\.wasm$/.test(p))).toBe(true);
    // The full engine module, which the page fetches only when a fio job file or a trace needs it.
    expect(cached.some((p) => /\/courses\/storage\/ssdlab\/assets\/ssdlab_full_bg-.*\.wasm$/.test(p))).toBe(true);
    expect(cached).toContain('/courses/storage/ssdlab/labs/power.json');
    // A visit to the embed's page (docs/EMBEDDING.md) keeps its own copy, not the app's.
    const embed = await context.newPage();
    await embed.goto(`${app}embed.html?${SMALL_S3700}`);
    await expect(embed.getByTestId('embed')).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
    await embed.close();
  } finally {
    await stop(server.proc);
  }

  // The server is gone and the network cut: the page, the engine and a lab still load and run.
  await context.setOffline(true);
  await page.reload();
  expect(page.url()).toContain('seconds=20');
  await runShort(page);
  // A trace pasted offline: read by the full module, from the cache.
  await page.getByTestId('workload-file-input').fill('fio version 3 iolog\n100 /dev/sdb write 0 4096\n1100 /dev/sdb read 0 4096\n');
  await expect(page.getByTestId('import-report')).toContainText('Block trace pasted (fio-v3): 2 commands');
  await page.goto(`${app}?lab=power`);
  await expect(page.getByTestId('lab')).toHaveAttribute('data-lab', 'power');
  await expect(page.getByTestId('lab-setup-hint')).toContainText('Now press');
  await page.goto(`${app}embed.html?${SMALL_S3700}&seconds=5&autoplay=on`);
  await untilAttribute(page, page.getByTestId('embed'), 'data-state', 'finished');
  await context.setOffline(false);

  const elsewhere = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('blob:') && !u.startsWith('data:'));
  expect(elsewhere, 'requests to another origin').toEqual([]);
});

test('npm run classroom serves the build on the network, prints the addresses students type, and the app runs from it', async ({
  page,
}) => {
  const server = await start('node', ['scripts/classroom.mjs', '--no-build', '--port', '0'], /Ctrl\+C/);
  try {
    const printed = server.output();
    const port = printed.match(/on port (\d+)\./)![1];
    expect(printed).toContain(`On this computer: http://localhost:${port}/`);
    expect(printed).toMatch(
      new RegExp(`Students on this network open:\\n  http://\\d+\\.\\d+\\.\\d+\\.\\d+:${port}/|No network address found`),
    );
    expect(printed).toContain('Labs: cliff, spare, consistency, queue, power, raid, slc, predict');
    const origin = `http://127.0.0.1:${port}`;
    const index = await page.request.get(`${origin}/labs/index.json`);
    expect(index.headers()['content-type']).toBe('application/json; charset=utf-8');
    expect((await page.request.get(`${origin}/%2e%2e/package.json`)).status()).toBe(404);
    await page.addInitScript(() => localStorage.setItem('ssdlab.guide.done', '1'));
    await page.goto(`${origin}/?seconds=20&${SMALL_S3700}`);
    await runShort(page);
  } finally {
    await stop(server.proc);
  }
});
