// --format repro and the Markdown evidence's Reproduce block, as a maintainer would run them: the
// generated folder, `npm install` from the real registry (nothing of this project), then `node repro.mjs`,
// which must answer 1 (reproduced; git bisect "bad"). Online and slow; runs under `npm run test:releases`
// (vitest.releases.config.ts), skipped otherwise. One install per folder, each folder used once.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { main, type CliIo } from '../../probe/commands/cli.ts';
import { reproInputs, writeReproFolder } from '../../probe/commands/repro.ts';
import { renderRepro } from '../../probe/render/repro.ts';
import { ResultFileSchema } from '../../probe/core/domain.ts';
import { auditMatrix } from '../../scenarios/audit.ts';
import { ROOT } from '../helpers/cli.ts';

const CAPTURE = join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-repro-install-'));
});

function run(command: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(command, args, { cwd, timeout: 280_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function cliIo(): { io: CliIo; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = {
    stdout: (text) => void (out.stdout += text),
    stderr: (text) => void (out.stderr += text),
    // Keep the default result JSON out of the checkout.
    env: { MCP_SDK_PROBE_RESULTS_DIR: join(base, 'results'), CI: '' },
    cwd: base,
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  return { io, out };
}

async function generate(argv: string[], name: string): Promise<string> {
  const dir = join(base, name);
  const { io, out } = cliIo();
  const code = await main([...argv, '--format', 'repro', '--out', dir], io);
  expect(out.stderr).toContain('Standalone reproduction written');
  expect(code).toBe(0);
  return dir;
}

async function installAndRun(dir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const install = await run(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund'], dir);
  expect(install.stderr.includes('ERR!') ? install.stderr : '', 'npm install').toBe('');
  expect(install.code).toBe(0);
  return run(process.execPath, ['repro.mjs'], dir);
}

/** The text of every fenced block of `language`, whatever its fence length. */
function fences(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^(`{3,})(\S*)\n([\s\S]*?)\n\1$/gm)].filter((m) => m[2] === language).map((m) => m[3]!);
}

describe.skipIf(!process.env.MCP_SDK_PROBE_RELEASE_TESTS)('a repro folder installs from the registry and reproduces', () => {
  it.each([
    ['a v2 audit case', ['--case', 'v2/warm/off-schema-success'], 'v2-audit'],
    ['a replay case', ['replay', CAPTURE, '--case', 'v2/warm/error-with-structured-content'], 'replay'],
  ])('%s', async (_name, argv, folder) => {
    const dir = await generate(argv, folder);
    const repro = await installAndRun(dir);
    // Exactly the pinned versions were installed.
    const pinned = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies as Record<string, string>;
    for (const [name, version] of Object.entries(pinned)) {
      expect(JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version, name).toBe(version);
    }
    expect(repro.stderr).toMatch(/^reproduced: /);
    expect(repro.code).toBe(1);
    expect(repro.stdout.trimEnd().split('\n')).toHaveLength(1);
  });

  it('the Markdown evidence of a --v1 1.31.0 run: its Reproduce block, pasted into an empty folder with sh, reproduces (an npm alias beside the pinned SDK)', async () => {
    const evidence = join(base, 'evidence.md');
    const { io } = cliIo();
    // Exit 0 or 1 by the comparison with the recorded result; the evidence is written either way.
    expect([0, 1]).toContain(await main(['--v1', '1.31.0', '--case', 'v1/warm/error-off-schema', '--case', 'v2/warm/error-off-schema', '--format', 'markdown', '--out', evidence], io));
    const markdown = readFileSync(evidence, 'utf8');
    expect(markdown).not.toMatch(/\bnpx\b/);
    const section = markdown.slice(markdown.indexOf('\n## Reproduce\n'));
    const block = fences(section, 'sh')[0]!;
    const empty = join(base, 'empty');
    mkdirSync(empty);
    const pasted = await run('/bin/sh', ['-c', block], empty);
    expect(JSON.parse(readFileSync(join(empty, 'package.json'), 'utf8')).dependencies).toMatchObject({
      '@modelcontextprotocol/sdk': '1.32.2',
      'sdk-client': 'npm:@modelcontextprotocol/sdk@1.31.0',
    });
    expect(JSON.parse(readFileSync(join(empty, 'node_modules', 'sdk-client', 'package.json'), 'utf8')).version).toBe('1.31.0');
    expect(pasted.stdout).toMatch(/^v1\/warm\/error-off-schema: reproduced: /m);
    expect(pasted.stdout).toMatch(/^v2\/warm\/error-off-schema: reproduced: /m);
    expect(pasted.stdout).toContain('summary: 2 of 2 cases reproduced, 0 did not, 0 could not run');
    expect(pasted.code).toBe(1);
  });

  it('a packed tarball build: the folder installs it from build/ under an alias, named by its integrity', async () => {
    const packs = join(base, 'packs');
    mkdirSync(packs);
    const packed = await run(npm, ['pack', join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk'), '--pack-destination', packs, '--ignore-scripts', '--silent'], base);
    expect(packed.code).toBe(0);
    const tarball = join(packs, packed.stdout.trim().split('\n').at(-1)!);
    const dir = await generate(['--v1', tarball, '--case', 'v1/warm/error-off-schema'], 'tarball');
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    expect(readme).toContain(`tarball integrity \`${integrity}\``);
    expect(readme).not.toContain(base);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies['sdk-client']).toBe('file:./build/sdk-client.tgz');
    // Before the build is in place, npm install fails: the evidence block makes that 125.
    expect((await run('/bin/sh', ['-c', "if npm install --ignore-scripts --no-audit --no-fund; then node repro.mjs; else (exit 125); fi"], dir)).code).toBe(125);
    mkdirSync(join(dir, 'build'));
    copyFileSync(tarball, join(dir, 'build', 'sdk-client.tgz'));
    const repro = await installAndRun(dir);
    expect(repro.stderr).toMatch(/^reproduced: /);
    expect(repro.code).toBe(1);
  });

  it('a server-side case: a --server-v1 sweep release as the fixture server, aliased beside the pinned v1 client', async () => {
    const out = join(base, 'server-sweep.json');
    const { io } = cliIo();
    expect(await main(['sweep', '--server-v1', '1.23.1', '--out', out], io)).toBe(0);
    const sweep = JSON.parse(readFileSync(out, 'utf8')) as { releases: { status: string; release: Parameters<typeof renderRepro>[0]['serverRelease']; cases: unknown[] }[] };
    const ran = sweep.releases.find((r) => r.status === 'ran')!;
    const result = ResultFileSchema.parse({ ...JSON.parse(readFileSync(join(ROOT, 'results', 'recorded.json'), 'utf8')), cases: ran.cases });
    const scenario = auditMatrix.scenarios.find((s) => s.id === 'v1/warm/error-off-schema')!;
    const [input] = reproInputs([scenario], result, 5000);
    const dir = join(base, 'server-side');
    writeReproFolder(dir, renderRepro({ ...input!, serverRelease: ran.release! }));
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies['sdk-server']).toBe('npm:@modelcontextprotocol/sdk@1.23.1');
    const repro = await installAndRun(dir);
    expect(JSON.parse(readFileSync(join(dir, 'node_modules', 'sdk-server', 'package.json'), 'utf8')).version).toBe('1.23.1');
    expect(repro.stderr).toMatch(/^reproduced: /);
    expect(repro.code).toBe(1);
    expect(readdirSync(dir)).toContain('node_modules');
  });
});
