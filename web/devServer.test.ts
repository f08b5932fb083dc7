// `npm start` serves the app with Vite's dev server, built from vite.config.ts. Its first start
// scans the pages for the packages they import and pre-bundles them; a page input the scan cannot
// resolve makes it print "Failed to run dependency scan" and serve every package unbundled.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createServer } from 'vite';
import { afterAll, expect, test } from 'vitest';

const cacheDir = mkdtempSync(join(tmpdir(), 'ssdlab-vite-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

test('the dev server scans both pages and pre-bundles what they import, without an error', async () => {
  const logger = createLogger('silent');
  const errors: string[] = [];
  logger.error = (message) => void errors.push(message);
  logger.warn = (message) => void errors.push(message);
  const server = await createServer({
    configFile: 'vite.config.ts',
    cacheDir,
    customLogger: logger,
    // Port 0: the OS picks a free one, so a running `npm start` does not get in the way.
    server: { port: 0, strictPort: false },
  });
  try {
    await server.listen();
    const optimizer = server.environments.client.depsOptimizer;
    expect(optimizer).toBeDefined();
    await optimizer?.scanProcessing;
    expect(errors).toEqual([]);
    // d3 is imported by the charts of both pages (and by nothing the React plugin adds itself).
    expect(Object.keys(optimizer?.metadata.discovered ?? {})).toEqual(expect.arrayContaining(['d3', 'react-dom/client']));
  } finally {
    await server.close();
  }
}, 60_000);
