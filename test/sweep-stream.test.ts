// A sweep as it goes, without the npm registry: --ndjson lines leave as each release finishes, every
// finished release is journalled beside the output, a killed sweep resumes with --resume into exactly the
// output an uninterrupted sweep writes, and a warm sweep resolves its ranges from a fresh cached version
// list without asking the registry. (The same over real published releases, counting their loads, is in
// test/releases/sweep.test.ts.)
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SweepNdjsonLineSchema } from '../probe/sweep/files.ts';
import { LAUNCHER, ROOT, runCli } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

// Two releases (the pinned ones, no registry needed), the edge-values family's warm cases: a few seconds
// each, so a kill lands between the first release and the end.
const SWEEP = ['sweep', '--v1', '1.32.2', '--v2', '2.4.0', '--matrix', 'extended', '--case', '*/warm/*-structured-*', '--jobs', '1'];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-stream-'));
});

function journalLines(path: string): number {
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').length - 1 : 0;
}

/**
 * The shipped command, killed (SIGKILL: no clean-up of any kind) once its journal holds `releases`
 * releases and it has printed something (the two are written one after the other).
 */
async function killedSweep(args: string[], journal: string, releases: number): Promise<{ stdout: string; journalled: number }> {
  const child = spawn(process.execPath, [LAUNCHER, ...args], { cwd: ROOT, env: { ...process.env, CI: '' }, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  // 'close', not 'exit': what the child wrote before it died is read to the end first.
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const started = Date.now();
  // The header is line 1.
  while ((journalLines(journal) < releases + 1 || stdout === '') && Date.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 10));
  child.kill('SIGKILL');
  await exited;
  return { stdout, journalled: journalLines(journal) - 1 };
}

describe('sweep --ndjson and --resume', () => {
  it('a sweep killed midway resumes into the output an uninterrupted sweep writes, running only the releases it lacks', async () => {
    const whole = join(dir, 'whole.json');
    const uninterrupted = await runCli([...SWEEP, '--ndjson', '--out', whole, '--baseline', join(dir, 'none.json')]);
    expect(uninterrupted.code).toBe(0);
    expect(existsSync(`${whole}.journal.ndjson`)).toBe(false);

    const out = join(dir, 'resumed.json');
    const journal = `${out}.journal.ndjson`;
    writeFileSync(out, 'the previous result\n');
    const killed = await killedSweep([...SWEEP, '--ndjson', '--out', out, '--baseline', join(dir, 'none.json')], journal, 1);
    // Killed after the v1 release and before the v2 one finished.
    expect(killed.journalled).toBe(1);
    // The output file is as it was: only a whole result ever replaces it.
    expect(readFileSync(out, 'utf8')).toBe('the previous result\n');
    // --ndjson streamed: the first release's case lines were on stdout before the sweep ended (no summary yet).
    const streamed = killed.stdout.split('\n').filter(Boolean).map((line) => SweepNdjsonLineSchema.parse(JSON.parse(line)));
    expect(streamed).toHaveLength(20);
    expect(streamed.every((line) => line.type === 'case' && line.release.label === '1.32.2')).toBe(true);
    expect(uninterrupted.stdout.startsWith(killed.stdout)).toBe(true);

    // A journal of another sweep is refused, with one line, and left alone: other ranges, another matrix.
    const before = readFileSync(journal, 'utf8');
    for (const other of [
      ['sweep', '--v2', '2.4.0', '--matrix', 'extended', '--case', '*/warm/*-structured-*'],
      ['sweep', '--v1', '1.32.2', '--v2', '2.4.0', '--case', '*/warm/*'],
      [...SWEEP, '--timeout', '4000'],
    ]) {
      const refused = await runMain([...other, '--resume', '--out', out, '--baseline', join(dir, 'none.json')]);
      expect(refused.code).toBe(2);
      expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(refused.stderr).toMatch(/the journal is of another sweep \(other ranges, matrix, cases, flags or releases\); run without --resume/);
    }
    expect(readFileSync(journal, 'utf8')).toBe(before);
    expect(readFileSync(out, 'utf8')).toBe('the previous result\n');

    // --jobs is not part of what a sweep is: the resume may use another number of workers.
    const resumed = await runMain([...SWEEP.slice(0, -2), '--jobs', '2', '--ndjson', '--resume', '--out', out, '--baseline', join(dir, 'none.json')]);
    expect(resumed.code).toBe(0);
    // Only the release the journal lacked ran (one progress line per release that ran).
    expect(resumed.stderr).toContain('resuming: 1 of 2 releases are in the journal');
    expect(resumed.stderr.split('\n').filter((line) => /^\[\d+\/\d+\] /.test(line))).toEqual([expect.stringMatching(/^\[1\/1\] v2@2\.4\.0 ran 16 cases in \d+ ms$/)]);
    // Byte for byte the uninterrupted sweep's output, the result JSON and the NDJSON alike; the journal has served.
    expect(readFileSync(out)).toEqual(readFileSync(whole));
    expect(resumed.stdout).toBe(uninterrupted.stdout);
    expect(existsSync(journal)).toBe(false);
  }, 180_000);

  it('NDJSON lines follow their schema: release order, every case of every release, then change points and the summary', async () => {
    const run = await runMain(['sweep', '--v1', '1.32.2', '--v2', '2.4.0', '--ndjson', '--out', join(dir, 'nd.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n').map((line) => SweepNdjsonLineSchema.parse(JSON.parse(line)));
    expect(lines.map((line) => (line.type === 'case' ? `${line.release.line}@${line.release.label} ${line.case.id}` : line.type))).toEqual([
      ...['conforming-success', 'off-schema-success', 'success-without-structured', 'error-text-only', 'error-off-schema', 'error-conforming'].map((s) => `v1@1.32.2 v1/warm/${s}`),
      'v1@1.32.2 v1/cold/error-off-schema',
      ...['conforming-success', 'off-schema-success', 'success-without-structured', 'error-text-only', 'error-off-schema', 'error-conforming'].map((s) => `v2@2.4.0 v2/warm/${s}`),
      'summary',
    ]);
    // The same records as the result JSON, key for key.
    const result = JSON.parse(readFileSync(join(dir, 'nd.json'), 'utf8'));
    const cases = lines.flatMap((line) => (line.type === 'case' ? [line.case] : []));
    expect(cases).toEqual(result.releases.flatMap((run: { cases: unknown[] }) => run.cases));
    // A line that is not of the format fails the schema (the check can fail).
    expect(SweepNdjsonLineSchema.safeParse({ ...lines[0], extra: 1 }).success).toBe(false);
  });

  it('--resume with no journal exits 2 with one line', async () => {
    const run = await runMain([...SWEEP, '--resume', '--out', join(dir, 'never.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--resume: no journal at .*never\.json\.journal\.ndjson: nothing to resume/);
  });
});

describe('workers kept across releases', () => {
  it('a release whose worker dies is recorded as failed, and the next release runs in a fresh worker', async () => {
    // A build whose client module ends its thread at import: the worker it loads in exits.
    const exiting = join(dir, 'exiting-sdk');
    mkdirSync(join(exiting, 'client'), { recursive: true });
    writeFileSync(join(exiting, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '9.9.9', type: 'module' }));
    writeFileSync(join(exiting, 'client', 'index.js'), 'process.exit(3);\n');
    const run = await runMain(['sweep', '--v1', exiting, '--v2', '2.4.0', '--jobs', '1', '--json', '--out', join(dir, 'exiting.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code).toBe(0);
    const [v1, v2] = JSON.parse(run.stdout).releases;
    expect(v1).toMatchObject({ status: 'failed', stage: 'run', error: { name: 'WorkerExit', message: "the release's worker exited (code 3) without a result" } });
    expect(v2).toMatchObject({ status: 'ran', release: { label: '2.4.0' } });
    expect(v2.cases.every((c: { verdict: string }) => c.verdict === 'pass')).toBe(true);
  });
});

describe('a warm sweep and the registry', () => {
  // A registry of our own on loopback that counts what it is asked: npm view gets a packument from it.
  let registry: Server;
  let asked = 0;
  let url: string;
  beforeAll(async () => {
    registry = createServer((request, response) => {
      asked++;
      const name = decodeURIComponent((request.url ?? '/').slice(1));
      const versions = name === '@modelcontextprotocol/client' ? ['2.3.1', '2.4.0'] : ['1.32.1', '1.32.2'];
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ name, 'dist-tags': { latest: versions.at(-1) }, versions: Object.fromEntries(versions.map((version) => [version, { name, version }])) }));
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
    // The probe runs `npm view` with this process's environment.
    vi.stubEnv('npm_config_registry', url);
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await new Promise((resolve) => registry.close(resolve));
  });

  it('resolves its ranges from the version list the last sweep cached, without asking the registry', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-cache-'));
    // 2.4.0..latest is the pinned 2.4.0 alone: nothing to install, only the version list to ask for.
    const sweep = (env: Record<string, string> = {}) =>
      runMain(['sweep', '--v2', '2.4.0..latest', '--out', join(dir, 'warm.json'), '--baseline', join(dir, 'none.json')], { env: { MCP_SDK_PROBE_CACHE: cache, ...env } });
    const first = await sweep();
    expect(first.code).toBe(0);
    expect(asked).toBe(1);
    const firstResult = readFileSync(join(dir, 'warm.json'));

    const warm = await sweep();
    expect(warm.code).toBe(0);
    expect(asked).toBe(1);
    expect(warm.stderr).toMatch(/^note: --v2 2\.4\.0\.\.latest: resolved against the version list cached 0 min ago \(MCP_SDK_PROBE_VERSIONS_MAX_AGE=0 asks the registry\)$/m);
    expect(warm.stderr).not.toMatch(/registry unreachable/);
    expect(readFileSync(join(dir, 'warm.json'))).toEqual(firstResult);

    // A range the fresh list cannot resolve is one line of error, no note.
    const backwards = await runMain(['sweep', '--v2', '3.0.0..latest', '--out', join(dir, 'warm.json')], { env: { MCP_SDK_PROBE_CACHE: cache } });
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toBe('mcp-sdk-probe: --v2 3.0.0..latest: the range runs backwards (3.0.0 is after 2.4.0)\n');
    expect(asked).toBe(1);

    // With the registry gone it is the same: nothing waits on a connection.
    vi.stubEnv('npm_config_registry', 'http://127.0.0.1:9/');
    const offline = await sweep();
    vi.stubEnv('npm_config_registry', url);
    expect(offline.code).toBe(0);
    expect(offline.stderr).not.toMatch(/registry unreachable/);

    // A list past its age is asked for again (so the count above can fail), and so is every one with 0.
    const asking = await sweep({ MCP_SDK_PROBE_VERSIONS_MAX_AGE: '0' });
    expect(asking.code).toBe(0);
    expect(asked).toBe(2);
    expect(asking.stderr).not.toMatch(/^note:/m);

    const bad = await sweep({ MCP_SDK_PROBE_VERSIONS_MAX_AGE: 'an hour' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('mcp-sdk-probe: MCP_SDK_PROBE_VERSIONS_MAX_AGE=an hour: expected whole seconds (0 always asks the registry)\n');
  }, 120_000);
});
