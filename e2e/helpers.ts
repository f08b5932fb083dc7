import { createRequire } from 'node:module';
import { expect, test, type Locator, type Page } from '@playwright/test';

/** Opens the app with a query string and waits until the engine worker has loaded the wasm. */
export async function openApp(page: Page, query = '', options: { guide?: boolean } = {}): Promise<void> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // The first-visit guide is its own test; elsewhere it is taken as read.
  if (!options.guide) await page.addInitScript(() => localStorage.setItem('ssdlab.guide.done', '1'));
  await page.goto(`./${query}`);
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  expect(errors, 'uncaught page errors').toEqual([]);
}

/** The number in a readout cell, e.g. "1,234 / 3,000 s" -> 1234. */
export async function readNumber(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).textContent()) ?? '';
  const m = text.replace(/,/g, '').match(/-?\d+(\.\d+)?/);
  return m ? Number(m[0]) : NaN;
}

export async function chartPoints(page: Page, testId = 'iops-chart'): Promise<number> {
  return Number((await page.getByTestId(testId).getAttribute('data-points')) ?? '0');
}

/**
 * How long a run may show no progress at all before a test calls it stuck. Generous on purpose:
 * on a machine busier than its cores, Chromium can go that long between two simulated seconds.
 */
export const STALL_MS = 120_000;

/**
 * Waits until `done()` holds for as long as the work keeps moving: `progress()` (the simulated
 * second, the runs' statuses, an experiment's point and second) must change at least every
 * `STALL_MS`. A slow machine makes the wait longer, not a failure: the time spent moving is added
 * to the test's timeout, so the test's own budget pays only for its other steps and a stall.
 */
export async function untilDone(what: string, done: () => Promise<boolean>, progress: () => Promise<unknown>): Promise<void> {
  const info = test.info();
  let seen = JSON.stringify(await progress());
  let since = Date.now();
  // Each stretch that ended in a change (or in done) was work moving: the test's budget grows by it.
  const credit = () => {
    if (info.timeout > 0) info.setTimeout(info.timeout + (Date.now() - since));
    since = Date.now();
  };
  while (!(await done())) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = JSON.stringify(await progress());
    if (now !== seen) {
      credit();
      seen = now;
    } else if (Date.now() - since > STALL_MS) {
      throw new Error(`${what}: no progress for ${STALL_MS / 1000} s (still at ${now})`);
    }
  }
  credit();
}

/**
 * What moves while the page works: the badge, the run's progress bar, every run's status in the
 * legend, an experiment's point and second, the charts' dots.
 */
export async function pageProgress(page: Page): Promise<string[]> {
  // One round trip: while a run keeps the page busy, each extra query waits its turn.
  return page.evaluate(() => {
    const byId = (id: string) => Array.from(document.querySelectorAll(`[data-testid="${id}"]`));
    return [
      ...byId('engine-state').map((el) => `${el.getAttribute('data-state')} ${el.getAttribute('data-starting')}`),
      ...['progress', 'run-list', 'exp-progress', 'exp-run-list'].flatMap((id) => byId(id).map((el) => el.textContent ?? '')),
      ...Array.from(document.querySelectorAll('[data-points]')).map((el) => el.getAttribute('data-points') ?? ''),
    ];
  });
}

/** Waits until the locator's attribute has this value, for as long as the page keeps working. */
export async function untilAttribute(page: Page, locator: Locator, name: string, value: string): Promise<void> {
  await untilDone(
    `waiting for ${name}="${value}"`,
    async () => (await locator.getAttribute(name)) === value,
    () => pageProgress(page),
  );
}

/** Waits until the locator's text contains this, for as long as the page keeps working. */
export async function untilText(page: Page, locator: Locator, text: RegExp | string): Promise<void> {
  const match = (t: string) => (typeof text === 'string' ? t.includes(text) : text.test(t));
  await untilDone(
    `waiting for the text ${text}`,
    async () => match((await locator.textContent()) ?? ''),
    () => pageProgress(page),
  );
}

/** Waits until the run's simulated time passes `second`, for as long as it keeps advancing. */
export async function untilSecond(page: Page, second: number): Promise<void> {
  await untilDone(
    `waiting for simulated second ${second}`,
    async () => (await readNumber(page, 'readout-time')) > second,
    () => pageProgress(page),
  );
}

