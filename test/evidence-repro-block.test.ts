// The Markdown evidence's Reproduce block (issue 21): pasted into an empty folder it writes the standalone
// reproduction, byte for byte what renderReproFolder makes, whatever the cases' data holds, and nothing
// else. Run here with sh in a temporary folder WITHOUT its last line (npm install: offline), then with the
// project's node_modules linked in its place, `node repro.mjs` must answer 1 (reproduced). The registry
// run of the whole block is test/releases/repro-install.test.ts.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { reproInputs } from '../probe/commands/repro.ts';
import type { ResultFile } from '../probe/core/domain.ts';
import type { ReleaseIdentity } from '../probe/core/release.ts';
import { captureEnvironment } from '../probe/io/environment.ts';
import { readCapture } from '../probe/io/capture.ts';
import { runMatrix } from '../probe/engine/run.ts';
import { REPRO_BLOCK_CASES, renderMarkdown, type EvidenceContext } from '../probe/render/markdown.ts';
import { renderReproFolder, REPRO_EXIT_LINE } from '../probe/render/repro.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { replayMatrix } from '../scenarios/replay.ts';
import { HOSTILE_STRINGS } from './helpers/hostile.ts';
import { pinnedPart, rejudged } from './helpers/pinned-run.ts';
import { ROOT } from './helpers/cli.ts';

const TIMEOUT_MS = 5000;
const context: EvidenceContext = { argv: ['--format', 'markdown'], git: { commit: '0123456789abcdef', dirty: false }, harness: { name: 'mcp-sdk-probe', version: '0.0.0' } };

/** The text of every fenced block of `language`, whatever its fence length. */
function fences(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^(`{3,})(\S*)\n([\s\S]*?)\n\1$/gm)].filter((m) => m[2] === language).map((m) => m[3]!);
}

/** The Reproduce section's standalone block (its first sh fence). */
function block(markdown: string): string {
  const section = markdown.slice(markdown.indexOf('\n## Reproduce\n'));
  return fences(section, 'sh')[0]!;
}

/** Every file under `dir` (node_modules aside), by path relative to it. */
function filesIn(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (name === 'node_modules') continue;
      if (statSync(path).isDirectory()) walk(path);
      else files[relative(dir, path)] = readFileSync(path, 'utf8');
    }
  };
  walk(dir);
  return files;
}

/** Runs the block with sh in a new empty folder, all but its npm line; returns the folder. */
function writeWithSh(text: string): string {
  const lines = text.split('\n');
  expect(lines.at(-1)).toMatch(/^if npm install --ignore-scripts --no-audit --no-fund; then node repro\.mjs; else .*\(exit 125\); fi$/);
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-block-'));
  execFileSync('/bin/sh', ['-c', lines.slice(0, -1).join('\n')], { cwd: dir });
  return dir;
}

function runNode(dir: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return new Promise((done) => {
    execFile(process.execPath, ['repro.mjs', ...args], { cwd: dir, timeout: 60_000 }, (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

const environment = captureEnvironment();
let passing: ResultFile;
beforeAll(() => {
  passing = pinnedPart(auditMatrix, environment);
});

describe('the audit evidence', () => {
  it('writes the first cases exactly as renderReproFolder does, names the rest, and reproduces', async () => {
    const reproduction = reproInputs(auditMatrix.scenarios, passing, TIMEOUT_MS);
    const markdown = renderMarkdown(passing, undefined, { ...context, reproduction });
    // Never a package that is not on the registry, never npx of a name anyone could register.
    expect(markdown).not.toMatch(/\bnpx\b/);
    expect(markdown).toContain(REPRO_EXIT_LINE);
    const dir = writeWithSh(block(markdown));
    const chosen = reproduction.slice(0, REPRO_BLOCK_CASES);
    expect(filesIn(dir)).toEqual(renderReproFolder(chosen));
    for (const left of reproduction.slice(REPRO_BLOCK_CASES)) expect(markdown).toContain(`\`${left.scenario.id}\``);
    expect(markdown).toContain(`--case ${reproduction[REPRO_BLOCK_CASES]!.scenario.id} --format repro --out repro`);
    const run = await runNode(dir);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      ...chosen.map((input) => expect.stringMatching(new RegExp(`^${input.scenario.id}: reproduced: the client \\{`))),
      `summary: ${REPRO_BLOCK_CASES} of ${REPRO_BLOCK_CASES} cases reproduced, 0 did not, 0 could not run`,
    ]);
    expect(run.code).toBe(1);
  }, 60_000);

  it('puts failed cases first', () => {
    const failing = rejudged(passing, { 'v2/warm/error-off-schema': { outcome: 'rejected', code: -32602 } });
    const markdown = renderMarkdown(failing, undefined, { ...context, reproduction: reproInputs(auditMatrix.scenarios, failing, TIMEOUT_MS) });
    expect(block(markdown)).toMatch(/^const CASES = \[\n {2}\[\n {4}"v2\/warm\/error-off-schema",/m);
  });

  it('without the reproduction inputs, says how to obtain the harness and never guesses a name', () => {
    const markdown = renderMarkdown(passing, undefined, context);
    expect(markdown).not.toMatch(/\bnpx\b/);
    expect(markdown).toContain('It is not on the npm registry: ask the reporter for its package tarball');
    expect(fences(markdown.slice(markdown.indexOf('\n## Reproduce\n')), 'sh')).toEqual(['node_modules/.bin/mcp-sdk-probe --format markdown']);
  });
});

