// In `npm run test:releases` (vitest.releases.config.ts), not `npm test`: packing builds the bundle and the
// declarations (tsc) and the type test runs tsc twice, ~45 s in all. The install is offline when npm's cache
// holds the dependencies (it does after `npm ci`), else --prefer-offline.
// The package as a user gets it: `npm pack` (its prepack builds dist/), `npm install <tarball>` into a
// project of its own, the installed folder made read-only, then the installed command run from that
// project. It must run from dist/ alone, find its recorded results and scenarios inside the package, and
// write only into the working folder. (As root chmod stops nothing, so the package folder is also
// compared, every file's path and hash, before and after.)
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, type CliRun } from '../helpers/cli.ts';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; devDependencies: Record<string, string> };
/** The consumer's own vitest: the release this repository pins (the matchers extend the consumer's vitest). */
const VITEST = `vitest@${PACKAGE.devDependencies.vitest}`;

function run(command: string, args: string[], cwd: string): Promise<CliRun> {
  return new Promise((done) => {
    // Outputs and cache must follow from where the package is, not from a variable of this test run.
    const env: NodeJS.ProcessEnv = { ...process.env, CI: '', NO_COLOR: '' };
    delete env.MCP_SDK_PROBE_RESULTS_DIR;
    delete env.MCP_SDK_PROBE_CACHE;
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Every file and folder under `dir`, with a hash of each file's content, sorted. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      const name = relative(dir, path);
      return entry.isFile() ? `${name} ${createHash('sha256').update(readFileSync(path)).digest('hex')}` : `${name}/`;
    })
    .sort();
}

let base: string;
let project: string;
let installed: string;
let before: string[];

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-pack-'));
  project = join(base, 'project');
  const packed = await run('npm', ['pack', '--pack-destination', base, '--loglevel=error'], ROOT);
  expect(packed.code, packed.stderr).toBe(0);
  const tarball = join(base, `${PACKAGE.name}-${PACKAGE.version}.tgz`);
  expect(existsSync(tarball)).toBe(true);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'uses-mcp-sdk-probe', private: true, type: 'module' }));
  const install = ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball, VITEST];
  // The dependencies are in npm's cache after `npm ci`; --prefer-offline only when the cache lacks a manifest.
  let installing = await run('npm', [...install, '--offline'], project);
  if (installing.code !== 0 && /ENOTCACHED/.test(installing.stderr)) installing = await run('npm', [...install, '--prefer-offline'], project);
  expect(installing.code, installing.stderr).toBe(0);
  installed = join(project, 'node_modules', PACKAGE.name);
  before = listing(installed);
  for (const entry of ['', ...before.map((line) => line.split(' ')[0]!.replace(/\/$/, ''))]) {
    const path = join(installed, entry);
    chmodSync(path, statSync(path).mode & ~0o222);
  }
}, 180_000);

afterAll(() => {
  if (!base) return;
  if (installed && existsSync(installed)) {
    for (const entry of ['', ...listing(installed).map((line) => line.split(' ')[0]!.replace(/\/$/, ''))]) chmodSync(join(installed, entry), 0o755);
  }
  rmSync(base, { recursive: true, force: true });
});

/** A consumer of the library's types (typechecked only). */
const CONSUMER = `import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect } from 'vitest';
import 'mcp-sdk-probe/vitest';
import { captureTool, writeCaptureFile, type CapturedToolCall } from 'mcp-sdk-probe';
declare const server: McpServer;
const captured: CapturedToolCall = await captureTool(server, 'get_forecast', { city: 'Lisbon' }, { timeoutMs: 5000, name: 'found' });
const overStdio: CapturedToolCall = await captureTool({ command: 'node', args: ['stdio.mjs'], env: { TZ: 'UTC' } }, 'get_forecast');
writeCaptureFile('found.json', captured);
await expect(overStdio).toBeRejectedBy(['v1', 'v2'], -32602);
import { compareWithShipped, judge, renderTerminalReport, replay, runAudit, runMatrix, serializeResult, type CaseRecord, type Comparison, type ResultFile, type Verdict } from 'mcp-sdk-probe';
const result: ResultFile = await runAudit({ runIn: 'pool', timeoutMs: 5000, cases: ['v1/*'] });
const first: CaseRecord | undefined = result.cases[0];
const verdict: Verdict | undefined = first && judge(first.expected, first.observed).verdict;
const comparison: Comparison = compareWithShipped('audit', result);
const text: string = renderTerminalReport({ result, comparison, recordedPath: 'recorded', updatedRecorded: false, writtenPath: undefined });
const extended: ResultFile = await runMatrix('extended', { runIn: 'in-process' });
const replayed: ResultFile = await replay({ tool: { name: 't', inputSchema: { type: 'object' } }, result: { content: [], isError: true } }, { expect: ['returned'] });
console.log(verdict, text, serializeResult(extended), replayed.summary.passed);
`;

