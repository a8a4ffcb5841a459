// The sweep and merge commands without the npm registry: the pinned clients (resolved from the project's
// own install), local package folders, and a release cache whose version lists are fixed
// (test/helpers/offline-registry.ts), with the registry unreachable. Sweeps over other published
// releases, which must be installed, are in test/releases/ (`npm run test:releases`).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serializeBaseline } from '../probe/sweep/files.ts';
import { toBaseline } from '../probe/sweep/gates.ts';
import { SweepResultSchema } from '../probe/sweep/model.ts';
import { SWEEP_WORKER_BUNDLE } from '../probe/bin/build.mjs';
import { LAUNCH_SWEEP_WORKER, startLaunchSweepWorker } from '../probe/bin/launch-threads.mjs';
import { RECORDED, ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { seededCache, UNREACHABLE_REGISTRY } from './helpers/offline-registry.ts';
import { TEST_RESULTS } from './helpers/test-project.ts';

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-'));
  env = { MCP_SDK_PROBE_CACHE: seededCache() };
  // The probe runs `npm view` with this process's environment.
  vi.stubEnv('npm_config_registry', UNREACHABLE_REGISTRY);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const sweep = (args: string[], extra: Record<string, string> = {}) => runMain(args, { env: { ...env, ...extra } });

describe('sweep without the registry', () => {
  it('writes NDJSON: one line per release × case, then change points and a summary', async () => {
    const run = await sweep(['merge', '--help']);
    expect(run.code).toBe(0);
    const nd = await sweep(['sweep', '--v2', '2.4.0', '--ndjson', '--out', join(dir, 'nd.json'), '--baseline', join(dir, 'none.json')]);
    expect(nd.code).toBe(0);
    const records = nd.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(records.map((r) => r.type)).toEqual([...Array(6).fill('case'), 'summary']);
  });

  it('adopts the sweep worker bin/launch.mjs started: the release runs in it', async () => {
    const launched = startLaunchSweepWorker(SWEEP_WORKER_BUNDLE);
    (globalThis as Record<symbol, unknown>)[LAUNCH_SWEEP_WORKER] = launched;
    let outputs = 0;
    launched.worker.on('message', () => (outputs += 1));
    const run = await sweep(['sweep', '--v2', '2.4.0', '--jobs', '1', '--out', join(dir, 'launched.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code).toBe(0);
    expect((globalThis as Record<symbol, unknown>)[LAUNCH_SWEEP_WORKER]).toBeUndefined();
    // One release, one answer, from the launched worker.
    expect(outputs).toBe(1);
  });

  it('records a release that cannot load as a failed release, and goes on with the rest', async () => {
    const broken = join(dir, 'broken-sdk');
    mkdirSync(broken);
    writeFileSync(join(broken, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '9.9.9', type: 'module', exports: { './*': './dist/*' } }));
    const run = await sweep(['sweep', '--v1', broken, '--v2', '2.4.0', '--out', join(dir, 'broken.json'), '--baseline', join(dir, 'none.json')]);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'broken.json'), 'utf8')));
    const [v1, v2] = result.releases;
    // The release failed, not the sweep: the broken v1 build is recorded as failed at the load stage...
    expect(v1).toMatchObject({ status: 'failed', stage: 'load', release: { version: '9.9.9', source: 'folder', integrity: null } });
    expect(v1?.release.label).toMatch(/^9\.9\.9\+local\.[0-9a-f]{8}$/);
    // ...and the other release still ran.
    expect(v2).toMatchObject({ status: 'ran', release: { label: '2.4.0' } });
    expect(result.summary).toMatchObject({ releases: 2, failedReleases: 1 });
    // The report says so.
    expect(run.stdout).toContain('2 releases swept, 1 did not run');
    // The exit code is 0, as the probe defines it today: a sweep's exit code counts only differences from
    // the recorded sweep baseline (none here: every release is new) and, for a range ending at latest,
    // the newest release against the pinned client (not asked for here) (probe/sweep/gates.ts
    // sweepExitCode). A failed release does not by itself fail the sweep; it is in the result above.
    expect(run.code).toBe(0);
  });

  it('runs an unreleased build from a package folder, in place', async () => {
    const folder = join(ROOT, 'node_modules', '@modelcontextprotocol', 'client');
    const run = await sweep(['sweep', '--v2', folder, '--json', '--out', join(dir, 'folder.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code).toBe(0);
    const [release] = SweepResultSchema.parse(JSON.parse(run.stdout)).releases;
    expect(release).toMatchObject({ status: 'ran', release: { source: 'folder', version: '2.4.0', integrity: null } });
    expect(release?.status === 'ran' && release.cases.every((c) => c.verdict === 'pass')).toBe(true);
  });

  it('exits 1 when the newest release behaves differently from the pinned one', async () => {
    // `latest` resolves against the cached version list (the registry is unreachable), in which the
    // newest v2 release is the pinned 2.4.0: the gate compares it with the recorded pinned result, here
    // the committed one and a tampered copy (both sweeps at once: each waits on npm's retry).
    const recorded = join(dir, 'recorded.json');
    copyFileSync(RECORDED, recorded);
    const tampered = join(dir, 'tampered.json');
    const json = JSON.parse(readFileSync(RECORDED, 'utf8'));
    const record = json.cases.find((c: { id: string }) => c.id === 'v2/warm/error-off-schema');
    record.observed = { outcome: 'rejected', error: { name: 'ProtocolError', code: -32602, message: 'm' }, by: 'client-output-schema', serverSent: 'as-scenario' };
    writeFileSync(tampered, JSON.stringify(json));
    const gate = (file: string, out: string) =>
      sweep(['sweep', '--v2', 'latest', '--recorded', file, '--out', join(dir, out), '--baseline', join(dir, 'none.json')]);
    const [same, differs] = await Promise.all([gate(recorded, 'same.json'), gate(tampered, 'differs.json')]);
    expect(same.stderr).toContain('@modelcontextprotocol/client: registry unreachable');
    expect(same.stderr).toContain('resolving against the cached version list');
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('Newest v2 release v2@2.4.0 behaves as the pinned @modelcontextprotocol/client@2.4.0 in every case');
    expect(differs.code).toBe(1);
    expect(differs.stdout).toMatch(/Newest v2 release v2@2\.4\.0 behaves differently from the pinned .*:\n\s+v2\/warm\/error-off-schema: rejected -32602 → returned isError/);
  });

  it('sweeps the extended matrix: its cases, its own baseline file, and its own recorded result for the newest-vs-pinned gate', async () => {
    const cases = ['v2/warm/http-*', 'v2/warm/stdio-error-*'];
    const narrowed = cases.flatMap((pattern) => ['--case', pattern]);
    const [pinned, latest] = await Promise.all([
      sweep(['sweep', '--v2', '2.4.0', '--matrix', 'extended', ...narrowed, '--out', join(dir, 'extended.json')]),
      // `latest` is the pinned 2.4.0 in the cached version list: compared with results/recorded-extended.json.
      sweep(['sweep', '--v2', 'latest', '--matrix', 'extended', ...narrowed, '--out', join(dir, 'extended-latest.json')]),
    ]);
    expect(pinned.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'extended.json'), 'utf8')));
    expect(result.matrix.name).toBe('extended');
    const [release] = result.releases;
    expect(release?.status).toBe('ran');
    const ids = release?.status === 'ran' ? release.cases.map((c) => c.id) : [];
    expect(ids).toContain('v2/warm/http-error-off-schema');
    expect(ids).toContain('v2/warm/stdio-error-conforming');
    expect(ids.every((id) => id.startsWith('v2/warm/http-') || id.startsWith('v2/warm/stdio-error-'))).toBe(true);
    // The report names each case's behaviour, and the extended matrix's own (missing) sweep baseline.
    expect(pinned.stdout).toMatch(/v2\/warm\/http-error-off-schema\s+returned isError/);
    expect(pinned.stdout).toContain('No sweep baseline at results/sweep-baseline-extended.json');
    expect(latest.stdout).toContain('Newest v2 release v2@2.4.0 behaves as the pinned @modelcontextprotocol/client@2.4.0 in every case');
    expect(latest.code).toBe(0);
  });

  it('records an extended case a release cannot do as what happened (crashed at connect), and goes on', async () => {
    // A build that loads (it has a Client class) but cannot connect at all.
    const build = join(dir, 'no-connect-sdk');
    mkdirSync(join(build, 'dist', 'client'), { recursive: true });
    writeFileSync(join(build, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '0.0.1', type: 'module', exports: { './*': './dist/*' } }));
    writeFileSync(
      join(build, 'dist', 'client', 'index.js'),
      "export class Client { async connect() { throw new TypeError('no transport support'); } async listTools() { return { tools: [] }; } async callTool() {} async close() {} }\n",
    );
    const run = await sweep(['sweep', '--v1', build, '--v2', '2.4.0', '--matrix', 'extended', '--case', 'v1/warm/http-error-*', '--case', 'v2/warm/http-error-*', '--out', join(dir, 'no-connect.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code, run.stderr).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'no-connect.json'), 'utf8')));
    const [v1, v2] = result.releases;
    expect(v1?.status).toBe('ran');
    const v1Cases = v1?.status === 'ran' ? v1.cases : [];
    expect(v1Cases.length).toBeGreaterThan(0);
    for (const record of v1Cases) expect(record.observed).toMatchObject({ outcome: 'crashed', stage: 'connect', error: { name: 'TypeError', message: 'no transport support' } });
    expect(v2).toMatchObject({ status: 'ran', release: { label: '2.4.0' } });
    expect(run.stdout).toMatch(/v1\/warm\/http-error-off-schema\s+crashed \(connect\)/);
  });

  it('--matrix all runs the audit and the extended cases in one sweep', async () => {
    const run = await sweep(['sweep', '--v2', '2.4.0', '--matrix', 'all', '--case', 'v2/warm/error-off-schema', '--case', 'v2/warm/http-error-conforming', '--json', '--out', join(dir, 'all.json')]);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(run.stdout));
    expect(result.matrix.name).toBe('all');
    const [release] = result.releases;
    expect(release?.status === 'ran' && release.cases.map((c) => c.id)).toEqual(['v2/warm/error-off-schema', 'v2/warm/http-error-conforming']);
  });

  it('--scenarios adds your cases to every release; the newest-vs-pinned gate covers only the recorded ones', async () => {
    const run = await sweep(['sweep', '--v2', 'latest', '--scenarios', join(ROOT, 'scenarios', 'examples'), '--allow-scenario-code', '--case', 'v2/warm/error-*', '--json', '--out', join(dir, 'user.json')]);
    // Exit 0: `latest` (the pinned 2.4.0 here) matches the recorded audit cases; the user cases, which have
    // no recorded result, are not differences.
    expect(run.code, run.stderr).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(run.stdout));
    expect(result.matrix.name).toBe('audit+scenarios');
    const [release] = result.releases;
    const ids = release?.status === 'ran' ? release.cases.map((c) => c.id) : [];
    expect(ids).toEqual(expect.arrayContaining(['v2/warm/error-off-schema', 'v2/warm/error-empty-text', 'v2/warm/error-conforming-variant']));
  });

  it('--update creates a sweep baseline for the matrix itself (beside the audit one), which the next sweep compares with', async () => {
    const baseline = join(TEST_RESULTS, 'sweep-baseline-audit+scenarios.json');
    const args = ['sweep', '--v2', '2.4.0', '--scenarios', join(ROOT, 'scenarios', 'examples'), '--allow-scenario-code', '--out', join(dir, 'own.json')];
    try {
      const recorded = await sweep([...args, '--update']);
      expect(recorded.code, recorded.stderr).toBe(0);
      expect(recorded.stdout).toContain('Sweep baseline updated: results/sweep-baseline-audit+scenarios.json (--update)');
      expect(JSON.parse(readFileSync(baseline, 'utf8'))).toMatchObject({ kind: 'sweep-baseline', matrix: 'audit+scenarios' });
      const again = await sweep(args);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('Compared with results/sweep-baseline-audit+scenarios.json: 1 matched release(s)');
    } finally {
      rmSync(baseline, { force: true });
    }
  });

  it('a baseline of another matrix is refused, before anything runs', async () => {
    // results/sweep-baseline.json records the audit matrix.
    const run = await sweep(['sweep', '--v2', '2.4.0', '--matrix', 'extended', '--baseline', join(ROOT, 'results', 'sweep-baseline.json'), '--out', join(dir, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('a sweep baseline of matrix audit, not extended');
  });

  // Concurrent: the ones that resolve a version wait on npm's retry against the unreachable registry.
  it.concurrent.for([
    [['--v1', '1.19.0'], /--v1 1\.19\.0: @modelcontextprotocol\/sdk has no published release 1\.19\.0; nearest: 1\.18\.1, 1\.18\.2, 1\.19\.1, 1\.20\.0/],
    [['sweep', '--v2', '2.5.0..latest'], /--v2 2\.5\.0\.\.latest: the range runs backwards|no published release in that range/],
    [['--v1', '1.10.0..1.11.0'], /names 4 releases; the audit runs one per line \(use the sweep command for ranges\)/],
    [['sweep'], /sweep needs --v1, --v2 and\/or --ai-sdk/],
    [['sweep', '--v1', 'latest', '--json', '--ndjson'], /--json and --ndjson both print to stdout/],
    [['sweep', '--v1', 'latest', '--shard', '3/2'], /--shard 3\/2: expected i\/n/],
    [['sweep', '--v1', './no-such-folder'], /--v1 .*no-such-folder: no such file or folder/],
    [['sweep', '--v2', '2.4.0', '--matrix', 'nope'], /--matrix nope: expected one of audit, extended, ecosystem, all/],
    [['sweep', '--v2', '2.4.0', '--case', 'no-such-case'], /--case no-such-case matches no case of matrix audit/],
    [['sweep', '--v2', '2.4.0', '--format', 'pdf'], /--format pdf: expected one of table, html/],
  ] as const)('usage errors exit 2 with one line: %j', async ([args, message], { expect }) => {
    const run = await sweep([...args, '--out', join(dir, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n').filter((l) => l.startsWith('mcp-sdk-probe:'))).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });

  it('the baseline gate fails on behaviour: a renamed error class alone fails only with --gate-identity (issue 21)', async () => {
    const out = join(dir, 'renamed.json');
    const first = await sweep(['sweep', '--v1', '1.32.2', '--case', 'v1/warm/*', '--out', out, '--baseline', join(dir, 'none.json')]);
    expect(first.code).toBe(0);
    // The baseline this very run would record, but with one rejection's error class renamed (as zod 4 renamed ZodError).
    const baseline = toBaseline(SweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8'))));
    const [entry] = baseline.releases;
    const [id, behaviour] = Object.entries(entry!.behaviours).find(([, b]) => b.outcome === 'rejected')!;
    const renamed = join(dir, 'renamed-baseline.json');
    writeFileSync(renamed, serializeBaseline({ ...baseline, releases: [{ ...entry!, behaviours: { ...entry!.behaviours, [id]: { ...behaviour, name: 'RenamedError' } } }] }));
    const args = ['sweep', '--v1', '1.32.2', '--case', 'v1/warm/*', '--baseline', renamed];
    const [plain, gated] = await Promise.all([sweep([...args, '--out', join(dir, 'renamed-1.json')]), sweep([...args, '--gate-identity', '--out', join(dir, 'renamed-2.json')])]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('changed v1@1.32.2: identity only, not gated (--gate-identity gates it)');
    expect(plain.stdout).toContain(`${id}: rejected ${String(behaviour.code)} → rejected ${String(behaviour.code)} (identity)`);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toMatch(/ {2}changed v1@1\.32\.2\n/);
  });

  it('refuses to update the sweep baseline in CI', async () => {
    const run = await sweep(['sweep', '--v2', '2.4.0', '--update', '--baseline', join(dir, 'ci.json'), '--out', join(dir, 'x.json')], { CI: 'true' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--update rewrites the sweep baseline and is refused when CI is set');
  });
});
