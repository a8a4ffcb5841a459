import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'probe/**/*.test.ts'],
    // The CLI tests spawn the shipped command; build its bundle once before any of them run.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
  },
});
