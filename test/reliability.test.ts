// Every bad input and environment problem in README › Reliability, one row each: the CLI in-process
// (test/helpers/main.ts) in temporary folders. Each must exit 2 with one line naming the file, flag or
// field, print nothing to stdout, and leave what was on disk as it was.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MAX_INPUT_BYTES, MAX_WRITTEN_JSON_DEPTH } from '../probe/io/files.ts';
import { LAUNCHER, ROOT } from './helpers/cli.ts';
import { runMain, type MainRun } from './helpers/main.ts';
import { scenarioLoaderOf, until } from './helpers/processes.ts';
import { TEST_RESULTS } from './helpers/test-project.ts';

const tool = { name: 't', inputSchema: { type: 'object' } };
const scenario = { shape: 'mine', tool, result: { content: [{ type: 'text', text: 'x' }] }, expected: { 'v1/warm': 'returned' } };
const CAPTURE = join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json');
const RECORDED_COPY = join(TEST_RESULTS, 'recorded.json');
const PINNED_V1 = join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk');

/** `{"a":{"a":…1…}}`, `depth` objects deep. */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A temporary folder with helpers to put things in it; every path it returns is inside it. */
function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-reliability-'));
  const at = (name: string) => join(dir, name);
  return {
    dir,
    at,
    file(name: string, text: string) {
      mkdirSync(join(at(name), '..'), { recursive: true });
      writeFileSync(at(name), text);
      return at(name);
    },
    /** A sparse file just over the input limit: no disk is used. */
    huge(name: string) {
      mkdirSync(join(at(name), '..'), { recursive: true });
      writeFileSync(at(name), '');
      truncateSync(at(name), MAX_INPUT_BYTES + 1);
      return at(name);
    },
    fifo(name: string) {
      mkdirSync(join(at(name), '..'), { recursive: true });
      execFileSync('mkfifo', [at(name)]); // no Node API makes a FIFO
      return at(name);
    },
    folder(name: string) {
      mkdirSync(at(name), { recursive: true });
      return at(name);
    },
  };
}
type Folder = ReturnType<typeof folder>;

/** The CPU time `pid` has used (user + system; /proc/PID/stat fields 14 and 15, in clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
};
/** Still running (a zombie, ended but not yet reaped by its new parent, is not). */
const isRunning = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

function expectUsageError(run: MainRun, message: RegExp): void {
  expect(run.stderr).toMatch(message);
  expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(run.stdout).toBe('');
  expect(run.code).toBe(2);
}

/** No temporary file of the atomic writer is left behind in `dir`. */
function expectNoTemporaries(dir: string): void {
  expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
}

const deepCapture = (depth: number) => `{"tool":${JSON.stringify(tool)},"result":{"content":[],"structuredContent":${deepJson(depth)}}}`;
const deepScenario = (depth: number) => JSON.stringify({ ...scenario, result: { content: [], structuredContent: '@' } }).replace('"@"', deepJson(depth));

