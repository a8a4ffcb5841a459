// `npm run test:releases`: the tests that use the npm registry (exact versions only, so the day a new
// release is published changes nothing here): sweeps over other published client releases, and
// `npm install` of generated --format repro folders. Installed releases are kept in .cache/releases
// (ignored by git) and reused by later runs.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/releases/**/*.test.ts'],
    globalSetup: ['test/releases/global-setup.ts'],
    setupFiles: ['test/helpers/isolate-results.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // The registry tests skip themselves unless this is set (npm test excludes test/releases anyway).
    env: { MCP_SDK_PROBE_RELEASE_TESTS: '1' },
  },
});
