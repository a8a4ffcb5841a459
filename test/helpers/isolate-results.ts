// A setup file (vitest.config.ts setupFiles): in every test file, the CLI's default result paths point
// into a temporary copy of results/ (test-project.ts). Some outputs have no flag to move them (replay
// --format markdown --out FILE still writes its result JSON to the default results/replay-latest.json),
// and a test that forgets --out must not touch the checkout either.
import { join } from 'node:path';
import { vi } from 'vitest';

vi.mock('../../probe/commands/io.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../probe/commands/io.ts')>();
  const { TEST_RESULTS } = await import('./test-project.ts');
  return {
    ...actual,
    RESULTS_DIR: TEST_RESULTS,
    DEFAULT_RECORDED: join(TEST_RESULTS, 'recorded.json'),
    DEFAULT_RECORDED_EXTENDED: join(TEST_RESULTS, 'recorded-extended.json'),
    DEFAULT_OUT: join(TEST_RESULTS, 'latest.json'),
    DEFAULT_SWEEP_OUT: join(TEST_RESULTS, 'sweep-latest.json'),
    DEFAULT_SWEEP_BASELINE: join(TEST_RESULTS, 'sweep-baseline.json'),
    DEFAULT_EXPLORE_KNOWN: join(TEST_RESULTS, 'explore-known.json'),
    DEFAULT_EXPLORE_OUT: join(TEST_RESULTS, 'explore'),
  };
});