describe('bad input files: exit 2 naming the file, before anything runs', () => {
  it.each<[string, (f: Folder) => string[], RegExp]>([
    // replay CAPTURE
    ['replay: a capture that is not JSON', (f) => ['replay', f.file('c.json', '{"tool":')], /c\.json: not valid JSON/],
    ['replay: a capture nested 2,000 levels deep', (f) => ['replay', f.file('c.json', deepCapture(2000))], /c\.json: JSON nested more than 256 levels deep/],
    ['replay: a capture nested 100,000 levels deep', (f) => ['replay', f.file('c.json', deepCapture(100_000))], /c\.json: (JSON nested more than 256 levels deep|not valid JSON \(nested too deeply)/],
    ['replay: a capture over 64 MiB', (f) => ['replay', f.huge('c.json')], /c\.json: the replay capture is \d+ bytes, over the limit/],
    ['replay: a capture that is a folder', (f) => ['replay', f.folder('c.json')], /c\.json: the replay capture is a folder, not a regular file/],
    ['replay: a capture that is a FIFO', (f) => ['replay', f.fifo('c.json')], /c\.json: the replay capture is a FIFO, not a regular file/],
    ['replay: /dev/zero as the capture', () => ['replay', '/dev/zero'], /\/dev\/zero: the replay capture is a device, not a regular file/],
    ['replay: a capture that does not exist', (f) => ['replay', f.at('none.json')], /none\.json: cannot read the replay capture \(ENOENT\)/],
    // --scenarios DIR, JSON files
    ['--scenarios: a JSON file nested 2,000 levels deep', (f) => ['--scenarios', join(f.file('in/a.json', deepScenario(2000)), '..')], /a\.json: JSON nested more than 256 levels deep/],
    ['--scenarios: a JSON file over 64 MiB', (f) => ['--scenarios', join(f.huge('in/a.json'), '..')], /a\.json: the scenario file is \d+ bytes, over the limit/],
    ['--scenarios: a JSON file that is a FIFO', (f) => ['--scenarios', join(f.fifo('in/a.json'), '..')], /a\.json: the scenario file is a FIFO/],
    ['--scenarios: a .ts file that is a FIFO', (f) => ['--scenarios', join(f.fifo('in/a.ts'), '..'), '--allow-scenario-code'], /a\.ts: the scenario module is a FIFO/],
    ['--scenarios: a folder named like a scenario file', (f) => ['--scenarios', join(f.folder('in/a.json'), '..')], /a\.json: the scenario file is a folder/],
    // --recorded FILE
    ['--recorded: /dev/zero', () => ['--recorded', '/dev/zero'], /\/dev\/zero: the recorded result is a device, not a regular file/],
    ['--recorded: a FIFO', (f) => ['--recorded', f.fifo('r.json')], /r\.json: the recorded result is a FIFO/],
    ['--recorded: a folder', (f) => ['--recorded', f.folder('r.json')], /r\.json: the recorded result is a folder/],
    ['--recorded: a file over 64 MiB', (f) => ['--recorded', f.huge('r.json')], /r\.json: the recorded result is \d+ bytes, over the limit/],
    ['--recorded: JSON nested 2,000 levels deep', (f) => ['--recorded', f.file('r.json', deepJson(2000))], new RegExp(`r\\.json: JSON nested more than ${MAX_WRITTEN_JSON_DEPTH} levels deep`)],
    ['--recorded: not JSON', (f) => ['--recorded', f.file('r.json', '[')], /r\.json: not valid JSON/],
    // V8's message quotes the start of the text, line break included: still one line (escaped).
    ['--recorded: short text with a line break, not JSON', (f) => ['--recorded', f.file('r.json', 'not json\n')], /r\.json: not valid JSON \(.*"not json\\n"/],
    // sweep --baseline FILE (read before any release is resolved: no registry needed)
    ['sweep --baseline: JSON nested 2,000 levels deep', (f) => ['sweep', '--v1', '1.32.2', '--baseline', f.file('b.json', deepJson(2000))], new RegExp(`b\\.json: JSON nested more than ${MAX_WRITTEN_JSON_DEPTH} levels deep`)],
    ['sweep --baseline: /dev/zero', () => ['sweep', '--v1', '1.32.2', '--baseline', '/dev/zero'], /\/dev\/zero: the sweep baseline is a device/],
    ['sweep --baseline: a file over 64 MiB', (f) => ['sweep', '--v1', '1.32.2', '--baseline', f.huge('b.json')], /b\.json: the sweep baseline is \d+ bytes, over the limit/],
    ['sweep --baseline: a folder', (f) => ['sweep', '--v1', '1.32.2', '--baseline', f.folder('b.json')], /b\.json: the sweep baseline is a folder/],
    // merge SHARD...
    ['merge: a shard nested 2,000 levels deep', (f) => ['merge', f.file('s.json', deepJson(2000))], new RegExp(`s\\.json: JSON nested more than ${MAX_WRITTEN_JSON_DEPTH} levels deep`)],
    ['merge: a shard over 64 MiB', (f) => ['merge', f.huge('s.json')], /s\.json: the sweep result is \d+ bytes, over the limit/],
    ['merge: a shard that is a FIFO', (f) => ['merge', f.fifo('s.json')], /s\.json: the sweep result is a FIFO/],
    ['merge: /dev/zero as a shard', () => ['merge', '/dev/zero'], /\/dev\/zero: the sweep result is a device/],
    ['merge: a shard that is not JSON', (f) => ['merge', f.file('s.json', 'nope')], /s\.json: not valid JSON/],
  ])('%s', async (_input, args, message) => {
    const f = folder();
    const run = await runMain([...args(f), '--out', f.at('out.json')]);
    expectUsageError(run, message);
    expect(readdirSync(f.dir)).not.toContain('out.json');
  });
});

describe('TypeScript scenario files run in a child process with a time limit', () => {
  it.each<[string, string, RegExp]>([
    ['one that calls process.exit(0) at import', 'process.exit(0);\nexport default {};\n', /a\.ts: cannot load the scenario module \(it ended the process \(status 0\) at import\)/],
    ['one that throws at import', 'throw new Error("boom");\nexport default {};\n', /a\.ts: cannot load the scenario module \(it threw at import: boom\)/],
    ['one that prints to stdout', 'console.log("hello");\nexport default {};\n', /a\.ts: cannot load the scenario module \(it printed to stdout at import: 'hello'/],
    ['one that loops forever', 'for (;;) {}\nexport default {};\n', /a\.ts: cannot load the scenario module \(it did not finish loading within 10 s\)/],
    // Ends at once, as outside the probe: the child's IPC channel does not keep it alive (it waited 10 s).
    ['one whose top-level await never settles', 'await new Promise(() => {});\nexport default {};\n', /a\.ts: cannot load the scenario module \(its top-level await never settles\)/],
    ['one whose default export is circular', 'const a: Record<string, unknown> = {};\na.self = a;\nexport default a;\n', /a\.ts: cannot load the scenario module \(its default export is not JSON \(Converting circular structure/],
    ['one whose default export nests 2,000 levels deep', 'let x: unknown = 1;\nfor (let i = 0; i < 2000; i++) x = { x };\nexport default x;\n', /a\.ts \(its default export\): JSON nested more than 256 levels deep/],
    ['one whose default export is a function', 'export default () => 1;\n', /a\.ts: cannot load the scenario module \(its default export is not JSON \(a function\)\)/],
    ['one that reads a file (no file system in the child)', 'import { readFileSync } from "node:fs";\nexport default JSON.parse(readFileSync("/etc/hostname", "utf8"));\n', /a\.ts: cannot load the scenario module \(it threw at import: /],
    ['one that imports a module that does not exist', 'import x from "./missing.ts";\nexport default x;\n', /a\.ts: cannot load the scenario module \(Could not resolve "\.\/missing\.ts"/],
  ])(
    'exits 2 naming the file for %s',
    async (_name, source, message) => {
      const f = folder();
      f.file('in/a.ts', source);
      const run = await runMain(['--scenarios', f.at('in'), '--allow-scenario-code', '--out', f.at('out.json')]);
      // The message names the loader's own 10 s limit where that ended it; no wall-clock assertion here.
      expectUsageError(run, message);
      expect(readdirSync(f.dir)).not.toContain('out.json');
    },
    45_000,
  );

  // A looping module never reads its IPC channel, so only the probe can end its child: stopped by a
  // signal while one loads (a CI job cancelled), the probe used to leave it spinning, its parent gone.
  it.runIf(process.platform === 'linux').each(['SIGTERM', 'SIGINT'] as const)('%s while a looping module loads: the probe ends its loader child, then itself by that signal', async (signal) => {
    const f = folder();
    f.file('in/a.ts', 'for (;;) {}\nexport default {};\n');
    const probe = spawn(process.execPath, [LAUNCHER, '--scenarios', f.at('in'), '--allow-scenario-code', '--out', f.at('out.json')], { stdio: 'ignore' });
    const loader = await until(() => scenarioLoaderOf(probe.pid!), 20_000);
    onTestFinished(() => void (isRunning(loader) && process.kill(loader, 'SIGKILL'))); // left spinning if this fails
    // Spinning in the module (half a second of CPU: more than Node's start-up and the bundle's import).
    await until(() => (cpuMs(loader) >= 500 ? true : undefined), 20_000);
    probe.kill(signal);
    const [code, taken] = (await once(probe, 'exit')) as [number | null, NodeJS.Signals | null];
    expect({ code, taken }).toEqual({ code: null, taken: signal });
    expect(await until(() => (isRunning(loader) ? undefined : true), 5_000)).toBe(true);
    expect(readdirSync(f.dir)).not.toContain('out.json');
  }, 30_000);

  // Its imports stay inside its folder (test/hostile-scenario-module.test.ts), so the helper is in it.
  it('loads a .ts file outside the checkout as an ES module, whatever package.json is beside it', async () => {
    const f = folder();
    for (const at of ['', 'in/lib/']) {
      f.file(`${at}package.json`, JSON.stringify({ type: 'commonjs' }));
      f.file(`${at}tsconfig.json`, JSON.stringify({ compilerOptions: { module: 'commonjs' } }));
    }
    f.file('in/lib/helper.ts', `export const tool = ${JSON.stringify(tool)};\n`);
    f.file('in/a.ts', `import { tool } from './lib/helper.ts';\nexport default { ...${JSON.stringify(scenario)}, tool };\n`);
    const run = await runMain(['--scenarios', f.at('in'), '--allow-scenario-code', '--case', 'mine', '--out', f.at('out.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('1 passed, 0 failed');
  }, 25_000);
});

describe('outputs: only regular files or new paths, never a baseline, checked before anything runs', () => {
  it.each<[string, (f: Folder) => { args: string[]; env?: Record<string, string>; keep: string[] }, RegExp]>([
    ['--out a folder', (f) => ({ args: ['--out', f.folder('o')], keep: [] }), /--out .*\/o: is a folder; outputs go only to regular files or new paths/],
    ['--out /dev/full (a device)', () => ({ args: ['--out', '/dev/full'], keep: [] }), /--out \/dev\/full: is a device/],
    ['--out a FIFO', (f) => ({ args: ['--out', f.fifo('o.json')], keep: [] }), /--out .*o\.json: is a FIFO/],
    [
      '--out a symbolic link to a file (neither followed nor replaced)',
      (f) => {
        const target = f.file('real.json', 'kept\n');
        symlinkSync(target, f.at('link.json'));
        return { args: ['--out', f.at('link.json')], keep: [target] };
      },
      /--out .*link\.json: is a symbolic link/,
    ],
    [
      '--out a dangling symbolic link',
      (f) => {
        symlinkSync(f.at('nowhere.json'), f.at('link.json'));
        return { args: ['--out', f.at('link.json')], keep: [] };
      },
      /--out .*link\.json: is a symbolic link/,
    ],
    ['--out under /proc (Node\'s recursive mkdir would spin there)', () => ({ args: ['--out', '/proc/nope/x.json'], keep: [] }), /--out \/proc\/nope\/x\.json: \/proc is on a kernel filesystem \(proc\)/],
    ['--out below a regular file', (f) => ({ args: ['--out', join(f.file('plain', 'kept\n'), 'x.json')], keep: [f.at('plain')] }), /--out .*plain\/x\.json: .*plain is a file, not a folder/],
    ['--out results/recorded.json (the recorded baseline)', () => ({ args: ['--out', 'results/recorded.json'], keep: [RECORDED_COPY] }), /--out .*results\/recorded\.json: is a recorded baseline/],
    ['--out results/recorded.json with CI=true', () => ({ args: ['--out', 'results/recorded.json'], env: { CI: 'true' }, keep: [RECORDED_COPY] }), /--out .*results\/recorded\.json: is a recorded baseline/],
    ['--out the checkout\'s own results/recorded.json', () => ({ args: ['--out', join(ROOT, 'results', 'recorded.json')], keep: [join(ROOT, 'results', 'recorded.json')] }), /: is a recorded baseline/],
    ['--out results/recorded-extended.json with --matrix extended', () => ({ args: ['--matrix', 'extended', '--out', 'results/recorded-extended.json'], keep: [join(TEST_RESULTS, 'recorded-extended.json')] }), /: is a recorded baseline/],
    [
      '--out the --recorded file of the same run',
      (f) => {
        const copy = f.file('mine.json', readFileSync(RECORDED_COPY, 'utf8'));
        return { args: ['--recorded', copy, '--out', copy], keep: [copy] };
      },
      /--out .*mine\.json: is the recorded result this run reads/,
    ],
    ['--format markdown --out /dev/full', () => ({ args: ['--format', 'markdown', '--out', '/dev/full'], keep: [] }), /--out \/dev\/full: is a device/],
    ['replay --out results/recorded-extended.json', () => ({ args: ['replay', CAPTURE, '--out', 'results/recorded-extended.json'], keep: [join(TEST_RESULTS, 'recorded-extended.json')] }), /: is a recorded baseline/],
    ['replay --out the capture itself', (f) => ({ args: ['replay', f.file('c.json', readFileSync(CAPTURE, 'utf8')), '--out', f.at('c.json')], keep: [f.at('c.json')] }), /c\.json: is the replay capture this run reads/],
    ['sweep --out results/sweep-baseline.json', () => ({ args: ['sweep', '--v1', '1.32.2', '--out', 'results/sweep-baseline.json'], keep: [join(TEST_RESULTS, 'sweep-baseline.json')] }), /: is a recorded baseline/],
    ['sweep --update --baseline results/recorded.json', (f) => ({ args: ['sweep', '--v1', '1.32.2', '--update', '--baseline', 'results/recorded.json', '--out', f.at('o.json')], keep: [RECORDED_COPY] }), /recorded\.json \(--update\): is a recorded baseline/],
    [
      'merge --out one of the shards it merges',
      (f) => {
        const shard = f.file('s.json', '{}\n');
        return { args: ['merge', shard, '--out', shard], keep: [shard] };
      },
      /--out .*s\.json: is the sweep result to merge this run reads/,
    ],
  ])('%s', async (_input, setup, message) => {
    const f = folder();
    const { args, env, keep } = setup(f);
    const before = keep.map((path) => [path, readFileSync(path, 'utf8')]);
    const links = readdirSync(f.dir).filter((name) => lstatSync(f.at(name)).isSymbolicLink()).map((name) => [name, readlinkSync(f.at(name))]);
    const run = await runMain(args, { env });
    // Refused up front: nothing ran, so no report reached stdout (expectUsageError checks it is empty).
    expectUsageError(run, message);
    for (const [path, text] of before) expect(readFileSync(path!, 'utf8')).toBe(text);
    for (const [name, target] of links) expect(readlinkSync(f.at(name!))).toBe(target);
    expectNoTemporaries(f.dir);
    expectNoTemporaries(TEST_RESULTS);
  });

  it.skipIf(process.getuid?.() === 0)('--out in a folder without write permission', async () => {
    const f = folder();
    const locked = f.folder('locked');
    chmodSync(locked, 0o555);
    const run = await runMain(['--out', join(locked, 'x', 'o.json')]);
    expectUsageError(run, /--out .*locked\/x\/o\.json: cannot write in .*locked \(EACCES\)/);
  });
});

describe('the release cache folder (MCP_SDK_PROBE_CACHE)', () => {
  it.each<[string, (f: Folder) => string, RegExp]>([
    ['under /proc', () => '/proc/nope', /the release cache \/proc\/nope \(MCP_SDK_PROBE_CACHE\): \/proc is on a kernel filesystem \(proc\)/],
    ['a regular file', (f) => f.file('cache', 'kept\n'), /the release cache .*cache \(MCP_SDK_PROBE_CACHE\): .*cache is a file, not a folder/],
    ['below a regular file', (f) => join(f.file('plain', 'kept\n'), 'cache'), /\(MCP_SDK_PROBE_CACHE\): .*plain is a file, not a folder/],
  ])('exits 2, without a hang, when it is %s', async (_name, cache, message) => {
    const f = folder();
    const run = await runMain(['--v1', PINNED_V1, '--out', f.at('out.json')], { env: { MCP_SDK_PROBE_CACHE: cache(f) } });
    expectUsageError(run, message);
  });
});

describe('small validations', () => {
  it.each<[string, string[], RegExp]>([
    ['--case v1 --case nomatch (one pattern matching nothing)', ['--case', 'v1', '--case', 'nomatch'], /--case nomatch matches no case of matrix audit; ids look like v1\//],
    ["--case ''", ['--case', ''], /--case '': an empty pattern/],
    ['--case nomatch with --matrix all', ['--matrix', 'all', '--case', 'v1', '--case', 'v9/*'], /--case v9\/\* matches no case of matrix all/],
    ['--timeout above 2^31-1', ['--timeout', '99999999999'], /--timeout takes at most 2147483647 milliseconds, got '99999999999'/],
    ['replay --timeout above 2^31-1', ['replay', CAPTURE, '--timeout', '2147483648'], /--timeout takes at most 2147483647 milliseconds/],
    ['sweep --timeout above 2^31-1', ['sweep', '--v1', '1.32.2', '--timeout', '2147483648'], /--timeout takes at most 2147483647 milliseconds/],
    ["replay --case ''", ['replay', CAPTURE, '--case', ''], /--case '': an empty pattern/],
    ['replay --case v1 --case nomatch (one pattern matching nothing)', ['replay', CAPTURE, '--case', 'v1', '--case', 'nomatch'], /--case nomatch matches no case of this replay; ids look like v1\//],
    ['sweep --case v1 --case nomatch', ['sweep', '--v1', '1.32.2', '--case', 'v1', '--case', 'nomatch'], /--case nomatch matches no case of matrix audit/],
    ['a flag value with a line break in it', ['--jobs', '1\n2'], /--jobs takes a whole number above 0, got '1\\n2'/],
  ])('%s exits 2 naming it', async (_input, args, message) => {
    const f = folder();
    const run = await runMain([...args, '--out', f.at('out.json')]);
    expectUsageError(run, message);
  });

  it('--matrix extended --case X says "N unchecked" once, not a line per unselected case', async () => {
    const f = folder();
    const run = await runMain(['--matrix', 'extended', '--case', 'v1/cold/off-schema-success', '--out', f.at('out.json')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Compared with results/recorded-extended.json: 1 matched, 151 unchecked\n  151 unchecked (not selected by --case)\n');
    expect(run.stdout.match(/unchecked/g)).toHaveLength(2);
  });
});

describe("--timeout up to its maximum: the timers computed from it stay within what Node's timers take", () => {
  // The pool's deadline is the limit plus a grace and its cleanup twice the limit; a sweep worker's is the
  // sum of its cases' limits. Unclamped, each went over 2^31-1 ms and fired after 1 ms: every case a
  // `timeout (connect)` at the maximum, and rule checks cut short ("checks-not-finished") from half of it.
  it.each([2 ** 31 - 1, 2 ** 30 + 500])('--timeout %i: the audit runs as with the default', async (timeout) => {
    const f = folder();
    const run = await runMain(['--timeout', String(timeout), '--out', f.at('out.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('13 matched');
    expect(readFileSync(f.at('out.json'), 'utf8')).not.toContain('checks-not-finished');
  }, 30_000);

  it('sweep --timeout 2147483647: the release runs its cases, not a worker timeout', async () => {
    const f = folder();
    const run = await runMain(['sweep', '--v1', PINNED_V1, '--case', 'v1/warm/*', '--timeout', String(2 ** 31 - 1), '--baseline', f.at('none.json'), '--out', f.at('out.json')]);
    expect(run.stderr).not.toMatch(/no answer from the release's worker/);
    const result = JSON.parse(readFileSync(f.at('out.json'), 'utf8')) as { releases: { status: string }[] };
    expect(result.releases.map((release) => release.status)).toEqual(['ran']);
  }, 60_000);
});
