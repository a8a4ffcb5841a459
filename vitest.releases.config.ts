// `npm run test:releases`: the tests that install other published client releases from the npm
// registry (exact versions only, so the day a new release is published changes nothing here).
// Installed releases are kept in .cache/releases (ignored by git) and reused by later runs.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/releases/**/*.test.ts'],
    globalSetup: ['test/releases/global-setup.ts'],
    setupFiles: ['test/helpers/isolate-results.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
