import { cpus, loadavg } from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations, SMALL_S3700, untilAttribute, untilDone } from './helpers';
import { APP_ORIGIN, HOST_ORIGIN, THIRD_ORIGIN } from './ports';

// The embed, framed by pages of other origins (e2e/hosts, served by scripts/static-server.mjs):
// a host page drives it through the message API (docs/EMBEDDING.md) and receives its events;
// pages and frames of origins it does not allow are ignored.

interface Received {
  origin: string;
  data: { ssdlab: number; id: string | null; type: string; [key: string]: unknown };
}

const embedSrc = (query: string) => `${APP_ORIGIN}/embed.html?${SMALL_S3700}&${query}`;
const events = (page: Page, id: string | null, type?: string): Promise<Received[]> =>
  page.evaluate(([i, t]) => (window as unknown as { events(id: string | null, type?: string): Received[] }).events(i, t), [
    id,
    type,
  ] as const);
const send = (page: Page, name: string, message: unknown) =>
  page.evaluate(([n, m]) => (window as unknown as { send(name: string, m: unknown): void }).send(n, m), [name, message] as const);
const addFrame = (page: Page, src: string, name: string) =>
  page.evaluate(([s, n]) => (window as unknown as { addFrame(src: string, name: string): Promise<void> }).addFrame(s, n), [
    src,
    name,
  ] as const);

/**
 * Waits for the next event of a type from an embed (after `after` of them were seen), for as
 * long as the embed keeps sending events (its run's samples and progress).
 */
async function nextEvent(page: Page, id: string | null, type: string, after = 0): Promise<Received> {
  const what = `waiting for ${type} event ${after + 1} from embed ${id}`;
  await untilDone(
    what,
    async () => (await events(page, id, type)).length > after,
    async () => (await events(page, id)).length,
  );
  return (await events(page, id, type))[after];
}
const lastState = async (page: Page, id: string) => (await events(page, id, 'state')).at(-1)?.data.state;
/** Waits until an embed's run reaches a state, for as long as it keeps sending events. */
const untilState = (page: Page, id: string, state: string) =>
  untilDone(
    `waiting for embed ${id} to be ${state}`,
    async () => (await lastState(page, id)) === state,
    async () => (await events(page, id)).length,
  );

