// A sweep's evidence (Markdown, HTML) leaves the machine: a release given as a path of this machine
// (`--v1 /home/me/sdk`, a tarball) is named by its file name only, as the audit's and replay's evidence
// already do (probe/render/markdown.ts); issue 21 item 4, the evidence names a build by its integrity.
// The release is the project's own installed v1 client as a package folder, so this runs offline.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

const V1_FOLDER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-evidence-paths-'));
});

describe('sweep evidence with a release given as an absolute path', () => {
  for (const format of ['markdown', 'html'] as const) {
    it(`--format ${format} names the folder by its file name, not its path`, async () => {
      const out = join(dir, `sweep.${format}`);
      const run = await runMain(['sweep', '--v1', V1_FOLDER, '--case', 'v1/warm/conforming-success', '--format', format, '--out', out, '--baseline', join(dir, 'none.json')]);
      expect(run.code, run.stderr).toBe(0);
      const page = readFileSync(out, 'utf8');
      expect(page).not.toContain(V1_FOLDER);
      expect(page).not.toContain(ROOT);
      expect(page).toContain('--v1 sdk');
    });
  }
});
