import { defineConfig } from 'vitest/config';

// Unit tests cover the pure logic of the web app (scales, columns, protocol, URL state, the
// worker's run loop against a fake engine). They run in Node: nothing here needs a DOM.
export default defineConfig({
  test: {
    include: ['web/src/**/*.test.ts', 'web/*.test.ts'],
    environment: 'node',
  },
});