test('a page of another origin drives the embed by message and receives its samples', async ({ page }) => {
  await page.goto(`${HOST_ORIGIN}/host.html`);
  await addFrame(page, embedSrc(`seconds=5&controls=locked&theme=blue&origin=${encodeURIComponent(HOST_ORIGIN)}&id=a`), 'a');
  const frame = page.frameLocator('iframe[name="a"]');

  // Ready, with the setup as URL keys; the bad key is named on screen and by an error event.
  const ready = await nextEvent(page, 'a', 'ready');
  expect(ready.origin).toBe(APP_ORIGIN);
  expect(ready.data).toMatchObject({ ssdlab: 1, id: 'a', state: 'idle' });
  expect(ready.data.setup).toContain('seconds=5');
  await expect(frame.getByTestId('url-errors')).toContainText('theme: must be one of system, light, dark (got "blue")');
  expect((await events(page, 'a', 'error')).map((e) => e.data)).toContainEqual(
    expect.objectContaining({ field: 'theme', message: 'must be one of system, light, dark (got "blue")' }),
  );
  // Locked: the reader sees how far the run is, but has no buttons (the page runs it).
  await expect(frame.getByTestId('start')).toBeHidden();

  // Start: a sample for every simulated second, progress, and the state as it changes.
  await send(page, 'a', { ssdlab: 1, type: 'start' });
  await untilState(page, 'a', 'finished');
  const samples = (await events(page, 'a', 'sample')).map((e) => e.data);
  expect(samples.map((s) => s.second)).toEqual([0, 1, 2, 3, 4]);
  for (const s of samples) {
    const values = s.values as Record<string, number>;
    expect(s.run).toBe(1);
    expect(values.iops).toBeGreaterThan(1000);
    expect(values.write_amplification).toBeGreaterThan(0);
  }
  expect((await events(page, 'a', 'progress')).at(-1)?.data).toMatchObject({ run: 1, done: 5, total: 5, unit: 'second' });
  const states = (await events(page, 'a', 'state')).map((e) => e.data.state);
  expect(states).toEqual(expect.arrayContaining(['starting', 'running', 'finished']));
  await expect(frame.getByTestId('iops-chart')).toHaveAttribute('data-points', '5');

  // A longer run: pause holds it, step adds exactly one second, resume would go on.
  await send(page, 'a', { ssdlab: 1, type: 'config', settings: { seconds: 600 } });
  await expect.poll(() => lastState(page, 'a')).toBe('idle');
  const before = (await events(page, 'a', 'sample')).length;
  await send(page, 'a', { ssdlab: 1, type: 'start' });
  await nextEvent(page, 'a', 'sample', before + 3);
  await send(page, 'a', { ssdlab: 1, type: 'pause' });
  await expect.poll(() => lastState(page, 'a')).toBe('paused');
  const held = (await events(page, 'a', 'sample')).length;
  await page.waitForTimeout(700);
  expect((await events(page, 'a', 'sample')).length).toBe(held);
  await send(page, 'a', { ssdlab: 1, type: 'step' });
  const stepped = await nextEvent(page, 'a', 'sample', held);
  expect(stepped.data.second).toBe(held - before);
  await page.waitForTimeout(500);
  expect((await events(page, 'a', 'sample')).length).toBe(held + 1);
  expect(await lastState(page, 'a')).toBe('paused');

  // Seek shows the run up to a second; null shows all of it again.
  await send(page, 'a', { ssdlab: 1, type: 'seek', second: 2 });
  await expect(frame.getByTestId('embed')).toHaveAttribute('data-until', '2');
  await expect(frame.getByTestId('iops-chart')).toHaveAttribute('data-points', '3');
  await send(page, 'a', { ssdlab: 1, type: 'seek', second: null });
  await expect(frame.getByTestId('iops-chart')).toHaveAttribute('data-points', String(held + 1 - before));

  await send(page, 'a', { ssdlab: 1, type: 'reset' });
  await expect.poll(() => lastState(page, 'a')).toBe('idle');
  await expect(frame.getByTestId('iops-chart')).toHaveAttribute('data-points', '0');

  // Malformed and unknown messages are answered with an error naming what is wrong.
  const errorsBefore = (await events(page, 'a', 'error')).length;
  const bad: [unknown, string][] = [
    ['start', 'message'],
    [{ type: 'start' }, 'ssdlab'],
    [{ ssdlab: 2, type: 'start' }, 'ssdlab'],
    [{ ssdlab: 1, type: 'warp', ref: 'w1' }, 'type'],
    [{ ssdlab: 1, type: 'seek', seconds: 3 }, 'seconds'],
    [{ ssdlab: 1, type: 'seek', second: 601 }, 'second'],
    [{ ssdlab: 1, type: 'config', settings: { drive: 'x25-m-80' } }, 'drive'],
    [{ ssdlab: 1, type: 'config', settings: { span: 'lots' } }, 'span'],
    [{ ssdlab: 1, type: 'config', settings: { origin: 'https://evil.example' } }, 'origin'],
  ];
  for (const [message] of bad) await send(page, 'a', message);
  await expect.poll(async () => (await events(page, 'a', 'error')).length).toBe(errorsBefore + bad.length);
  const errors = (await events(page, 'a', 'error')).slice(errorsBefore).map((e) => e.data);
  expect(errors.map((e) => e.field)).toEqual(bad.map(([, field]) => field));
  expect(errors[3]).toMatchObject({
    ref: 'w1',
    message: 'must be one of hello, config, start, pause, resume, step, reset, seek (got "warp")',
  });
  expect(errors[5].message).toContain("the run's length");
  expect(errors[6].message).toContain('unknown drive "x25-m-80"');
  // None of it changed the setup or stopped the embed.
  await send(page, 'a', { ssdlab: 1, type: 'hello' });
  const again = await nextEvent(page, 'a', 'ready', 1);
  expect(again.data.setup).toContain('seconds=600');
  expect(again.data.state).toBe('idle');

  // The embed says how tall it is, so the page can size the frame.
  const heights = (await events(page, 'a', 'height')).map((e) => e.data.height as number);
  expect(heights.length).toBeGreaterThan(0);
  expect(heights.at(-1)).toBeGreaterThan(300);
  expect(heights.at(-1)).toBeLessThan(1500);
});