/** The library at run time, from the installed package. */
const USE = `import { compareWithShipped, renderJunit, renderTerminalReport, replay, runAudit } from 'mcp-sdk-probe';
const result = await runAudit();
const comparison = compareWithShipped('audit', result);
const replayed = await replay({ tool: { name: 't', inputSchema: { type: 'object' } }, result: { content: [{ type: 'text', text: 'no' }], isError: true } }, { runIn: 'in-process', expect: ['returned'] });
const text = renderTerminalReport({ result, comparison, recordedPath: 'recorded', updatedRecorded: false, writtenPath: undefined });
console.log(JSON.stringify({ ...result.summary, matched: comparison.counts.matched, replayed: replayed.summary.passed, last: text.trimEnd().split('\\n').at(-1), junit: renderJunit(result).startsWith('<?xml') }));
`;

/** A server author's suite, run by the consumer's vitest: captureTool and the matchers from the installed package. */
const SERVER_SUITE = `import { expect, it } from 'vitest';
import 'mcp-sdk-probe/vitest';
import { captureTool, writeCaptureFile } from 'mcp-sdk-probe';
import { createWeatherServer } from './server.mjs';

const overStdio = { command: process.execPath, args: ['stdio.mjs'] };

it('a known city: both client lines return the forecast (the server as an instance, in memory)', async () => {
  await expect(await captureTool(createWeatherServer(), 'get_forecast', { city: 'Lisbon' })).toBeReturnedBy(['v1', 'v2']);
});

it('an unknown city: v1 rejects the tool error, v2 returns it (the server over stdio); the capture is kept', async () => {
  const unknown = await captureTool(overStdio, 'get_forecast', { city: 'Atlantis' }, { name: 'unknown city' });
  await expect(unknown).toBeRejectedBy('v1', -32602);
  await expect(unknown).toBeReturnedBy('v2');
  writeCaptureFile('unknown-city.json', unknown);
});
`;

/** The same suite with one wrong claim: v1 rejects this result, so the assertion must fail. */
const WRONG_SUITE = `import { expect, it } from 'vitest';
import 'mcp-sdk-probe/vitest';
import { captureTool } from 'mcp-sdk-probe';
import { createWeatherServer } from './server.mjs';

it('claims every client line returns the unknown-city error', async () => {
  await expect(await captureTool(createWeatherServer(), 'get_forecast', { city: 'Atlantis' })).toBeReturnedBy(['v1', 'v2']);
});
`;

const bin = () => join(project, 'node_modules', '.bin', 'mcp-sdk-probe');

// replay's default is every client line; the ecosystem lines' packages are optional peers, not installed
// in this consumer, so replay names them on stderr and runs the SDK lines.
const PEERS_LEFT_OUT =
  'note: the ai-sdk client line is left out: its packages are not installed (npm install --save-dev @ai-sdk/mcp@2.0.99)\n' +
  'note: the langchain client line is left out: its packages are not installed (npm install --save-dev @langchain/mcp-adapters@1.1.4 @langchain/core@1.4.0 @langchain/langgraph@1.7.3)\n';