describe('a local build', () => {
  it('the block says where the build goes and answers 125 until it is there, before npm runs', () => {
    const id = 'v1/warm/error-off-schema';
    const label = '1.33.0-beta.1+local.0123abcd';
    const build: ReleaseIdentity = { line: 'v1', packageName: '@modelcontextprotocol/sdk', version: '1.33.0-beta.1', label, source: 'tarball', integrity: 'sha512-BUILD' };
    const relabelled = { ...passing, cases: passing.cases.map((c) => (c.id === id ? { ...c, clientPackage: `@modelcontextprotocol/sdk@${label}` } : c)) };
    const reproduction = reproInputs(auditMatrix.scenarios.filter((s) => s.id === id), relabelled, TIMEOUT_MS, [build]);
    const markdown = renderMarkdown(relabelled, undefined, { ...context, reproduction });
    expect(markdown).toContain('put its package tarball (`npm pack`) at `build/sdk-client.tgz`');
    expect(markdown).toContain('tarball integrity `sha512-BUILD`');
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-block-build-'));
    // The whole block, npm line included: the missing build stops it before npm is run.
    const run = spawnSync('/bin/sh', ['-c', block(markdown)], { cwd: dir, encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([125, 'could not run: put the build at build/sdk-client.tgz first (see above)\n']);
    expect(readdirSync(dir).sort()).toEqual(['README.md', 'package.json', 'repro.mjs']);
  });
});

describe('a replay of a hostile capture', () => {
  it('writes exactly the files, whatever the tool, the result and the file name hold, and still reproduces', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-block-capture-'));
    const hostile = Object.values(HOSTILE_STRINGS).join(' ');
    // The data's line breaks reach the files as escapes, never as lines: a delimiter in the data cannot end
    // a here-document (shellHeredoc's own choice of delimiter is tested in test/escape.test.ts).
    const text = `${hostile}\nMCP_SDK_PROBE_EOF\n'MCP_SDK_PROBE_EOF'`;
    const file = join(dir, "cap'$(touch pwned)`touch pwned2`.json");
    writeFileSync(
      file,
      JSON.stringify({
        tool: { name: 'hostile_tool', description: text, inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { [text]: { type: 'string' } } } },
        result: { content: [{ type: 'text', text }], structuredContent: { [text]: text, 'MCP_SDK_PROBE_EOF': 'MCP_SDK_PROBE_EOF' } },
      }),
    );
    const capture = readCapture(file, 'capture.json');
    const matrix = replayMatrix(capture, "cap'$(touch pwned)`touch pwned2`.json", [], ['v1', 'v2']);
    const scenarios = matrix.scenarios.filter((s) => s.discovery === 'warm');
    const result = await runMatrix(matrix, scenarios, { timeoutMs: TIMEOUT_MS, environment });
    const reproduction = reproInputs(scenarios, result, TIMEOUT_MS);
    const markdown = renderMarkdown(result, undefined, { ...context, argv: ['replay', file, '--format', 'markdown'], reproduction });
    const out = writeWithSh(block(markdown));
    expect(filesIn(out)).toEqual(renderReproFolder(reproduction));
    const run = await runNode(out);
    expect(run.stdout).toMatch(/summary: 2 of 2 cases reproduced/);
    expect(run.code).toBe(1);
    expect(readdirSync(dir)).toEqual([readdirSync(dir)[0]]);
  }, 60_000);
});