/** Presses Start (or Restart) and waits until this run has finished. */
export async function runToEnd(page: Page): Promise<void> {
  // The previous run may have left the page 'finished', and a short run can start and finish
  // between two polls: watch the badge itself for this run's start.
  await page.getByTestId('engine-state').evaluate((el) => {
    const w = window as unknown as { __runStarted: boolean };
    w.__runStarted = false;
    new MutationObserver(() => {
      const state = el.getAttribute('data-state');
      if (el.getAttribute('data-starting') === 'true' || (state !== 'finished' && state !== 'idle')) {
        w.__runStarted = true;
      }
    }).observe(el, { attributes: true, attributeFilter: ['data-state', 'data-starting'] });
  });
  await page.getByTestId('start').click();
  await page.waitForFunction(() => (window as unknown as { __runStarted: boolean }).__runStarted);
  // While the drive is erased and preconditioned the badge still shows the last run's state.
  const badge = page.getByTestId('engine-state');
  await untilDone(
    'waiting for the run to finish',
    async () => (await badge.getAttribute('data-starting')) !== 'true' && (await badge.getAttribute('data-state')) === 'finished',
    () => pageProgress(page),
  );
}

/** The lowest IOPS of the chart's current window, from the stats line under it. */
export async function lowestIops(page: Page): Promise<number> {
  const text = (await page.getByTestId('run-stats').textContent()) ?? '';
  const m = text.replace(/,/g, '').match(/lowest (\d+)/);
  return m ? Number(m[1]) : NaN;
}

/** `cargo` arguments that run the native CLI as `npm test` built it (scripts/test.sh's `ci`
 * profile), so a test compares with the CLI without building it a second time. */
export const NATIVE_CLI = ['run', '--profile', 'ci', '-q', '-p', 'ssdlab-cli', '--'];

/**
 * A 16.5 GiB drive of the S3700's architecture (128 blocks per plane instead of 2048), as URL
 * overrides: it leaves the fresh-drive phase after ~15 s, so variants show within a short run.
 */
export const SMALL_S3700 = [
  'set.geometry.blocks_per_plane=128',
  'set.user_bytes=12500000768',
  'set.gc.start_free_blocks=6',
  'set.gc.boost_below_free_blocks=3',
  'set.gc.boost_until_free_blocks=5',
].join('&');

/** The P3700's architecture at 1/16 of its size (32 GiB of NAND), as URL overrides. */
export const SMALL_P3700 = ['drive=p3700-400', 'set.geometry.blocks_per_plane=128', 'set.user_bytes=25000001536'].join('&');

/**
 * The 980 Pro's architecture with 1/16 of its flash, 50 GB for the host and a 5.7 GB most SLC cache
 * (a twentieth of its 1 TB and 114 GB), as URL overrides: a whole-drive fill takes ~30 simulated seconds.
 */
export const SMALL_980PRO = [
  'drive=980pro-1000',
  'set.geometry.blocks_per_plane=114',
  'set.user_bytes=50000000000',
  'set.slc_cache.dynamic_max_bytes=5700000000',
].join('&');

/** Waits until every run on the page has finished (each run's line in the legend says so). */
export async function allRunsDone(page: Page, count: number): Promise<void> {
  const lines = Array.from({ length: count }, (_, i) => page.getByTestId(`run-${i + 1}`));
  await untilDone(
    `waiting for ${count} run(s) to finish`,
    async () => (await Promise.all(lines.map(async (l) => /done|fio log/.test((await l.textContent()) ?? '')))).every(Boolean),
    () => pageProgress(page),
  );
}

/** Waits until the experiments on the page have finished, for as long as they progress. */
export async function untilExperimentFinished(page: Page): Promise<void> {
  await untilDone(
    'waiting for the experiment to finish',
    async () => (await page.getByTestId('exp-progress').getAttribute('data-state')) === 'finished',
    () => pageProgress(page),
  );
}

/** Presses Tab until the element with this test id has focus (keyboard only), at most 150 times. */
export async function tabTo(page: Page, testId: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    if (at === testId) return;
  }
  throw new Error(`Tab never reached ${testId}`);
}

/** Whether the focused element shows a focus indicator. */
export async function focusVisible(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return false;
    const cs = getComputedStyle(el);
    return (cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2) || cs.boxShadow !== 'none';
  });
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** axe-core's violations on the page as it is, one line each with the elements concerned. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, opts: object): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  return result.violations.map(
    (v) =>
      `${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 4)
        .join('; ')})`,
  );
}