describe('the packed package, installed read-only', () => {
  it('ships dist/ prebuilt, the recorded results, scenarios and licence, and no TypeScript sources to rebuild from', () => {
    const files = before.map((line) => line.split(' ')[0]!);
    for (const file of ['dist/cli.mjs', 'dist/index.mjs', 'dist/types/probe/api/index.d.ts', 'dist/vitest.mjs', 'dist/types/probe/api/vitest.d.ts', 'dist/case-worker.mjs', 'dist/sweep-worker.mjs', 'dist/fixture-stdio.mjs', 'probe/bin/launch.mjs', 'results/recorded.json', 'results/recorded-extended.json', 'results/schema.json', 'scenarios/captures/error-with-structured-content.json', 'scenarios/examples/structured-error-variant.ts', 'LICENSE', 'CHANGELOG.md', 'README.md', 'docs/security.md']) {
      expect(files).toContain(file);
    }
    expect(files.filter((file) => /^probe\/(?!bin\/).*\.ts$/.test(file) || file.startsWith('test/'))).toEqual([]);
  });

  it('runs the audit: 13 passed, compared with its own recorded result, the result written to the working folder', async () => {
    const audit = await run(bin(), [], project);
    expect(audit.stderr).toBe('');
    expect(audit.code).toBe(0);
    expect(audit.stdout).toContain('13 matched');
    expect(audit.stdout).toContain('Result written to mcp-sdk-probe-results/latest.json');
    expect(audit.stdout.trimEnd().split('\n').at(-1)).toBe('13 passed, 0 failed');
    expect(JSON.parse(readFileSync(join(project, 'mcp-sdk-probe-results', 'latest.json'), 'utf8')).cases).toHaveLength(13);
  });

  it('replays a capture copied out of the package, writing replay-latest.json to the working folder', async () => {
    copyFileSync(join(installed, 'scenarios', 'captures', 'error-with-structured-content.json'), join(project, 'capture.json'));
    const replay = await run(bin(), ['replay', 'capture.json'], project);
    // The ecosystem lines' packages are optional peers, not installed here: replay names them and runs the rest.
    expect(replay.stderr).toBe(PEERS_LEFT_OUT);
    expect(replay.code).toBe(0);
    expect(existsSync(join(project, 'mcp-sdk-probe-results', 'replay-latest.json'))).toBe(true);
  });

  it('a replay that ends in bad input prints only its error, not the left-out lines before it (issue 21)', async () => {
    // A package folder without its node_modules: refused with what to run, before anything runs.
    const folder = join(base, 'sdk-without-dependencies');
    mkdirSync(folder);
    copyFileSync(join(project, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'), join(folder, 'package.json'));
    copyFileSync(join(installed, 'scenarios', 'captures', 'error-with-structured-content.json'), join(project, 'capture-bad-input.json'));
    const replay = await run(bin(), ['replay', 'capture-bad-input.json', '--v1', folder], project);
    expect(replay.code).toBe(2);
    expect(replay.stderr).toMatch(/^mcp-sdk-probe: --v1 .*sdk-without-dependencies: its dependencies are not installed \(.*\); run npm install \(or npm ci\) in that folder/);
    expect(replay.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--matrix ecosystem without its optional peers installed: one line naming what to install, exit 2', async () => {
    const ecosystem = await run(bin(), ['--matrix', 'ecosystem'], project);
    expect(ecosystem.code).toBe(2);
    expect(ecosystem.stderr).toMatch(/^mcp-sdk-probe: the ai-sdk client line needs @ai-sdk\/mcp@2\.0\.99: npm install --save-dev @ai-sdk\/mcp@2\.0\.99\n$/);
  });

  it('--help and --version exit 0', async () => {
    const help = await run(bin(), ['--help'], project);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--matrix');
    const version = await run(bin(), ['--version'], project);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(PACKAGE.version);
  });

  it('sweeps the pinned releases and passes its own gate: their integrity read from npm\'s hidden lockfile, or unknown without it, which is no change (issue 21)', async () => {
    const sweepResult = () =>
      (JSON.parse(readFileSync(join(project, 'mcp-sdk-probe-results', 'sweep-latest.json'), 'utf8')) as { releases: { release: { integrity: string | null } }[] }).releases.map(
        (r) => r.release.integrity,
      );
    const locked = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { integrity?: string }> };
    const hashes = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/client'].map((name) => locked.packages[`node_modules/${name}`]!.integrity);
    // The package has no package-lock.json of its own; npm's node_modules/.package-lock.json in the project
    // that installed it names what it installed: the registry hashes the shipped baseline records.
    const sweep = await run(bin(), ['sweep', '--v1', '1.32.2', '--v2', '2.4.0'], project);
    expect(sweep.code, sweep.stdout + sweep.stderr).toBe(0);
    expect(sweep.stdout).toMatch(/Compared with .*results\/sweep-baseline\.json: 2 matched, 63 unchecked release\(s\)/);
    expect(sweep.stdout).not.toContain('integrity unknown');
    expect(sweepResult()).toEqual(hashes);
    // Without that file (another package manager, a copied node_modules) the integrity is unknown: not a change.
    const hidden = join(project, 'node_modules', '.package-lock.json');
    renameSync(hidden, `${hidden}.away`);
    try {
      const unknown = await run(bin(), ['sweep', '--v1', '1.32.2', '--v2', '2.4.0'], project);
      expect(unknown.code, unknown.stdout + unknown.stderr).toBe(0);
      expect(unknown.stdout).toContain("2 releases' integrity unknown on one side (no lockfile where it ran): not compared, judged by behaviour alone");
      expect(unknown.stdout).not.toMatch(/changed v[12]@/);
      expect(sweepResult()).toEqual([null, null]);
    } finally {
      renameSync(`${hidden}.away`, hidden);
    }
  });

  it('refuses --update without --recorded: it would rewrite the recorded result inside the package', async () => {
    const update = await run(bin(), ['--update'], project);
    expect(update.code).toBe(2);
    expect(update.stderr).toContain('--recorded FILE');
  });

  it('is a typed library: a strict TypeScript consumer typechecks against the shipped types (no skipLibCheck)', async () => {
    writeFileSync(join(project, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [] },
        files: ['consumer.ts'],
      }),
    );
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], project);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.code).toBe(0);
    // A wrong use must not typecheck, or the test above proves nothing.
    writeFileSync(join(project, 'consumer.ts'), `${CONSUMER}\nawait runMatrix('everything');\n`);
    const wrong = await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], project);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toContain("'\"everything\"'");
  });

  it('runs from code: the audit in the pool matches the shipped recorded result, a replay runs in-process', async () => {
    writeFileSync(join(project, 'use.mjs'), USE);
    const use = await run(process.execPath, ['use.mjs'], project);
    expect(use.stderr).toBe('');
    expect(use.code).toBe(0);
    expect(JSON.parse(use.stdout)).toEqual({ passed: 13, failed: 0, matched: 13, replayed: 4, last: '13 passed, 0 failed', junit: true });
  });

  it('runs a server author\'s vitest suite: captureTool and the matchers from the installed package, the server in memory and over stdio', async () => {
    // The example server (examples/weather-server/) as its author would ship it: plain JavaScript.
    for (const entry of ['server', 'stdio']) {
      await build({ entryPoints: [join(ROOT, 'examples', 'weather-server', `${entry}.ts`)], outfile: join(project, `${entry}.mjs`), bundle: true, packages: 'external', platform: 'node', format: 'esm', logLevel: 'error' });
    }
    writeFileSync(join(project, 'weather.test.ts'), SERVER_SUITE);
    const vitest = join(project, 'node_modules', '.bin', 'vitest');
    const suite = await run(vitest, ['run', 'weather.test.ts'], project);
    expect(suite.code, suite.stdout + suite.stderr).toBe(0);
    expect(suite.stdout).toMatch(/Tests +2 passed \(2\)/);
    // What the suite captured over stdio replays from the installed command with the same outcomes.
    const replay = await run(bin(), ['replay', 'unknown-city.json', '--expect', 'rejected:-32602', '--expect', 'v2/*=returned', '--expect', '*/cold=returned'], project);
    expect(replay.stderr).toBe(PEERS_LEFT_OUT);
    expect(replay.code).toBe(0);
    expect(replay.stdout.trimEnd().split('\n').at(-1)).toBe('4 passed, 0 failed');
  });

  it('a wrong claim in that suite fails it, with the per-client table in the failure', async () => {
    writeFileSync(join(project, 'wrong.test.ts'), WRONG_SUITE);
    const wrong = await run(join(project, 'node_modules', '.bin', 'vitest'), ['run', 'wrong.test.ts'], project);
    expect(wrong.code).toBe(1);
    const output = wrong.stdout + wrong.stderr;
    expect(output).toContain('expected the result of tool "get_forecast" from server "weather-example" over in-memory to be returned by v1, v2 (every warm case); what each client did:');
    expect(output).toMatch(/^ {2}v1 warm rejected -32602 {3}<- this one {2}MCP error -32602: Structured content does not match/m);
    expect(output).toMatch(/^ {2}v2 warm returned +ok$/m);
    expect(output).toMatch(/Tests +1 failed \(1\)/);
  });

  it('wrote nothing inside the installed package folder', () => {
    expect(listing(installed)).toEqual(before);
  });
});
