// Issue 21: every "written to" line and every command the CLI prints to paste names its path as the person
// at this machine can use it from the working folder (relative inside it, absolute outside it), not as a
// report names it (displayPath: a bare file name outside the working folder, so `cd repro-v1` for
// --out /some/dir/repro-v1 went nowhere). The real CLI in-process, the pinned clients, no registry.
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pathToPaste } from '../probe/commands/io.ts';
import { shellArgument } from '../probe/core/escape.ts';
import { runMain } from './helpers/main.ts';
import { seededCache, UNREACHABLE_REGISTRY } from './helpers/offline-registry.ts';
import { TEST_RESULTS } from './helpers/test-project.ts';

describe('pathToPaste', () => {
  it.each([
    ['/home/me/work/out/x.json', 'out/x.json'],
    ['/home/me/work/x.json', 'x.json'],
    ['/home/me/work', '.'],
    ['/home/me/other/x.json', '/home/me/other/x.json'],
    ['/home/me/work-2/x.json', '/home/me/work-2/x.json'],
    ['/home/me/work/..x/y.json', '..x/y.json'],
    ['/tmp/x.json', '/tmp/x.json'],
    // Pasted after `cd` or any command, a leading dash would be read as an option.
    ['/home/me/work/-rf', './-rf'],
  ])('%s from /home/me/work: %s', (path, shown) => {
    expect(pathToPaste(path, '/home/me/work')).toBe(shown);
  });
});

describe('paths the CLI prints to use', () => {
  let cwd: string;
  let elsewhere: string;
  const run = (args: string[]) => runMain(args, { cwd, env: { MCP_SDK_PROBE_CACHE: seededCache() } });
  beforeAll(() => {
    cwd = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-cwd-'));
    elsewhere = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-elsewhere-'));
    vi.stubEnv('npm_config_registry', UNREACHABLE_REGISTRY);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });
  const oneCase = ['--case', 'v1/warm/error-off-schema', '--recorded', join(TEST_RESULTS, 'recorded.json')];

  it('--format repro --out outside the working folder: the folder and its cd command are absolute', async () => {
    const out = join(elsewhere, "repro v1's");
    const done = await run(['--format', 'repro', ...oneCase, '--out', out]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toBe(`Standalone reproduction written to ${out} (run: cd ${shellArgument(out)} && npm install --ignore-scripts --no-audit --no-fund && node repro.mjs)\n`);
  });

  it('--format repro --out inside the working folder: relative, as given', async () => {
    mkdirSync(join(cwd, 'bugs'));
    const done = await run(['--format', 'repro', ...oneCase, '--out', './bugs/repro-v1']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toBe('Standalone reproduction written to bugs/repro-v1 (run: cd bugs/repro-v1 && npm install --ignore-scripts --no-audit --no-fund && node repro.mjs)\n');
  });

  it.each([
    ['markdown', 'evidence.md', 'Markdown evidence written to'],
    ['junit', 'junit.xml', 'JUnit XML written to'],
  ])('--format %s --out outside the working folder: absolute', async (format, file, line) => {
    const out = join(elsewhere, file);
    const done = await run(['--format', format, ...oneCase, '--out', out]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toBe(`${line} ${out}\n`);
  });

  it('the table names the result file where it is', async () => {
    const done = await run([...oneCase, '--out', join(elsewhere, 'latest.json')]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`\nResult written to ${join(elsewhere, 'latest.json')}\n`);
    const inside = await run([...oneCase, '--out', 'latest.json']);
    expect(inside.stdout).toContain('\nResult written to latest.json\n');
  });

  it('explore: the findings table and the known-findings line name the files where they are', async () => {
    const known = join(elsewhere, 'known.json');
    const out = join(elsewhere, 'findings');
    const done = await run(['explore', '--runs', '40', '--known', known, '--out', out, '--update']);
    expect(done.code, done.stderr).toBe(0);
    const files = readdirSync(out).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    // Each finding's file, as `explore --replay FILE` takes it from here.
    for (const file of files) expect(done.stdout).toContain(` ${join(out, file)}\n`);
    expect(done.stdout).toContain(`(${known}: none recorded)\nrecorded the findings in ${known}\n`);
  });

  it('sweep --format html --out outside the working folder: the page and the result JSON where they are', async () => {
    const page = join(elsewhere, 'sweep.html');
    const done = await run(['sweep', '--v1', '1.32.2', '--case', 'v1/warm/error-off-schema', '--format', 'html', '--out', page, '--baseline', join(elsewhere, 'none.json')]);
    expect(done.code, done.stderr).toBe(0);
    // The result JSON went to its default path, results/ of the (test) project: outside this working folder too.
    expect(done.stdout).toContain(`\nSweep result written to ${join(TEST_RESULTS, 'sweep-latest.json')}\n`);
    expect(done.stdout).toContain(`\nSweep report (HTML) written to ${page}\n`);
  });
});
