// Sweeps over real published releases. Installing them is the one thing in the suite that talks to the
// npm registry; installed releases are reused from the cache (.cache/releases) on later runs. All
// sweeps live in this one file so no two npm installs share the cache at once.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ResultFileSchema } from '../probe/core/domain.ts';
import { SweepResultSchema, type SweepResult } from '../probe/sweep/model.ts';
import { RECORDED, ROOT, runCli } from './helpers/cli.ts';
import { expectValidResult } from './helpers/schema.ts';

// v1 1.11.4 is where the v1 client started checking structuredContent against outputSchema (found by
// this project's full sweep, results/sweep-baseline.json); 1.11.3..1.11.4 are the two releases around it.
const V1_RANGE = '1.11.3..1.11.4';
const V2_RANGE = '2.3.1..latest';

let dir: string;
let full: SweepResult;
let fullText: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-'));
  const run = await runCli(['sweep', '--v1', V1_RANGE, '--v2', V2_RANGE, '--out', join(dir, 'full.json'), '--baseline', join(dir, 'none.json')]);
  expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
  expect(run.code).toBe(0);
  fullText = readFileSync(join(dir, 'full.json'), 'utf8');
  full = SweepResultSchema.parse(JSON.parse(fullText));
}, 240_000);

describe('sweep over real releases', () => {
  it('resolves the ranges to the published releases, in order, each with its integrity hash', () => {
    expect(full.plan).toEqual(['v1@1.11.3', 'v1@1.11.4', 'v2@2.3.1', 'v2@2.4.0']);
    for (const run of full.releases) {
      expect(run.status).toBe('ran');
      expect(run.release.integrity).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
    }
    expect(full.releases.find((r) => r.release.label === '2.4.0')?.release.source).toBe('pinned');
  });

  it('reports the release at which each case changed', () => {
    const points = full.changePoints.map((p) => [p.caseId, p.through, p.from, p.before.outcome, p.after.outcome, p.after.code]);
    expect(points).toEqual([
      ['v1/warm/off-schema-success', '1.11.3', '1.11.4', 'returned', 'rejected', -32602],
      ['v1/warm/success-without-structured', '1.11.3', '1.11.4', 'returned', 'rejected', -32600],
      ['v1/warm/error-off-schema', '1.11.3', '1.11.4', 'returned', 'rejected', -32602],
    ]);
  });

  it('prints the compressed table and the change points', async () => {
    const run = await runCli(['sweep', '--v1', V1_RANGE, '--out', join(dir, 'table.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/case\s+1\.11\.3\s+1\.11\.4\n/);
    expect(run.stdout).toMatch(/v1\/warm\/off-schema-success\s+returned\s+rejected -32602\n/);
    expect(run.stdout).toContain('v1/warm/off-schema-success: returned ≤ 1.11.3 → rejected -32602 from 1.11.4');
    expect(run.stdout).toContain('2 releases swept, 0 did not run, 3 change points');
  });

  it('writes NDJSON: one line per release × case, then change points and a summary', async () => {
    const run = await runCli(['merge', '--help']);
    expect(run.code).toBe(0);
    const nd = await runCli(['sweep', '--v2', '2.4.0', '--ndjson', '--out', join(dir, 'nd.json'), '--baseline', join(dir, 'none.json')]);
    const records = nd.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(records.map((r) => r.type)).toEqual([...Array(6).fill('case'), 'summary']);
  });

  it('shard 1/2 and 2/2 merge into exactly the unsharded result', async () => {
    for (const index of [1, 2]) {
      const run = await runCli(['sweep', '--v1', V1_RANGE, '--v2', V2_RANGE, '--shard', `${index}/2`, '--out', join(dir, `shard${index}.json`)]);
      expect(run.code).toBe(0);
    }
    const shard1 = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'shard1.json'), 'utf8')));
    expect(shard1.releases.map((r) => r.release.label)).toEqual(['1.11.3', '2.3.1']);
    const merged = await runCli(['merge', join(dir, 'shard2.json'), join(dir, 'shard1.json'), '--out', join(dir, 'merged.json'), '--baseline', join(dir, 'none.json')]);
    expect(merged.code).toBe(0);
    const mergedText = readFileSync(join(dir, 'merged.json'), 'utf8');
    // The environment block is where it ran; here both ran on this machine, so the whole file matches.
    expect(mergedText).toBe(fullText);
    const incomplete = await runCli(['merge', join(dir, 'shard1.json'), '--out', join(dir, 'bad.json')]);
    expect(incomplete.code).toBe(2);
    expect(incomplete.stderr).toContain('shard 2/2 missing');
  });

  it('records a release that cannot load and goes on with the rest', async () => {
    const broken = join(dir, 'broken-sdk');
    mkdirSync(broken);
    writeFileSync(join(broken, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '9.9.9', type: 'module', exports: { './*': './dist/*' } }));
    const run = await runCli(['sweep', '--v1', broken, '--v2', '2.4.0', '--json', '--out', join(dir, 'broken.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(run.stdout));
    const [v1, v2] = result.releases;
    expect(v1).toMatchObject({ status: 'failed', stage: 'load', release: { version: '9.9.9', source: 'folder', integrity: null } });
    expect(v1?.release.label).toMatch(/^9\.9\.9\+local\.[0-9a-f]{8}$/);
    expect(v2).toMatchObject({ status: 'ran', release: { label: '2.4.0' } });
    expect(result.summary).toMatchObject({ releases: 2, failedReleases: 1 });
  });

  it('runs an unreleased build from a packed tarball', async () => {
    // Pack the project's own pinned v1 client, as an SDK maintainer would pack a change before release.
    const packed = await new Promise<string>((done, fail) =>
      execFile('npm', ['pack', join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk'), '--pack-destination', dir, '--ignore-scripts', '--silent'], (error, stdout) =>
        error ? fail(error) : done(join(dir, stdout.trim().split('\n').at(-1)!)),
      ),
    );
    const run = await runCli(['--v1', packed, '--json', '--out', join(dir, 'tgz.json')]);
    expect(run.code).toBe(0);
    const result = ResultFileSchema.parse(JSON.parse(run.stdout));
    expectValidResult(run.stdout);
    expect(result.summary).toEqual({ passed: 13, failed: 0 });
    const v1 = result.cases.find((c) => c.client === 'v1');
    expect(v1?.clientPackage).toMatch(/^@modelcontextprotocol\/sdk@1\.32\.2\+local\.[0-9a-f]{8}$/);
  });

  it('runs an unreleased build from a package folder, in place', async () => {
    const folder = join(ROOT, 'node_modules', '@modelcontextprotocol', 'client');
    const run = await runCli(['sweep', '--v2', folder, '--json', '--out', join(dir, 'folder.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.code).toBe(0);
    const [release] = SweepResultSchema.parse(JSON.parse(run.stdout)).releases;
    expect(release).toMatchObject({ status: 'ran', release: { source: 'folder', version: '2.4.0', integrity: null } });
    expect(release?.status === 'ran' && release.cases.every((c) => c.verdict === 'pass')).toBe(true);
  });

  it('exits 1 when a release behaves differently from the recorded baseline, naming it', async () => {
    const baseline = join(dir, 'baseline.json');
    const update = await runCli(['sweep', '--v1', V1_RANGE, '--out', join(dir, 'b.json'), '--baseline', baseline, '--update']);
    expect(update.code).toBe(0);
    expect((await runCli(['sweep', '--v1', V1_RANGE, '--out', join(dir, 'b.json'), '--baseline', baseline])).code).toBe(0);
    const json = JSON.parse(readFileSync(baseline, 'utf8'));
    json.releases[1].behaviours['v1/warm/off-schema-success'] = { outcome: 'returned', isError: false };
    writeFileSync(baseline, JSON.stringify(json));
    const run = await runCli(['sweep', '--v1', V1_RANGE, '--out', join(dir, 'b.json'), '--baseline', baseline]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('1 matched, 1 changed release(s)');
    expect(run.stdout).toMatch(/changed v1@1\.11\.4\n\s+v1\/warm\/off-schema-success: returned → rejected -32602/);
  });

  it('exits 1 when the newest release behaves differently from the pinned one', async () => {
    const recorded = join(dir, 'recorded.json');
    copyFileSync(RECORDED, recorded);
    const same = await runCli(['sweep', '--v2', 'latest', '--recorded', recorded, '--out', join(dir, 'p.json')]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('Newest v2 release v2@2.4.0 behaves as the pinned @modelcontextprotocol/client@2.4.0 in every case');
    const json = JSON.parse(readFileSync(recorded, 'utf8'));
    const record = json.cases.find((c: { id: string }) => c.id === 'v2/warm/error-off-schema');
    record.observed = { outcome: 'rejected', error: { name: 'ProtocolError', code: -32602, message: 'm' }, serverSent: 'as-scenario' };
    writeFileSync(recorded, JSON.stringify(json));
    const differs = await runCli(['sweep', '--v2', 'latest', '--recorded', recorded, '--out', join(dir, 'p.json')]);
    expect(differs.code).toBe(1);
    expect(differs.stdout).toMatch(/Newest v2 release v2@2\.4\.0 behaves differently from the pinned .*:\n\s+v2\/warm\/error-off-schema: rejected -32602 → returned isError/);
  });

  it('runs the audit with another release and reports what differs from the pinned client', async () => {
    const run = await runCli(['--v1', '1.11.3', '--out', join(dir, 'a.json')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('v1 = @modelcontextprotocol/sdk@1.11.3');
    expect(run.stdout).toContain('Compared with results/recorded.json: 10 matched, 3 changed');
    expect(run.stdout).toMatch(/changed v1\/warm\/off-schema-success\n\s+observed: rejected McpError -32602: .* → returned structuredContent \{"error":"unavailable"\}/);
    expect(run.stdout).not.toMatch(/client: /);
  });

  it.each([
    [['--v1', '1.19.0'], /--v1 1\.19\.0: @modelcontextprotocol\/sdk has no published release 1\.19\.0; nearest: 1\.18\.1, 1\.18\.2, 1\.19\.1, 1\.20\.0/],
    [['sweep', '--v2', '2.5.0..latest'], /--v2 2\.5\.0\.\.latest: the range runs backwards|no published release in that range/],
    [['--v1', '1.10.0..1.11.0'], /names 4 releases; the audit runs one per line \(use the sweep command for ranges\)/],
    [['sweep'], /sweep needs --v1 and\/or --v2/],
    [['sweep', '--v1', 'latest', '--json', '--ndjson'], /--json and --ndjson both print to stdout/],
    [['sweep', '--v1', 'latest', '--shard', '3/2'], /--shard 3\/2: expected i\/n/],
    [['sweep', '--v1', './no-such-folder'], /--v1 .*no-such-folder: no such file or folder/],
  ])('usage errors exit 2 with one line: %j', async (args, message) => {
    const run = await runCli([...args, '--out', join(dir, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n').filter((l) => l.startsWith('mcp-sdk-probe:'))).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });

  it('with the registry unreachable, runs cached releases and names the missing ones', async () => {
    // A closed loopback port stands in for an unreachable registry (npm fails fast on a refused connection).
    const offline = { npm_config_registry: 'http://127.0.0.1:9/' };
    const cached = await runCli(['sweep', '--v1', V1_RANGE, '--out', join(dir, 'off.json'), '--baseline', join(dir, 'none.json')], offline);
    expect(cached.code).toBe(0);
    expect(cached.stderr).toContain('registry unreachable');
    expect(cached.stderr).toContain('resolving against the cached version list');
    expect(cached.stdout).toContain('2 releases swept, 0 did not run, 3 change points');
    // 1.9.0 is below every range this project sweeps, so no run here has put it in npm's own cache.
    const missing = await runCli(['--v1', '1.9.0', '--out', join(dir, 'off.json')], offline);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot install @modelcontextprotocol\/sdk@1\.9\.0 \(not in the release cache .*\)/);
  });

  it('refuses to update the sweep baseline in CI', async () => {
    const run = await runCli(['sweep', '--v2', '2.4.0', '--update', '--baseline', join(dir, 'ci.json'), '--out', join(dir, 'x.json')], { CI: 'true' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--update rewrites the sweep baseline and is refused when CI is set');
  });
});
