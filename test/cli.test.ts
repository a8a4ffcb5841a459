// The whole CLI in-process through main(argv, io) (test/helpers/main.ts): usage, validation, exit codes,
// recorded comparisons, with real SDKs and files in a temporary folder. The shipped command as a real
// process is test/launch.test.ts.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ResultFileSchema } from '../probe/core/domain.ts';
import { RECORDED, ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { TEST_PROJECT, TEST_RESULTS } from './helpers/test-project.ts';
import { expectValidResult } from './helpers/schema.ts';

let dir: string;
let recorded: string;
let out: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-'));
  recorded = join(dir, 'recorded.json');
  out = join(dir, 'latest.json');
  copyFileSync(RECORDED, recorded);
});

function tamper(mutate: (json: { cases: { id: string; observed: Record<string, unknown> }[] }) => void): void {
  const json = JSON.parse(readFileSync(recorded, 'utf8'));
  mutate(json);
  writeFileSync(recorded, `${JSON.stringify(json, null, 2)}\n`);
}

describe('mcp-sdk-probe', () => {


  it('exits 1 and names the case when the recorded observation differs', async () => {
    tamper((json) => {
      const record = json.cases.find((c) => c.id === 'v1/warm/error-off-schema')!;
      record.observed = {
        outcome: 'returned',
        isError: true,
        content: [],
        structuredContent: { error: 'unavailable' },
        serverSent: 'as-scenario',
      };
    });
    const run = await runMain(['--recorded', recorded, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('12 matched, 1 changed');
    expect(run.stdout).toMatch(/changed v1\/warm\/error-off-schema\n\s+observed: returned isError structuredContent \{"error":"unavailable"\} → rejected McpError -32602/);
    // Every case still passed its expectation; only the comparison failed.
    expect(run.stdout).toContain('13 passed, 0 failed');
  });

  it('exits 1 on a stale recorded case', async () => {
    tamper((json) => {
      json.cases.push({ ...json.cases[0]!, id: 'v1/warm/retired-shape' });
    });
    const run = await runMain(['--recorded', recorded, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('stale (recorded, no such case any more) v1/warm/retired-shape');
  });

  it('exits 1 when there is no recorded result, and says how to make one', async () => {
    const run = await runMain(['--recorded', join(dir, 'none.json'), '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('every case is new. Record one with --update.');
  });

  it.each([
    ['not JSON', '{"schemaVersion": 1,', /recorded\.json: not valid JSON/],
    ['wrong schema version', null, /recorded\.json: a result file of format 99; this probe reads format 2/],
    ['unknown outcome', null, /recorded\.json: not a valid result file: cases\[2\]\.observed\.outcome: /],
  ])('exits 2 on a malformed recorded file (%s) and leaves it untouched', async (name, text, message) => {
    if (text !== null) writeFileSync(recorded, text);
    else if (name === 'wrong schema version') tamper((json) => Object.assign(json, { schemaVersion: 99 }));
    else tamper((json) => Object.assign(json.cases[2]!.observed, { outcome: 'exploded' }));
    const before = readFileSync(recorded);
    const mtime = statSync(recorded).mtimeMs;

    const run = await runMain(['--recorded', recorded, '--out', out, '--update']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain(recorded);
    expect(readFileSync(recorded)).toEqual(before);
    expect(statSync(recorded).mtimeMs).toBe(mtime);
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    [['--frobnicate'], /unknown option '--frobnicate'/],
    [['--timeout', '0'], /--timeout takes a whole number of milliseconds above 0, got '0'/],
    [['--timeout', 'soon'], /--timeout/],
    [['stray'], /^mcp-sdk-probe: unknown command 'stray': the commands are sweep, replay, merge, explore, help \(see --help\)\n$/],
    // Issue 21: commander 14 puts its suggestion on a second line, which the one-line message showed as a literal \n.
    [['--formt', 'table'], /^mcp-sdk-probe: unknown option '--formt'; did you mean --format\? \(see --help\)\n$/],
    [['swep'], /^mcp-sdk-probe: unknown command 'swep': the commands are sweep, replay, merge, explore, help \(see --help\)\n$/],
    [['--case', 'no-such-case'], /--case no-such-case matches no case of matrix audit/],
    [['--update', '--case', 'v1/*'], /--update records the whole matrix/],
    [['--matrix', 'everything'], /--matrix everything: expected one of audit, extended, ecosystem, all/],
    [['--matrix', 'all', '--recorded', 'x.json'], /--recorded names one file; with --matrix all each matrix is compared with its own/],
  ])('exits 2 with a one-line message on bad usage: %j', async (args, message) => {
    const run = await runMain([...args, '--recorded', recorded, '--out', out]);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
    expect(existsSync(out)).toBe(false);
  });

  // Issue 21: `help sweep` was "too many arguments" (commander adds no help command beside a root action).
  it.each<[string[], string]>([
    [['--help'], 'Usage: mcp-sdk-probe [options] [command]'],
    [['-h'], 'Usage: mcp-sdk-probe [options] [command]'],
    [['help'], 'Usage: mcp-sdk-probe [options] [command]'],
    ...['sweep', 'replay', 'merge', 'explore'].flatMap((command): [string[], string][] => [
      [['help', command], `Usage: mcp-sdk-probe ${command} `],
      [[command, '--help'], `Usage: mcp-sdk-probe ${command} `],
      [[command, '-h'], `Usage: mcp-sdk-probe ${command} `],
    ]),
  ])('%j prints the help and exits 0', async (args, usage) => {
    const run = await runMain(args);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith(usage)).toBe(true);
  });

  it('help of no such command exits 2 and names the commands', async () => {
    const run = await runMain(['help', 'swep']);
    expect(run).toEqual({ code: 2, stdout: '', stderr: "mcp-sdk-probe: unknown command 'swep': the commands are sweep, replay, merge, explore, help (see --help)\n" });
  });

  // A subcommand's usage error points at that command's help, where its options are (the root's --help
  // lists only the audit's).
  it.each([
    [['sweep', '--v3', '1.0.0'], "mcp-sdk-probe: unknown option '--v3'; did you mean one of --v1, --v2? (see sweep --help)\n"],
    [['replay'], "mcp-sdk-probe: missing required argument 'capture' (see replay --help)\n"],
    [['merge'], "mcp-sdk-probe: missing required argument 'files' (see merge --help)\n"],
    [['explore', '--runs', '0'], "mcp-sdk-probe: option '--runs <n>' argument '0' is invalid. --runs takes a whole number above 0, got '0' (see explore --help)\n"],
    [['help', 'sweep', 'extra'], "mcp-sdk-probe: too many arguments for 'help'. Expected 1 argument but got 2. (see help --help)\n"],
  ])('%j: exit 2, pointing at that command\'s help', async (args, stderr) => {
    expect(await runMain(args)).toEqual({ code: 2, stdout: '', stderr });
  });

  // The default output paths as they are from where the command runs: from an installed package they are
  // ./mcp-sdk-probe-results/…, not the results/… the help said (here the tests' results folder stands in).
  it.each([
    [[], 'default: RESULTS/latest.json'],
    [['sweep'], 'default: RESULTS/sweep-latest.json'],
    [['merge'], 'default: RESULTS/sweep-latest.json'],
    [['replay'], 'default: RESULTS/replay-latest.json'],
    [['explore'], 'default: RESULTS/explore'],
  ])('%j --help names the default output where it is', async (command, shown) => {
    const inside = await runMain([...command, '--help']);
    expect(inside.stdout.replace(/\s+/g, ' ')).toContain(shown.replace('RESULTS', 'results'));
    const elsewhere = await runMain([...command, '--help'], { cwd: dir });
    expect(elsewhere.stdout.replace(/\s+/g, ' ')).toContain(shown.replace('RESULTS', TEST_RESULTS));
  });

  // enablePositionalOptions: the root's options before a command's name are the audit's, and the command
  // never saw them (`--case v1/* sweep` swept every case).
  it.each([
    [['--case', 'v1/*', 'sweep', '--v1', '1.32.2'], "mcp-sdk-probe: --case is given before 'sweep', which does not read it there: a command's options go after its name (see sweep --help)\n"],
    [['--json', 'replay', 'capture.json'], "mcp-sdk-probe: --json is given before 'replay', which does not read it there: a command's options go after its name (see replay --help)\n"],
    [['--timeout', '100', 'explore'], "mcp-sdk-probe: --timeout is given before 'explore', which does not read it there: a command's options go after its name (see explore --help)\n"],
  ])('%j: exit 2, a root option before a command is not dropped silently', async (args, stderr) => {
    expect(await runMain(args)).toEqual({ code: 2, stdout: '', stderr });
  });

  it('the help lists the help command', async () => {
    expect((await runMain(['--help'])).stdout).toMatch(/\n  help \[command\] +show the help of a command\n/);
  });

  it('refuses --update in CI and keeps the recorded file', async () => {
    tamper((json) => Object.assign(json.cases[0]!.observed, { isError: true }));
    const before = readFileSync(recorded);
    const run = await runMain(['--recorded', recorded, '--out', out, '--update'], { env: { CI: 'true' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--update .* refused when CI is set/);
    expect(readFileSync(recorded)).toEqual(before);
  });

  it('--update rewrites the recorded result from the run, which then matches', async () => {
    tamper((json) => Object.assign(json.cases[0]!.observed, { isError: true }));
    const update = await runMain(['--recorded', recorded, '--out', out, '--update']);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('Recorded result rewritten');
    expect(update.stdout).toContain('changed v1/warm/conforming-success');
    expect(readFileSync(recorded, 'utf8')).toBe(readFileSync(out, 'utf8'));
    const again = await runMain(['--recorded', recorded, '--out', out]);
    expect(again.code).toBe(0);
  });

  it('--json prints a valid result file to stdout', async () => {
    const run = await runMain(['--json', '--recorded', recorded, '--out', out]);
    expect(run.code).toBe(0);
    const result = ResultFileSchema.parse(JSON.parse(run.stdout));
    expectValidResult(run.stdout);
    expect(result.cases).toHaveLength(13);
    expect(run.stdout).toBe(readFileSync(out, 'utf8'));
    expect(run.stdout.endsWith('}\n')).toBe(true);
    expect(run.stdout).not.toContain(ROOT);
    expect(run.stdout).not.toContain(TEST_PROJECT);
  });

  it('--case runs a subset; unselected recorded cases are unchecked, not failures', async () => {
    const run = await runMain(['--case', 'v2/*', '--case', 'cold', '--recorded', recorded, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('7 matched, 6 unchecked');
    expect(run.stdout).toContain('7 passed, 0 failed');
    expect(ResultFileSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).cases.map((c) => c.id)).toEqual([
      'v2/warm/conforming-success',
      'v2/warm/off-schema-success',
      'v2/warm/success-without-structured',
      'v2/warm/error-text-only',
      'v2/warm/error-off-schema',
      'v2/warm/error-conforming',
      'v1/cold/error-off-schema',
    ]);
  });

  it('--matrix all runs the audit, the extended and the ecosystem matrix, each against its own recorded result', async () => {
    // Two cases, one of each matrix: every case of both runs once per suite, in test/global-setup.ts
    // (audit.test.ts and extended.test.ts compare that run with both recorded results). This checks what
    // the CLI adds: both matrices in one run, each compared with its own recorded file, one report.
    const run = await runMain(['--matrix', 'all', '--case', 'v1/warm/error-off-schema', '--case', 'v1/warm/fault-close-mid-call', '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const recordedCases = ['recorded.json', 'recorded-extended.json', 'recorded-ecosystem.json'].map((file) => JSON.parse(readFileSync(join(ROOT, 'results', file), 'utf8')).cases.length);
    // v1/warm/error-off-schema is also a cell of the ecosystem matrix (its v1 column repeats the audit's):
    // it runs once, as the audit's case, and the ecosystem's comparison leaves it out (not unchecked).
    const unchecked = recordedCases.reduce((a, b) => a + b, 0) - 2 - 1;
    expect(run.stdout).toContain(`Compared with results/recorded.json and results/recorded-extended.json and results/recorded-ecosystem.json: 2 matched, ${unchecked} unchecked\n`);
    expect(run.stdout).toContain('family: faults');
    const result = ResultFileSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(result.matrix.name).toBe('all');
    expect(result.summary).toEqual({ passed: 2, failed: 0 });
    expect(result.cases.map((c) => c.id)).toEqual(['v1/warm/error-off-schema', 'v1/warm/fault-close-mid-call']);
  });

});
