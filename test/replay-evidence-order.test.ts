// The replay evidence's Reproduce section introduces each command's inputs before the command: the cases
// left out of the standalone block are reproduced by `replay capture.json --case … --format repro`, so
// that hint comes after "Save the replayed tool and result as `capture.json`" and the harness it needs,
// not before them (issue 21 item 6). A real replay of the shipped capture on every installed client line:
// more cases than the block holds, so some are left out.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

describe('replay --format markdown: the Reproduce section in reading order', () => {
  it('says to save capture.json, and how to get the harness, before any command that uses them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-replay-evidence-order-'));
    const out = join(dir, 'replay.md');
    const run = await runMain(['replay', join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json'), '--format', 'markdown', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const page = readFileSync(out, 'utf8');
    const section = page.slice(page.indexOf('## Reproduce'));
    const leftOut = section.indexOf('Left out of the block');
    expect(leftOut).toBeGreaterThan(0);
    const saved = section.indexOf('Save the replayed tool and result as `capture.json`');
    const harness = section.indexOf('The harness is ');
    // Every command naming capture.json or the harness's command comes after both are introduced.
    const commands = [...section.matchAll(/^node_modules\/\.bin\/mcp-sdk-probe .*$/gm)];
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      expect(command.index, command[0]).toBeGreaterThan(saved);
      expect(command.index, command[0]).toBeGreaterThan(harness);
    }
    expect(section).toContain('node_modules/.bin/mcp-sdk-probe replay capture.json --case ');
  });
});
