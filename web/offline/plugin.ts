// Writes the service worker (web/offline/sw.js) into each production build, with the list of the
// build's files to cache and a version hashed from their contents.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

export const SERVICE_WORKER = 'sw.js';

/** Every file under `dir`, as URL paths relative to it. */
function filesUnder(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path, root) : [relative(root, path).split(sep).join('/')];
  });
}

export function offline(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'ssdlab-offline',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      // Not the worker itself, nor copies a host may add beside the files (compressed, source maps).
      const files = filesUnder(outDir)
        .filter((f) => f !== SERVICE_WORKER && !/\.(gz|br|map)$/.test(f))
        .sort();
      const hash = createHash('sha256');
      for (const f of files)
        hash
          .update(f)
          .update('\0')
          .update(readFileSync(join(outDir, f)));
      // The page is cached under its folder's address ('./'), which every link to it starts with.
      const cached = ['./', ...files.filter((f) => f !== 'index.html').map((f) => f.split('/').map(encodeURIComponent).join('/'))];
      const template = readFileSync(resolve(config.root, 'offline', SERVICE_WORKER), 'utf8');
      const worker = template
        .replace("'__VERSION__'", JSON.stringify(hash.digest('hex').slice(0, 16)))
        .replace('__FILES__', JSON.stringify(cached));
      writeFileSync(join(outDir, SERVICE_WORKER), worker);
    },
  };
}
