// A sweep result leaves the machine it was made on (the Action uploads it, reports attach it): a release
// given as a path of this machine (`--v1 /home/me/my-build.tgz`) is stored by its file name, as the
// Markdown and HTML evidence already show it; the build itself is named by its label and integrity in
// `releases[]` (issue 21 items 1 and 6). Resume (the journal's fingerprint) and merge (shards must have
// asked for the same sweep) compare the stored request, so shards run from different checkouts of one
// build still merge. The release is the project's own installed v1 client as a package folder, reached
// through two symlinks that stand for two machines' paths, so this runs offline.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAUNCHER, ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

const V1_FOLDER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk');

let dir: string;
let firstMachine: string;
let secondMachine: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-portable-'));
  for (const machine of ['first', 'second']) {
    mkdirSync(join(dir, machine));
    symlinkSync(V1_FOLDER, join(dir, machine, 'sdk'));
  }
  firstMachine = join(dir, 'first', 'sdk');
  secondMachine = join(dir, 'second', 'sdk');
});

function journalLines(path: string): number {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0;
}

/** The shipped command, killed (SIGKILL) once its journal holds `releases` releases (the header is line 1). */
async function killedSweep(args: string[], journal: string, releases: number): Promise<number> {
  const child = spawn(process.execPath, [LAUNCHER, ...args], { cwd: ROOT, env: { ...process.env, CI: '' }, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const started = Date.now();
  while (journalLines(journal) < releases + 1 && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 10));
  child.kill('SIGKILL');
  await exited;
  return journalLines(journal) - 1;
}

describe('a sweep result names a release given as a path by its file name', () => {
  it('shards run from two paths of one build merge, and neither the shards, the merge nor the NDJSON hold a path', async () => {
    const cases = ['--case', 'v1/warm/conforming-success', '--case', 'v2/warm/conforming-success', '--baseline', join(dir, 'none.json')];
    const first = join(dir, 'shard-1.json');
    const second = join(dir, 'shard-2.json');
    expect((await runMain(['sweep', '--v1', firstMachine, '--v2', '2.4.0', '--shard', '1/2', '--out', first, ...cases])).code).toBe(0);
    const other = await runMain(['sweep', '--v1', secondMachine, '--v2', '2.4.0', '--shard', '2/2', '--out', second, ...cases]);
    expect(other.code, other.stderr).toBe(0);
    for (const shard of [first, second]) {
      const text = readFileSync(shard, 'utf8');
      expect(text).not.toContain(dir);
      expect(JSON.parse(text).request.v1).toBe('sdk');
    }
    const merged = join(dir, 'merged.json');
    const merge = await runMain(['merge', first, second, '--out', merged, '--baseline', join(dir, 'none.json')]);
    expect(merge.code, merge.stderr).toBe(0);
    const result = JSON.parse(readFileSync(merged, 'utf8'));
    expect(result.request).toEqual({ v1: 'sdk', v2: '2.4.0', prerelease: false });
    expect(result.plan).toEqual([expect.stringMatching(/^v1@1\.32\.2\+local\./), 'v2@2.4.0']);
    const ndjson = await runMain(['merge', first, second, '--ndjson', '--out', join(dir, 'merged-nd.json'), '--baseline', join(dir, 'none.json')]);
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(ndjson.stdout).not.toContain(dir);
    expect(JSON.parse(ndjson.stdout.trimEnd().split('\n').at(-1)!).request.v1).toBe('sdk');
  });

  it('a sweep of a path killed midway resumes into the result an uninterrupted sweep writes, with no path in it', async () => {
    const sweep = ['sweep', '--v1', firstMachine, '--v2', '2.4.0', '--matrix', 'extended', '--case', '*/warm/*-structured-*', '--jobs', '1', '--baseline', join(dir, 'none.json')];
    const whole = join(dir, 'whole.json');
    const uninterrupted = await runMain([...sweep, '--out', whole]);
    expect(uninterrupted.code, uninterrupted.stderr).toBe(0);
    expect(readFileSync(whole, 'utf8')).not.toContain(dir);

    const out = join(dir, 'resumed.json');
    writeFileSync(out, 'the previous result\n');
    expect(await killedSweep([...sweep, '--out', out], `${out}.journal.ndjson`, 1)).toBe(1);
    const resumed = await runMain([...sweep, '--out', out, '--resume']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('resuming: 1 of 2 releases are in the journal');
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  }, 120_000);
});