test('messages from origins the embed does not allow are ignored', async ({ page, browser }) => {
  // A third-origin frame beside the embed tries to drive it.
  await page.goto(`${HOST_ORIGIN}/host.html`);
  await addFrame(page, embedSrc(`seconds=5&origin=${encodeURIComponent(HOST_ORIGIN)}&id=b`), 'app');
  await nextEvent(page, 'b', 'ready');
  await addFrame(page, `${THIRD_ORIGIN}/third.html?target=app`, 'third');
  const third = page.frame({ name: 'third' })!;
  await third.evaluate(() => (window as unknown as { tryToDrive(): void }).tryToDrive());
  expect(await third.evaluate(() => (window as unknown as { tried: number }).tried)).toBe(1);
  await page.waitForTimeout(1500);
  await expect(page.frameLocator('iframe[name="app"]').getByTestId('embed')).toHaveAttribute('data-state', 'idle');
  expect(await events(page, 'b', 'error')).toEqual([]);
  expect((await events(page, 'b', 'state')).map((e) => e.data.state)).not.toContain('starting');

  // A page whose own origin the embed does not allow hears nothing, and cannot start it.
  const other = await browser.newPage();
  await other.goto(`${THIRD_ORIGIN}/host.html`);
  await addFrame(other, embedSrc(`seconds=5&origin=${encodeURIComponent(HOST_ORIGIN)}&id=c`), 'c');
  const embed = other.frameLocator('iframe[name="c"]').getByTestId('embed');
  await expect(embed).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  for (const message of [
    { ssdlab: 1, type: 'hello' },
    { ssdlab: 1, type: 'start' },
    { ssdlab: 1, type: 'warp' },
  ])
    await send(other, 'c', message);
  await other.waitForTimeout(1500);
  await expect(embed).toHaveAttribute('data-state', 'idle');
  expect(await other.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([]);
  await other.close();
});

/** A Chrome trace event (the fields read here). */
interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { message?: string } };
}

