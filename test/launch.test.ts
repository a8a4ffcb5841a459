// The shipped command (probe/bin/launch.mjs, what `npx mcp-sdk-probe` runs) as a real process: it builds
// or reuses the bundle, runs the real pinned SDKs, prints, writes and exits as a user sees it. Only a few
// cases here; everything else the CLI does is tested in-process (cli.test.ts and others, via main()).
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { RECORDED, runCli } from './helpers/cli.ts';

let dir: string;
let recorded: string;
let out: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-launch-'));
  recorded = join(dir, 'recorded.json');
  out = join(dir, 'latest.json');
  copyFileSync(RECORDED, recorded);
});

describe('the mcp-sdk-probe command', () => {
  it('reproduces the audit: 13 passed, matches the committed recorded result, exit 0', async () => {
    const run = await runCli(['--recorded', recorded, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Compared with');
    expect(run.stdout).toContain('13 matched');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('13 passed, 0 failed');
    // Its stdout is a pipe, not a terminal: no colour.
    expect(run.stdout).not.toMatch(/\u001b\[/);
    // The written case data is the recorded case data, byte for byte (environment aside).
    const written = JSON.parse(readFileSync(out, 'utf8'));
    const committed = JSON.parse(readFileSync(RECORDED, 'utf8'));
    expect(JSON.stringify(written.cases, null, 2)).toBe(JSON.stringify(committed.cases, null, 2));
  });

  it('exits 1 and names the case when the recorded observation differs', async () => {
    const json = JSON.parse(readFileSync(recorded, 'utf8'));
    json.cases.find((c: { id: string }) => c.id === 'v1/cold/error-off-schema').observed.isError = false;
    writeFileSync(recorded, JSON.stringify(json));
    const run = await runCli(['--case', 'v1/cold/*', '--recorded', recorded, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('changed v1/cold/error-off-schema');
    expect(run.stdout).toContain('1 passed, 0 failed');
  });

  it('exits 2 with one line on stderr on bad usage, writing nothing', async () => {
    const run = await runCli(['--frobnicate', '--recorded', recorded, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("mcp-sdk-probe: unknown option '--frobnicate' (see --help)\n");
    expect(existsSync(out)).toBe(false);
  });

  it('--help describes every flag and exits 0', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const flag of ['--json', '--format', '--out', '--case', '--timeout', '--recorded', '--update', '--matrix', '--scenarios', '--v1', '--v2']) {
      expect(run.stdout).toContain(flag);
    }
  });
});
