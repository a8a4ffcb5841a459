import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'probe/**/*.test.ts'],
    // Tests that install other client releases from the npm registry: `npm run test:releases`
    // (vitest.releases.config.ts). This suite runs offline.
    exclude: ['test/releases/**', '**/node_modules/**'],
    // Builds dist/ and runs the pinned clients' matrices once for every file (see the file).
    globalSetup: ['test/global-setup.ts'],
    // The in-process CLI's default output paths point into a temporary folder, never results/.
    setupFiles: ['test/helpers/isolate-results.ts'],
    // Files share a worker's module graph instead of loading probe/ and the SDKs again each (a third of
    // the suite's CPU time). No test relies on fresh module state: outputs go to per-file temporary
    // folders and environment stubs are undone.
    isolate: false,
    testTimeout: 30_000,
  },
});