test('four embeds on a page: each runs only while in view, and no main-thread task reaches 50 ms while scrolling', async ({ page }) => {
  // Every frame (the embeds too) records its long tasks from its first moment.
  await page.addInitScript(() => {
    if (window === window.top) return;
    const w = window as unknown as { embedLongTasks: number[] };
    w.embedLongTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.embedLongTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${HOST_ORIGIN}/four.html?app=${encodeURIComponent(APP_ORIGIN)}&setup=${encodeURIComponent(SMALL_S3700)}`);
  const embed = (i: number) => page.frameLocator(`iframe[name="chart-${i}"]`).getByTestId('embed');
  // The article has loaded: the chart in view runs, the next one has its engine.
  await expect(embed(1)).toHaveAttribute('data-state', 'running', { timeout: 30_000 });
  await expect(embed(2)).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });

  // A trace of the scrolling gives each main-thread task's CPU time beside its wall time: on a
  // machine busier than its cores, a task can wait for a core longer than it works.
  const cdp = await page.context().newCDPSession(page);
  const trace: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => trace.push(...(e.value as unknown as TraceEvent[])));
  const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'toplevel,devtools.timeline', transferMode: 'ReportEvents' });
  const scrollFrom = await page.evaluate(() => {
    console.timeStamp('scroll-start');
    return performance.now();
  });
  await page.mouse.move(640, 450);
  const bottom = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  const steps = Math.ceil(bottom / 150);
  for (const dy of [150, -150]) {
    for (let i = 0; i < steps; i++) {
      await page.mouse.wheel(0, dy);
      await page.waitForTimeout(100);
    }
  }
  const scrollMs = (await page.evaluate(() => performance.now())) - scrollFrom;
  await cdp.send('Tracing.end');
  await traced;
  // Back at the top, the first chart runs again; the others wait out of view.
  await expect(embed(1)).toHaveAttribute('data-state', 'running');
  for (const i of [2, 3, 4]) await expect(embed(i)).toHaveAttribute('data-visible', 'false');

  // What the page's own PerformanceObserver saw (host, and frames sharing its thread), and what
  // each embed's saw since it loaded.
  const host = await page.evaluate(
    (from) =>
      (window as unknown as { longTasks: { start: number; duration: number; name: string }[] }).longTasks.filter((t) => t.start >= from),
    scrollFrom,
  );
  const inEmbeds: number[][] = [];
  for (const f of page.frames()) {
    if (f !== page.mainFrame())
      inEmbeds.push(await f.evaluate(() => (window as unknown as { embedLongTasks?: number[] }).embedLongTasks ?? []));
  }
  // Every task on every renderer's main thread while scrolling, with its wall and CPU time.
  const start = trace.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === 'scroll-start')!;
  const end = start.ts + scrollMs * 1000;
  const mains = new Set(trace.filter((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = trace.filter(
    (e) => e.name === 'ThreadControllerImpl::RunTask' && mains.has(`${e.pid}:${e.tid}`) && e.ts >= start.ts && e.ts <= end,
  );
  const ms = (us = 0) => Math.round(us / 100) / 10;
  const maxCpu = Math.max(0, ...tasks.map((t) => t.tdur ?? 0));
  // The host's long tasks, each with the CPU time of its task in the trace.
  const described = host.map((t) => {
    const at = start.ts + (t.start - scrollFrom) * 1000;
    const match = tasks.filter((e) => e.pid === start.pid && Math.abs(e.ts - at) < 2000).sort((x, y) => (y.dur ?? 0) - (x.dur ?? 0))[0];
    return `${Math.round(t.duration)} ms (${t.name}${match ? `; in the trace ${ms(match.dur)} ms, ${ms(match.tdur)} ms of CPU` : ''})`;
  });
  const states = await page.evaluate(() => (window as unknown as { states: Record<string, string[]> }).states);
  console.log(
    `four embeds, ${Math.round(scrollMs)} ms of scrolling, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores: ` +
      `${tasks.length} main-thread tasks, the longest ${ms(Math.max(0, ...tasks.map((t) => t.dur ?? 0)))} ms wall, ` +
      `the most CPU ${ms(maxCpu)} ms; the host page's PerformanceObserver saw ${host.length} long tasks` +
      `${described.length ? `: ${described.join(', ')}` : ''}; the embeds' observers saw, since each loaded: ` +
      `${inEmbeds.map((t) => (t.length ? `${t.map(Math.round).join('/')} ms` : 'none')).join('; ')}`,
  );
  // Each chart ran while in view and paused when scrolled away (from its state events).
  for (const id of ['chart-1', 'chart-2', 'chart-3', 'chart-4']) {
    expect(states[id], id).toContain('running');
    expect(states[id], id).toContain('paused (out of view)');
  }
  // No task of the page or its embeds did 50 ms of work on the main thread.
  expect(tasks.length).toBeGreaterThan(100);
  expect(maxCpu).toBeLessThan(50_000);
  // A long task the observer saw is the machine's when its task worked less than 50 ms; on a
  // machine with a core to spare there are none.
  if (loadavg()[0] < cpus().length) expect(described).toEqual([]);
});

test('the page writes the embed code for its setup, and the code embeds that setup', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(() => localStorage.setItem('ssdlab.guide.done', '1'));
  await page.goto(`./?drive=p400e-400&span=0.8&seconds=60&view=steady-linear&compare=${encodeURIComponent('seconds=60')}`);
  await expect(page.getByTestId('engine-state')).toHaveAttribute('data-state', 'idle', { timeout: 30_000 });
  await page.getByTestId('section-embed').locator('summary').click();
  await page.getByTestId('embed-controls').selectOption('locked');
  await page.getByTestId('embed-part-explain').check();
  await page.getByTestId('embed-origin').fill('blog.example');
  await expect(page.getByTestId('embed-origin-error')).toContainText('must be a web origin like https://blog.example');
  await page.getByTestId('embed-origin').fill(HOST_ORIGIN);
  await expect(page.getByTestId('embed-origin-error')).toHaveCount(0);
  await page.getByTestId('copy-embed').click();
  await expect(page.getByText('Embed code copied')).toBeVisible();
  const code = await page.evaluate(() => navigator.clipboard.readText());
  expect(code).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\.html\?[^"]+"/);
  expect(code).toContain('title="SSD Lab live simulation: Micron P400e 400GB, 42% spare vs S3700 200GB, 29% spare"');
  expect(code).toContain('loading="lazy"');
  expect(code).toMatch(/height="\d{3}"/);

  // The code, pasted into a page of another origin, shows that setup and answers that page.
  const src = code.match(/src="([^"]+)"/)![1].replace(/&amp;/g, '&');
  expect(new URL(src).searchParams.getAll('origin')).toEqual([HOST_ORIGIN]);
  await page.goto(`${HOST_ORIGIN}/host.html`);
  await page.evaluate((html) => document.body.insertAdjacentHTML('beforeend', html.replace('<iframe ', '<iframe name="pasted" ')), code);
  const ready = await nextEvent(page, null, 'ready');
  expect(ready.data.setup).toContain('drive=p400e-400');
  const frame = page.frameLocator('iframe[name="pasted"]');
  await expect(frame.getByTestId('embed-title')).toHaveText('Micron P400e 400GB, 42% spare vs S3700 200GB, 29% spare');
  await expect(frame.getByTestId('start')).toBeHidden();
  await expect(frame.getByTestId('iops-chart')).toHaveAttribute('data-view', 'steady-linear');
  await expect(frame.locator('.view-explain')).toContainText('linear axis');
});

