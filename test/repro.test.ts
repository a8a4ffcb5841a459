// --format repro: the standalone reproduction folder. Each generated repro.mjs is RUN here, offline,
// against this project's installed packages (node_modules linked into the folder, nothing installed),
// and must print the recorded observation and exit 1 (reproduced: git bisect "bad"); a tampered
// expectation must make it exit 0, a missing package 125 (could not run), and --until-fixed swaps 0 and 1.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditMatrix } from '../scenarios/audit.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';
import { replayMatrix } from '../scenarios/replay.ts';
import { main, type CliIo } from '../probe/commands/cli.ts';
import { reproFiles } from '../probe/commands/repro.ts';
import type { Matrix, ResultFile, Scenario } from '../probe/core/domain.ts';
import { InputError } from '../probe/core/errors.ts';
import { readCapture } from '../probe/io/capture.ts';
import { captureEnvironment } from '../probe/io/environment.ts';
import { runMatrix } from '../probe/engine/run.ts';
import { printedObservation, renderRepro, REPRO_EXIT_LINE, REPRO_SEVERAL_LINE, reproUnsupported } from '../probe/render/repro.ts';
import { ROOT } from './helpers/cli.ts';

const TIMEOUT_MS = 5000;
const CAPTURE = join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json');
const CHECKOUT_LATEST = join(ROOT, 'results', 'latest.json');

let base: string;
const environment = captureEnvironment();

/**
 * `npm test` runs a representative few (each repro is a Node process: ~1 s); `npm run test:repro-all`
 * (MCP_SDK_PROBE_REPRO_ALL=1, run by .ci/run) runs every audit and replay case and the whole list below.
 */
const ALL = process.env.MCP_SDK_PROBE_REPRO_ALL === '1';
const AUDIT_FEW = ['v1/warm/conforming-success', 'v2/warm/conforming-success', 'v2/warm/off-schema-success', 'v1/warm/error-off-schema', 'v1/cold/error-off-schema'];
const EXTENDED_FEW = [
  'v2/definition/off-schema-success',
  'v1/changed/schema-widened-off-schema-success',
  'v1/warm/success-structured-null',
  'v1/warm/schema-bad-pattern',
  'v1/warm/v1-mcp-server-off-schema-success',
  'v1/warm/v2-mcp-server-invalid-arguments',
  'v2/warm/fault-never-answers-client-timeout',
  'v2/warm/modern-era-string-off-schema',
  'v1/warm/stdio-off-schema-success',
  'v1/warm/http-error-off-schema',
];

/** One case of each extended family, and each discovery mode, fault and server kind the generator writes. */
const EXTENDED_ALL = [
  'v2/cold/off-schema-success',
  'v2/definition/off-schema-success',
  'v1/all-pages/paged-off-schema-success',
  'v2/one-page/paged-off-schema-success',
  'v1/changed/schema-widened-off-schema-success',
  'v2/changed/schema-widened-off-schema-success',
  'v1/warm/success-structured-null',
  'v2/warm/error-structured-nested-extra',
  'v1/warm/wrapped-success-structured-string',
  'v1/warm/schema-bad-pattern',
  'v2/warm/schema-draft-04-dialect',
  'v1/warm/v1-mcp-server-off-schema-success',
  'v2/warm/v2-mcp-server-error-off-schema',
  'v1/warm/v2-mcp-server-invalid-arguments',
  'v2/warm/v1-mcp-server-unknown-tool',
  'v1/warm/low-level-handler-throws',
  'v1/warm/fault-close-mid-call',
  'v2/warm/fault-never-answers-client-timeout',
  'v1/warm/fault-never-answers',
  'v2/warm/fault-malformed-answer',
  'v1/warm/fault-answer-wrong-id',
  'v2/warm/modern-era-string-off-schema',
  'v2/warm/legacy-era-number-conforming',
  'v1/warm/stdio-off-schema-success',
  'v2/warm/stdio-error-off-schema',
  'v1/warm/http-error-off-schema',
  'v2/warm/http-success-without-structured',
];
const EXTENDED_IDS = ALL ? EXTENDED_ALL : EXTENDED_FEW;

interface Ran {
  readonly scenario: Scenario;
  readonly result: ResultFile;
}
const ran = new Map<string, Ran>();

