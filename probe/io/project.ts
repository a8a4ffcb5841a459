import { readFileSync } from 'node:fs';
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
