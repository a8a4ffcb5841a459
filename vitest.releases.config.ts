import { defineConfig } from 'vitest/config';

// `npm run test:releases`: tests that use the real npm registry (slow, online), kept out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/releases/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // The registry tests skip themselves unless this is set, so the default config can include them harmlessly.
    env: { MCP_SDK_PROBE_RELEASE_TESTS: '1' },
  },
});
