// Terminal lines name a file so it can be pasted (pathToPaste: relative inside the working folder,
// absolute outside it); evidence files keep the file name only (displayPath). "Compared with r2b-old.json"
// for `--baseline /tmp/…/r2b-old.json` named a file the reader could not find (issue 21 item 6).
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECORDED } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

let dir: string;
let work: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-terminal-compared-path-'));
  work = join(dir, 'work');
  mkdirSync(join(work, 'kept'), { recursive: true });
});

describe('"Compared with" names the file as a path to paste', () => {
  it('sweep: a baseline outside the working folder by its absolute path, one inside by its relative path', async () => {
    const outside = join(dir, 'r2b-old.json');
    const args = ['sweep', '--v1', '1.32.2', '--out', join(dir, 'sweep.json')];
    const recorded = await runMain([...args, '--baseline', outside, '--update'], { cwd: work });
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toContain(`Sweep baseline updated: ${outside} (--update)`);
    const compared = await runMain([...args, '--baseline', outside], { cwd: work });
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stdout).toContain(`Compared with ${outside}: 1 matched release(s)`);

    copyFileSync(outside, join(work, 'kept', 'base.json'));
    const inside = await runMain([...args, '--baseline', join(work, 'kept', 'base.json')], { cwd: work });
    expect(inside.stdout).toContain('Compared with kept/base.json: 1 matched release(s)');
  });

  it('audit: a recorded result outside the working folder by its absolute path', async () => {
    const outside = join(dir, 'recorded-copy.json');
    copyFileSync(RECORDED, outside);
    const run = await runMain(['--recorded', outside, '--out', join(dir, 'latest.json')], { cwd: work });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Compared with ${outside}: 13 matched`);
  });
});