test('the sample article drives its charts as the reader scrolls, from a sub-path', async ({ page }) => {
  await page.goto('./articles/consistency.html');
  const s3700 = page.frameLocator('#s3700').getByTestId('embed');
  const p400e = page.frameLocator('ssd-lab#p400e iframe').getByTestId('embed');
  await expect(s3700).toHaveAttribute('data-state', /starting|running/, { timeout: 30_000 });
  /** Scrolls a step to the middle of the window (again, while frames above it settle their height). */
  const readStep = async (target: string, second: string, chart: typeof s3700) => {
    const step = page.locator(`.step[data-target="${target}"][data-second="${second}"]`);
    await expect(async () => {
      await step.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await expect(step).toHaveClass(/current/, { timeout: 500 });
      await expect(chart).toHaveAttribute('data-until', second, { timeout: 2000 });
    }).toPass({ timeout: 30_000 });
  };

  // Each step shows the S3700's run up to its second; the last shows all of it.
  for (const second of ['240', '600', '1400']) {
    await readStep('s3700', second, s3700);
    await expect(page.frameLocator('#s3700').getByTestId('embed-until')).toContainText(`up to ${Number(second).toLocaleString('en-US')} s`);
  }
  await readStep('s3700', '', s3700);

  // The <ssd-lab> element: seek through its method, and a frame as tall as its content.
  await readStep('p400e', '650', p400e);
  // The frame's inner height follows the content's (a seek adds a line under the chart).
  const frameHeight = () => page.locator('ssd-lab#p400e iframe').evaluate((f) => f.clientHeight);
  const contentHeight = () => p400e.evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
  await expect.poll(async () => (await frameHeight()) - (await contentHeight())).toBe(0);
  // The S3700 is out of view now: its run waits.
  await expect(s3700).toHaveAttribute('data-visible', 'false');
  await expect(s3700).toHaveAttribute('data-state', 'paused');
});

