import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HARNESS } from '../core/harness.ts';

/** The nearest folder upward holding this project's package.json: from probe/ or from dist/. */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === HARNESS.name) return dir;
    } catch {
      // not here; keep walking up
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the ${HARNESS.name} project folder above ${start}`);
  }
}

export const PROJECT_ROOT = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/**
 * Whether this is the project's checkout (its TypeScript sources beside dist/) rather than an installed
 * package, which ships dist/ alone and may be read-only. An installed package never writes into its own
 * folder: its default outputs and release cache go to the working folder (INSTALLED_RESULTS_FOLDER).
 */
export const RUNS_FROM_CHECKOUT = existsSync(join(PROJECT_ROOT, 'probe', 'commands', 'main.ts'));

/** Where an installed package writes its default outputs and release cache, under the working folder. */
export const INSTALLED_RESULTS_FOLDER = 'mcp-sdk-probe-results';
