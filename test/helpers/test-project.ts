// A temporary stand-in for the project's results/ folder, one per test file: the in-process CLI reads
// its recorded results from copies here and writes its default outputs here (see isolate-results.ts),
// so no test can write into the checkout's results/.
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.ts';

/** A folder laid out like the project (results/ inside); the in-process CLI's default working folder. */
export const TEST_PROJECT = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-project-'));
export const TEST_RESULTS = join(TEST_PROJECT, 'results');
mkdirSync(TEST_RESULTS);
for (const name of ['recorded.json', 'recorded-extended.json', 'sweep-baseline.json', 'explore-known.json']) {
  copyFileSync(join(ROOT, 'results', name), join(TEST_RESULTS, name));
}