test('screenshots of an embed comparing two runs, 1280 and 390 px, light and dark', async ({ page }) => {
  await page.goto(`${HOST_ORIGIN}/host.html`);
  const second = encodeURIComponent(`${SMALL_S3700}&seconds=120&span=0.75`);
  await addFrame(
    page,
    embedSrc(`seconds=120&compare=${second}&show=setup,chart,stats,explain&origin=${encodeURIComponent(HOST_ORIGIN)}&id=shot`),
    'shot',
  );
  await nextEvent(page, 'shot', 'ready');
  await send(page, 'shot', { ssdlab: 1, type: 'start' });
  await untilState(page, 'shot', 'finished');
  await send(page, 'shot', { ssdlab: 1, type: 'seek', second: 90 });
  const frame = page.frameLocator('iframe[name="shot"]');
  await expect(frame.getByTestId('embed-until')).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await frame.getByTestId('embed').evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.locator('iframe[name="shot"]').screenshot({ path: `e2e/screenshots/embed-${width}-${scheme}.png` });
    }
  }
  // With reduced motion nothing in the embed animates or transitions.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const moving = await frame
    .getByTestId('embed')
    .evaluate(
      (root) =>
        [root, ...root.querySelectorAll('*')]
          .map((el) => getComputedStyle(el))
          .filter((cs) => cs.animationName !== 'none' || cs.transitionDuration.split(',').some((d) => parseFloat(d) > 0)).length,
    );
  expect(moving).toBe(0);
});

test('no axe violations in an embed and in "Embed this chart", light and dark', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`./embed.html?${SMALL_S3700}&seconds=30&show=setup,chart,stats,explain,panels&autoplay=on&colour=red`);
  await untilAttribute(page, page.getByTestId('embed'), 'data-state', 'finished');
  await expect(page.getByTestId('url-errors')).toContainText('colour: unknown setting');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `embed, ${scheme}`).toEqual([]);
  }
  await page.addInitScript(() => localStorage.setItem('ssdlab.guide.done', '1'));
  await page.goto('./?seconds=30');
  await page.getByTestId('section-embed').locator('summary').click();
  await page.getByTestId('embed-origin').fill('*');
  await expect(page.getByTestId('embed-origin-error')).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await axeViolations(page), `embed this chart, ${scheme}`).toEqual([]);
  }
});

test('an embed’s panels know a trace model: a request size the model ignores brings no read-modify-write panel', async ({ page }) => {
  // Issue 18's drift: the embed chose its panels as if a trace model took the design's request size.
  const rmwPanel = async (search: string) => {
    await page.goto(`./embed.html?${search}&show=chart,panels`);
    await untilAttribute(page, page.getByTestId('embed'), 'data-state', 'idle');
    return page.getByTestId('panel-toggle-rmw');
  };
  await expect(await rmwPanel('workload=swingbench&block=6144')).toHaveAttribute('aria-pressed', 'false');
  // The same request size on a synthetic workload does write part of a map unit.
  await expect(await rmwPanel('workload=random-write&block=6144')).toHaveAttribute('aria-pressed', 'true');
});

test('an embed shows the published figures when asked: the run’s verdict, a line on the chart, the other figures and why', async ({ page }) => {
  // The article's own run of a figure: the full-size S3700 200GB, 4 KB random reads at QD1 for 5 s.
  await page.goto('./embed.html?drive=s3700-200&workload=random-read&qd=1&seconds=5&show=chart,evidence&autoplay=on');
  await untilAttribute(page, page.getByTestId('embed'), 'data-state', 'finished');
  const evidence = page.getByTestId('evidence');
  const figure = evidence.getByTestId('evidence-figure').filter({ hasText: '4 KB random read QD1' });
  await expect(figure).toContainText(/6,?600 ± 15 %.*this run: [\d,]+ IOPS, (within|outside) the target/);
  await expect(figure).toHaveAttribute('data-holds', /true|false/);
  await expect(page.getByTestId('iops-chart').getByTestId('figure-mark').first()).toHaveAttribute('data-lo', '6600');
  // The drive's figures of other runs, each with the conditions that differ; no link out of the embed.
  await evidence.getByTestId('evidence-other').locator('summary').click();
  await expect(evidence.getByTestId('evidence-not-comparable').first()).toContainText('not comparable with this run');
  await expect(evidence.getByTestId('evidence-how-close')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
  // Without `evidence` in show, nothing of it (and no engine loaded for it).
  await page.goto('./embed.html?drive=s3700-200&workload=random-read&qd=1&seconds=5&show=chart&autoplay=on');
  await untilAttribute(page, page.getByTestId('embed'), 'data-state', 'finished');
  await expect(page.getByTestId('evidence')).toHaveCount(0);
  await expect(page.getByTestId('iops-chart')).toHaveAttribute('data-figures', '0');
});