async function runAll(matrix: Matrix, scenarios: readonly Scenario[]): Promise<void> {
  const result = await runMatrix(matrix, scenarios, { timeoutMs: TIMEOUT_MS, environment });
  for (const scenario of scenarios) ran.set(scenario.id, { scenario, result });
}

function writeFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(base, 'case-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  // The project's installed packages stand in for `npm install`: Node resolves the pinned names there.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function runRepro(dir: string, args: readonly string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['repro.mjs', ...args], { cwd: dir, timeout: 30_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Runs `work` over `items`, a few at a time (each repro is a Node process of its own). */
async function pool<T, R>(items: readonly T[], work: (item: T) => Promise<R>, size = 6): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

function captured(): { stdout: string; stderr: string; io: CliIo } {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
    // The default result JSON goes here, not into the checkout's results/.
    env: { MCP_SDK_PROBE_RESULTS_DIR: join(base, 'results'), CI: '' },
    cwd: base,
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  return Object.assign(out, { io });
}

const checkoutLatest = () => (existsSync(CHECKOUT_LATEST) ? statSync(CHECKOUT_LATEST).mtimeMs : 'absent');

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-repro-'));
  const capture = readCapture(CAPTURE, 'error-with-structured-content.json');
  const replay = replayMatrix(capture, 'error-with-structured-content.json', []);
  const extended = EXTENDED_IDS.map((id) => {
    const scenario = extendedMatrix.scenarios.find((s) => s.id === id);
    if (!scenario) throw new Error(`no extended case ${id}`);
    return scenario;
  });
  await runAll(auditMatrix, ALL ? auditMatrix.scenarios : auditMatrix.scenarios.filter((s) => AUDIT_FEW.includes(s.id)));
  // The repro script drives the SDK lines (the ecosystem lines have none: reproUnsupported says so).
  await runAll(replay, ALL ? replay.scenarios.filter((s) => s.client === 'v1' || s.client === 'v2') : replay.scenarios.filter((s) => s.client === 'v2' && s.discovery === 'warm'));
  await runAll(extendedMatrix, extended);
}, 120_000);

describe('repro.mjs reproduces the recorded observation, run offline against the installed packages', () => {
  it('covers one case of each extended family (and, in the full run, every audit and replay case)', () => {
    const families = new Set(extendedMatrix.scenarios.map((s) => s.family));
    const covered = new Set(EXTENDED_IDS.map((id) => ran.get(id)!.scenario.family));
    expect(covered).toEqual(families);
    expect(ran.size).toBe(ALL ? 13 + 4 + EXTENDED_IDS.length : AUDIT_FEW.length + 1 + EXTENDED_IDS.length);
  });

  it('exits 1 (reproduced) and prints the recorded observation, for each case', async () => {
    const cases = [...ran.values()];
    const runs = await pool(cases, async ({ scenario, result }) => {
      const files = reproFiles(scenario, result, TIMEOUT_MS);
      const run = await runRepro(writeFolder(files));
      const record = result.cases.find((c) => c.id === scenario.id)!;
      return { id: scenario.id, code: run.code, printed: run.stdout, stderr: run.stderr, expected: printedObservation(record.observed) };
    });
    for (const run of runs) {
      expect({ id: run.id, code: run.code, stderr: run.stderr.startsWith('reproduced: the client ') ? '' : run.stderr }).toEqual({ id: run.id, code: 1, stderr: '' });
      const lines = run.printed.trimEnd().split('\n');
      expect(lines, run.id).toHaveLength(1);
      const printed = JSON.parse(lines[0]!) as Record<string, unknown>;
      // Same outcome and, per outcome, the fields the check compares (the message wording may differ).
      expect(printed.outcome, run.id).toBe(run.expected.outcome);
      if (printed.outcome === 'returned') {
        expect({ isError: printed.isError, structuredContent: printed.structuredContent }, run.id).toStrictEqual({
          isError: run.expected.isError,
          structuredContent: run.expected.structuredContent,
        });
      }
      if (printed.outcome === 'rejected' || printed.outcome === 'crashed') {
        const { name, code } = printed.error as { name: string; code: unknown };
        const expected = run.expected.error as { name: string; code: unknown };
        expect({ name, code, stage: printed.stage }, run.id).toEqual({ name: expected.name, code: expected.code, stage: run.expected.stage });
      }
    }
  }, 180_000);

  it('exits 0 when the recorded observation is not what happens (the check can fail), 1 then with --until-fixed', async () => {
    const { scenario, result } = ran.get('v2/warm/off-schema-success')!;
    const files = reproFiles(scenario, result, TIMEOUT_MS);
    const script = files['repro.mjs']!;
    expect(script).toContain('const EXPECTED = {\n  "outcome": "rejected"');
    const tampered = script.replace('const EXPECTED = {\n  "outcome": "rejected"', 'const EXPECTED = {\n  "outcome": "returned"');
    const folder = writeFolder({ ...files, 'repro.mjs': tampered });
    const run = await runRepro(folder);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).outcome).toBe('rejected');
    expect(run.stderr).toMatch(/^not reproduced: the client \{"outcome":"rejected".*; the probe recorded \{"outcome":"returned"/);
    // --until-fixed: "the behaviour is gone" is the bisect's "bad" (1); still present is "good" (0).
    expect((await runRepro(folder, ['--until-fixed'])).code).toBe(1);
    expect((await runRepro(writeFolder(files), ['--until-fixed'])).code).toBe(0);

    // A returned case whose recorded structuredContent differs fails too.
    const other = ran.get('v1/warm/conforming-success')!;
    const returnedFiles = reproFiles(other.scenario, other.result, TIMEOUT_MS);
    const changed = returnedFiles['repro.mjs']!.replace(/(const EXPECTED = \{[^;]*"value": )7/, '$18');
    expect(changed).not.toBe(returnedFiles['repro.mjs']);
    expect((await runRepro(writeFolder({ ...returnedFiles, 'repro.mjs': changed }))).code).toBe(0);
  }, 60_000);

  it('exits 125 (could not run) when a package is missing or lacks an export, or the server cannot start', async () => {
    const { scenario, result } = ran.get('v1/warm/conforming-success')!;
    const files = reproFiles(scenario, result, TIMEOUT_MS);
    // No node_modules at all: nothing installed.
    const bare = mkdtempSync(join(base, 'bare-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(bare, name), text);
    const missing = await runRepro(bare);
    expect([missing.code, missing.stdout]).toEqual([125, '']);
    expect(missing.stderr).toMatch(/^could not run: cannot import @modelcontextprotocol\/sdk\/server\/index\.js \(/);
    // An export a release does not have (an older SDK without it) is could not run too, not a crash.
    const renamed = files['repro.mjs']!.replace(`["Server"]`, `["ServerThatNeverWas"]`);
    expect(renamed).not.toBe(files['repro.mjs']);
    const noExport = await runRepro(writeFolder({ ...files, 'repro.mjs': renamed }));
    expect([noExport.code, noExport.stderr]).toEqual([125, 'could not run: @modelcontextprotocol/sdk/server/index.js has no export ServerThatNeverWas\n']);
    // A server that cannot start (its connect throws) is could not run, with --until-fixed as well.
    const broken = files['repro.mjs']!.replace('  await server.connect(serverTransport);', "  throw new Error('no server today');");
    expect(broken).not.toBe(files['repro.mjs']);
    const dir = writeFolder({ ...files, 'repro.mjs': broken });
    for (const args of [[], ['--until-fixed']]) {
      const run = await runRepro(dir, args);
      expect([run.code, run.stderr]).toEqual([125, 'could not run: cannot start the server: no server today\n']);
    }
    // An error no part of the script catches (Node would exit 1, "reproduced") is could not run as well.
    const stray = files['repro.mjs']!.replace('await reproduce(connectTransport);', "setTimeout(() => { throw new Error('stray'); });\nPromise.reject(new Error('stray rejection'));");
    expect(stray).not.toBe(files['repro.mjs']);
    const strayRun = await runRepro(writeFolder({ ...files, 'repro.mjs': stray }));
    expect([strayRun.code, strayRun.stderr]).toEqual([125, 'could not run: unexpected rejection: stray rejection\n']);
  }, 60_000);
});

describe('the generated folder', () => {
  it('is the same bytes for the same case run twice, and names nothing of this machine', async () => {
    const scenario = auditMatrix.scenarios.find((s) => s.id === 'v1/cold/error-off-schema')!;
    const again = await runMatrix(auditMatrix, [scenario], { timeoutMs: TIMEOUT_MS, environment: captureEnvironment() });
    const first = reproFiles(scenario, ran.get(scenario.id)!.result, TIMEOUT_MS);
    expect(reproFiles(scenario, again, TIMEOUT_MS)).toEqual(first);
    for (const [id, { scenario: s, result }] of ran) {
      for (const [name, text] of Object.entries(reproFiles(s, result, TIMEOUT_MS))) {
        expect(text, `${id} ${name}`).not.toContain(ROOT);
        expect(text, `${id} ${name}`).not.toContain(tmpdir());
        expect(text, `${id} ${name}`).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:/);
      }
    }
  });

  it('pins exactly the packages the case used, at the versions that ran, with zod as the v1 SDK peer', () => {
    const deps = (id: string) => {
      const { scenario, result } = ran.get(id)!;
      return JSON.parse(reproFiles(scenario, result, TIMEOUT_MS)['package.json']!) as { type: string; private: boolean; scripts: unknown; dependencies: Record<string, string> };
    };
    const p = environment.packages;
    const v1 = deps('v1/warm/conforming-success');
    expect(v1).toMatchObject({ type: 'module', private: true, scripts: { start: 'node repro.mjs' } });
    expect(v1.dependencies).toEqual({ '@modelcontextprotocol/sdk': p['@modelcontextprotocol/sdk'], zod: p.zod });
    expect(deps('v2/warm/conforming-success').dependencies).toEqual({
      '@modelcontextprotocol/client': p['@modelcontextprotocol/client'],
      '@modelcontextprotocol/sdk': p['@modelcontextprotocol/sdk'],
      zod: p.zod,
    });
    expect(Object.keys(deps('v2/warm/modern-era-string-off-schema').dependencies)).toEqual(['@modelcontextprotocol/client', '@modelcontextprotocol/server']);
    expect(Object.keys(deps('v1/warm/v2-mcp-server-invalid-arguments').dependencies)).toEqual(['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'zod']);
  });

  it('refuses, with a reason, a case the harness alone can run', () => {
    const base = auditMatrix.scenarios[0]!;
    expect(reproUnsupported({ ...base, discovery: 'definition' })).toMatch(/v1 client has no callTool toolDefinition/);
    expect(reproUnsupported({ ...base, transport: 'stdio', server: { kind: 'hang' } })).toMatch(/stdio fixture answers with a plain result only/);
    expect(reproUnsupported({ ...base, client: 'ai-sdk', discovery: 'tools-automatic' })).toMatch(/the ai-sdk client line has no standalone reproduction script/);
    expect(reproUnsupported({ ...base, client: 'langchain', discovery: 'load-tools' })).toMatch(/the langchain client line has no standalone reproduction script/);
    const record = ran.get(base.id)!.result.cases.find((c) => c.id === base.id)!;
    expect(() => renderRepro({ scenario: { ...base, discovery: 'definition' }, record, packages: environment.packages, timeoutMs: TIMEOUT_MS })).toThrow(InputError);
    // A local build the run does not know the identity of (source, integrity) cannot be named.
    expect(() => renderRepro({ scenario: base, record: { ...record, clientPackage: '@modelcontextprotocol/sdk@1.32.2+local.abc' }, packages: environment.packages, timeoutMs: TIMEOUT_MS })).toThrow(
      /a local build whose source and integrity this run does not know/,
    );
  });
});

describe('mcp-sdk-probe --format repro (in-process CLI)', () => {
  it('writes the folder for one audit case, the result JSON to the default path, and the repro runs', async () => {
    const before = checkoutLatest();
    const out = join(base, 'cli-audit');
    const run = captured();
    const code = await main(['--format', 'repro', '--case', 'v1/warm/error-off-schema', '--out', out], run.io);
    expect(run.stderr).toContain('Standalone reproduction written to cli-audit');
    expect(code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['README.md', 'package.json', 'repro.mjs']);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('npm install --ignore-scripts --no-audit --no-fund && node repro.mjs');
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain(REPRO_EXIT_LINE);
    expect(JSON.parse(readFileSync(join(base, 'results', 'latest.json'), 'utf8')).cases.map((c: { id: string }) => c.id)).toEqual(['v1/warm/error-off-schema']);
    expect(checkoutLatest()).toBe(before);
    symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
    const repro = await runRepro(out);
    expect(repro.code).toBe(1);
    expect(JSON.parse(repro.stdout)).toMatchObject({ outcome: 'rejected', error: { name: 'McpError', code: -32602 } });
  });

  it('writes one folder for several cases: one script each, repro.mjs answering for all by the several-case rule', async () => {
    const out = join(base, 'cli-several');
    const run = captured();
    expect(await main(['--format', 'repro', '--case', 'v1/warm/error-off-schema', '--case', 'v2/warm/off-schema-success', '--case', 'v1/warm/conforming-success', '--out', out], run.io)).toBe(0);
    const ids = ['v1/warm/conforming-success', 'v2/warm/off-schema-success', 'v1/warm/error-off-schema'];
    expect(readdirSync(join(out, 'cases')).sort()).toEqual(ids.map((id) => `${id.replaceAll('/', '.')}.mjs`).sort());
    expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8')).dependencies).toEqual({
      '@modelcontextprotocol/client': environment.packages['@modelcontextprotocol/client'],
      '@modelcontextprotocol/sdk': environment.packages['@modelcontextprotocol/sdk'],
      zod: environment.packages.zod,
    });
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain(REPRO_SEVERAL_LINE);
    symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
    const all = await runRepro(out);
    expect(all.stdout.trimEnd().split('\n')).toEqual([...ids.map((id) => expect.stringMatching(new RegExp(`^${id}: reproduced: the client \\{`))), 'summary: 3 of 3 cases reproduced, 0 did not, 0 could not run']);
    expect(all.code).toBe(1);
    expect((await runRepro(out, ['--until-fixed'])).code).toBe(0);
    // Each case script runs alone too, with the helpers of lib.mjs.
    expect(readdirSync(out).sort()).toEqual(['README.md', 'cases', 'lib.mjs', 'node_modules', 'package.json', 'repro.mjs']);
    const alone = await new Promise<number>((done) => execFile(process.execPath, [join('cases', `${ids[2]!.replaceAll('/', '.')}.mjs`)], { cwd: out }, (error) => done(error ? Number(error.code) : 0)));
    expect(alone).toBe(1);
    // Mixed: one case no longer shows its recorded behaviour. At least one does: still 1 (bad).
    const tamper = (id: string) => {
      const path = join(out, 'cases', `${id.replaceAll('/', '.')}.mjs`);
      const text = readFileSync(path, 'utf8');
      const changed = text.replace(/const EXPECTED = \{\n {2}"outcome": "(returned|rejected)"/, (_all, outcome: string) => `const EXPECTED = {\n  "outcome": "${outcome === 'returned' ? 'rejected' : 'returned'}"`);
      expect(changed).not.toBe(text);
      writeFileSync(path, changed);
    };
    tamper(ids[0]!);
    const mixed = await runRepro(out);
    expect(mixed.stdout).toContain(`${ids[0]}: not reproduced: `);
    expect(mixed.stdout).toContain('summary: 2 of 3 cases reproduced, 1 did not, 0 could not run');
    // Mixed: 0 (good): the recorded state is not all there; --until-fixed 1: one behaviour has gone away. A
    // case that reproduces in every release (a conforming success) cannot make every commit bad.
    expect(mixed.code).toBe(0);
    expect((await runRepro(out, ['--until-fixed'])).code).toBe(1);
    // None: 0 (good), and --until-fixed 1: every recorded behaviour is gone.
    tamper(ids[1]!);
    tamper(ids[2]!);
    const none = await runRepro(out);
    expect(none.stdout).toContain('summary: 0 of 3 cases reproduced, 3 did not, 0 could not run');
    expect(none.code).toBe(0);
    expect((await runRepro(out, ['--until-fixed'])).code).toBe(1);
    // A case that could not run makes the whole answer 125, whatever the others say.
    writeFileSync(join(out, 'cases', `${ids[0]!.replaceAll('/', '.')}.mjs`), "await import('no-such-package-anywhere');\n");
    const broken = await runRepro(out);
    expect(broken.stdout).toContain(`${ids[0]}: could not run: the script ended with 1`);
    expect(broken.code).toBe(125);
  }, 60_000);

  it('writes the folder for one replay case into an existing empty folder', async () => {
    const out = join(base, 'cli-replay');
    mkdirSync(out);
    const run = captured();
    const code = await main(['replay', CAPTURE, '--format', 'repro', '--case', 'v2/cold/error-with-structured-content', '--out', out], run.io);
    expect(run.stderr).toContain('Standalone reproduction written');
    expect(code).toBe(0);
    expect(readFileSync(join(out, 'repro.mjs'), 'utf8')).toContain('// No discovery: the client calls a tool it has never listed.');
    expect(existsSync(join(base, 'results', 'replay-latest.json'))).toBe(true);
  });

  it.each([
    ['no --out', ['--format', 'repro', '--case', 'v1/warm/conforming-success'], /--format repro needs --out/],
    ['no case', ['--format', 'repro', '--case', 'no-such-case', '--out', 'x'], /matches no case/],
    [
      'a replay without --case (its ecosystem lines have no script)',
      ['replay', CAPTURE, '--format', 'repro', '--out', 'x'],
      /case [a-z-]+\/[a-z-]+\/error-with-structured-content cannot be reproduced standalone: the [a-z-]+ client line has no standalone reproduction script \(--case selects 9 cases; narrow it to those that can\)/,
    ],
    ['a replay --case matching nothing', ['replay', CAPTURE, '--format', 'repro', '--case', 'v3/*', '--out', 'x'], /matches no case of this replay/],
  ])('exits 2 on %s, writing nothing', async (_name, argv, message) => {
    const run = captured();
    expect(await main(argv, run.io)).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(existsSync(join(base, 'x'))).toBe(false);
  }, 60_000);

  it('writes data that would act on a terminal, or end a comment line, as escapes: repro.mjs shows nothing live and still reproduces', async () => {
    // U+2028 ends a `//` line in JavaScript; C1 CSI and bidi overrides act on a terminal showing the file.
    const hostile = 'x\u2028process.exit(0)//\u009b2J\u202eabc\u007f';
    const capture = join(base, 'hostile-capture.json');
    writeFileSync(capture, JSON.stringify({ name: 'hostile', tool: { name: 'hostile', inputSchema: { type: 'object' } }, result: { content: [{ type: 'text', text: hostile }], structuredContent: { [hostile]: hostile } } }));
    const out = join(base, 'cli-hostile');
    const run = captured();
    expect(await main(['replay', capture, '--format', 'repro', '--case', 'v2/warm/hostile', '--out', out], run.io)).toBe(0);
    for (const name of ['repro.mjs', 'README.md', 'package.json']) {
      expect(readFileSync(join(out, name), 'utf8'), name).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    }
    symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
    const repro = await runRepro(out);
    expect(repro.code, repro.stderr).toBe(1);
    expect(JSON.parse(repro.stdout)).toMatchObject({ outcome: 'returned', structuredContent: { [hostile]: hostile } });
    // The verdict line quotes the data, with nothing in it live on a terminal.
    expect(repro.stderr).toMatch(/^reproduced: the client /);
    expect(repro.stderr.trimEnd()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
  });

  it('exits 2 and leaves the files alone when --out is not empty, or is a file', async () => {
    const out = join(base, 'not-empty');
    mkdirSync(out);
    writeFileSync(join(out, 'mine.txt'), 'keep me');
    const run = captured();
    expect(await main(['--format', 'repro', '--case', 'v1/warm/conforming-success', '--out', out], run.io)).toBe(2);
    expect(run.stderr).toMatch(/the folder is not empty; --format repro never overwrites files/);
    expect(readdirSync(out)).toEqual(['mine.txt']);
    expect(readFileSync(join(out, 'mine.txt'), 'utf8')).toBe('keep me');
    const file = join(base, 'a-file');
    writeFileSync(file, 'x');
    const again = captured();
    expect(await main(['--format', 'repro', '--case', 'v1/warm/conforming-success', '--out', file], again.io)).toBe(2);
    expect(again.stderr).toMatch(/exists and is not a folder/);
  });
});
