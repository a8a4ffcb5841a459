// `npm run test:releases`: sweeps over real published releases, installed from the npm registry (the only
// tests that need it); installed releases are reused from the cache (.cache/releases) on later runs. All
// sweeps live in this one file so no two npm installs share the cache at once. Exact versions only: a
// range ending at `latest` would change meaning the day a release is published (the newest-vs-pinned
// gate is tested offline, against a fixed version list, in test/sweep.test.ts).
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { allMarkers, renderSample, SAMPLES, staleSamples, type Sample, type SampleName } from '../../probe/bin/docs.ts';
import { ResultFileSchema } from '../../probe/core/domain.ts';
import { behaviourOf, describeBehaviour, SweepResultSchema, type SweepResult } from '../../probe/sweep/model.ts';
import { LAUNCHER, ROOT, runCli } from '../helpers/cli.ts';
import { UNREACHABLE_REGISTRY } from '../helpers/offline-registry.ts';
import { expectValidResult } from '../helpers/schema.ts';
import { TEST_PROJECT } from '../helpers/test-project.ts';

// v1 1.11.4 is where the v1 client started checking structuredContent against outputSchema (found by
// this project's full sweep, results/sweep-baseline.json); 1.11.3..1.11.4 are the two releases around it.
const V1_RANGE = '1.11.3..1.11.4';
// 2.3.1 and the pinned 2.4.0, the newest when this was written.
const V2_RANGE = '2.3.1..2.4.0';

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
    expect(run.stdout).toContain('2 releases swept, 0 did not run, 3 behaviour change points');
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


  // Server sweeps (--server-v1): the clients stay pinned and the SDK's server varies. Both change points
  // were found by sweeping (results/sweep-baseline-server-all.json) and narrowed to the two releases around them.
  it('calls the zod 4 rename of 1.23.0 (ZodError → $ZodError) identity only: the gate passes, the reports count it apart (issue 21)', async () => {
    // --matrix all: its recorded baseline (results/sweep-baseline-all.json) holds both releases, so this
    // run is also compared with what was recorded. 1.23.0 moved the SDK to zod 4, whose parse error class is
    // $ZodError; the rejection is the same (no JSON-RPC code on either side), so no application can tell.
    const cases = ['v1/warm/success-structured-*', 'v1/warm/error-structured-*'].flatMap((pattern) => ['--case', pattern]);
    const run = await runCli(['sweep', '--matrix', 'all', '--v1', '1.22.0..1.23.0', ...cases, '--out', join(dir, 'zod.json')]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code, run.stdout).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'zod.json'), 'utf8')));
    expect(result.plan).toEqual(['v1@1.22.0', 'v1@1.23.0']);
    expect(result.changePoints).toHaveLength(14);
    for (const point of result.changePoints) expect(point).toMatchObject({ kind: 'identity', fields: ['name'], before: { name: 'ZodError', code: null }, after: { name: '$ZodError', code: null } });
    expect(run.stdout).toMatch(/Compared with results\/sweep-baseline-all\.json: 2 matched, \d+ unchecked release\(s\)/);
    expect(run.stdout).toContain('name: ZodError → $ZodError (≤ 1.22.0 → from 1.23.0), 14 cases: ');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('2 releases swept, 0 did not run, 0 behaviour change points, 14 identity change points (the error class name only)');
  });

  it('names the client release of an extended-matrix sweep that compiles outputSchemas at discovery (1.21.0)', async () => {
    const run = await runCli(['sweep', '--matrix', 'extended', '--v1', '1.20.2..1.21.0', '--case', 'v1/warm/schema-*', '--case', 'v1/warm/v2-mcp-server-error-off-schema', '--out', join(dir, 'extended.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'extended.json'), 'utf8')));
    expect(result.matrix.name).toBe('extended');
    expect(result.plan).toEqual(['v1@1.20.2', 'v1@1.21.0']);
    // Observed (sweep --matrix extended --v1 1.20.2..1.21.0, and the client `all` baseline): 1.20.2's
    // Client.cacheToolOutputSchemas compiled each outputSchema with Ajv inside a try/catch that ignored a
    // schema it could not compile (the tool then went unvalidated); 1.21.0's goes through the new
    // jsonSchemaValidator without the catch, so listTools throws for an invalid `pattern` (SyntaxError) or an
    // unresolvable `$ref` (MissingRefError): the case crashes at discovery. The v2 McpServer's isError
    // result with off-schema structuredContent was returned by 1.20.2 and is rejected -32602 by 1.21.0's
    // output-schema check (its schema, unvalidated before, is now applied). The other schema-* cases did not change.
    expect(result.changePoints.map((p) => [p.caseId, p.through, p.from, describeBehaviour(p.before), describeBehaviour(p.after), p.after.name ?? null])).toEqual([
      ['v1/warm/schema-bad-pattern', '1.20.2', '1.21.0', 'returned', 'crashed (discover)', 'SyntaxError'],
      ['v1/warm/schema-unresolvable-ref', '1.20.2', '1.21.0', 'returned', 'crashed (discover)', 'MissingRefError'],
      ['v1/warm/v2-mcp-server-error-off-schema', '1.20.2', '1.21.0', 'returned isError', 'rejected -32602', 'McpError'],
    ]);
    // The terminal table names them too.
    expect(run.stdout).toContain('sweep of matrix extended');
    expect(run.stdout).toMatch(/case\s+1\.20\.2\s+1\.21\.0\n/);
    expect(run.stdout).toMatch(/v1\/warm\/schema-bad-pattern\s+returned\s+crashed \(discover\)\n/);
    expect(run.stdout).toContain('v1/warm/schema-bad-pattern: returned ≤ 1.20.2 → crashed (discover) from 1.21.0');
    expect(run.stdout).toContain('v1/warm/schema-unresolvable-ref: returned ≤ 1.20.2 → crashed (discover) from 1.21.0');
    expect(run.stdout).toContain('v1/warm/v2-mcp-server-error-off-schema: returned isError ≤ 1.20.2 → rejected -32602 from 1.21.0');
    expect(run.stdout).toMatch(/2 releases swept, 0 did not run, 3 behaviour change points/);
  });

  it('names the server release that changed the wire: the low-level Server checks results from 1.24.0', async () => {
    const run = await runCli(['sweep', '--matrix', 'extended', '--server-v1', '1.23.1..1.24.0', '--case', 'v1/warm/wrapped-success-structured-null', '--out', join(dir, 'server-ll.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'server-ll.json'), 'utf8')));
    expect(result.plan).toEqual(['server-v1@1.23.1', 'server-v1@1.24.0']);
    expect(result.releases.map((r) => [r.release.side, r.release.packageName, r.release.source])).toEqual([
      ['server', '@modelcontextprotocol/sdk', 'registry'],
      ['server', '@modelcontextprotocol/sdk', 'registry'],
    ]);
    // Observed: 1.23.1 sent the result as given and the pinned v1 client's result parse refused it (a
    // ZodError); 1.24.0's Server.setRequestHandler refuses it itself and sends -32602 instead.
    expect(result.changePoints).toEqual([
      {
        caseId: 'v1/warm/wrapped-success-structured-null',
        through: '1.23.1',
        from: '1.24.0',
        before: { sent: 'as-scenario', outcome: 'rejected', code: null, name: '$ZodError' },
        after: { sent: { error: { code: -32602 } }, outcome: 'rejected', code: -32602, name: 'McpError' },
        // What went on the wire and the code changed: behaviour, whatever the class name did.
        kind: 'behaviour',
        fields: ['code', 'name', 'sent'],
      },
    ]);
    expect(run.stdout).toContain('server v1 · @modelcontextprotocol/sdk · 2 releases (1.23.1–1.24.0)');
    expect(run.stdout).toContain('v1/warm/wrapped-success-structured-null: sent as given → rejected $ZodError ≤ 1.23.1 → sent error -32602 → rejected -32602 from 1.24.0');
  });

  it('names the McpServer release that turned validation errors into isError results (1.21.0), and records a release without registerTool as what happened', async () => {
    const run = await runCli(['sweep', '--matrix', 'extended', '--server-v1', '1.10.0 || 1.20.2 || 1.21.0', '--case', '*/warm/v1-mcp-server-off-schema-success', '--out', join(dir, 'server-mcp.json'), '--baseline', join(dir, 'none.json')]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'server-mcp.json'), 'utf8')));
    const [old] = result.releases;
    // 1.10.0 has McpServer but no registerTool: each case crashed at connect, and the sweep went on.
    expect(old?.status === 'ran' && old.cases.map((c) => c.observed)).toEqual([
      { outcome: 'crashed', stage: 'connect', error: { name: 'Error', code: null, message: 'this McpServer has no registerTool' }, serverSent: 'nothing' },
      { outcome: 'crashed', stage: 'connect', error: { name: 'Error', code: null, message: 'this McpServer has no registerTool' }, serverSent: 'nothing' },
    ]);
    // Observed: 1.20.2 answered the off-schema structuredContent with a -32602 error; 1.21.0 with an isError
    // result carrying the validation message; both pinned clients pass on what they were sent.
    const from121 = result.changePoints.filter((p) => p.from === '1.21.0');
    expect(from121.map((p) => [p.caseId, p.through, describeBehaviour(p.before), describeBehaviour(p.after)])).toEqual([
      ['v1/warm/v1-mcp-server-off-schema-success', '1.20.2', 'sent error -32602 → rejected -32602', 'sent altered → returned isError'],
      ['v2/warm/v1-mcp-server-off-schema-success', '1.20.2', 'sent error -32602 → rejected -32602', 'sent altered → returned isError'],
    ]);
    const record = result.releases[2]?.status === 'ran' ? result.releases[2].cases[0] : undefined;
    expect(record?.observed.serverSent).toMatchObject({ altered: { isError: true } });
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


  it('replays a capture against one release, and sweeps it over a range: the release where its treatment changed', async () => {
    const capture = join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json');
    const one = await runCli(['replay', capture, '--v1', '1.11.3', '--clients', 'v1', '--json', '--out', join(dir, 'replay-one.json')]);
    expect(one.code).toBe(0);
    const replayed = ResultFileSchema.parse(JSON.parse(one.stdout));
    expect(replayed.cases.map((c) => [c.id, c.clientPackage, c.observed.outcome])).toEqual([
      ['v1/warm/error-with-structured-content', '@modelcontextprotocol/sdk@1.11.3', 'returned'],
      ['v1/cold/error-with-structured-content', '@modelcontextprotocol/sdk@1.11.3', 'returned'],
    ]);
    // The range is a sweep of the capture; 1.11.4 began checking structuredContent against the
    // outputSchema, an error result's too (the audit's v1/warm/error-off-schema changes there as well).
    const swept = await runCli(['replay', capture, '--v1', V1_RANGE, '--out', join(dir, 'replay-sweep.json')]);
    expect(swept.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'replay-sweep.json'), 'utf8')));
    expect(result.plan).toEqual(['v1@1.11.3', 'v1@1.11.4']);
    expect(result.changePoints.map((p) => [p.caseId, p.through, p.from, p.before.outcome, p.after.outcome, p.after.code])).toEqual([
      ['v1/warm/error-with-structured-content', '1.11.3', '1.11.4', 'returned', 'rejected', -32602],
    ]);
    expect(swept.stdout).toContain('v1/warm/error-with-structured-content: returned isError ≤ 1.11.3 → rejected -32602 from 1.11.4');
  });

  it('runs the audit with another release and reports what differs from the pinned client', async () => {
    const run = await runCli(['--v1', '1.11.3', '--out', join(dir, 'a.json')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('v1 = @modelcontextprotocol/sdk@1.11.3');
    expect(run.stdout).toContain('Compared with results/recorded.json: 10 matched, 3 changed');
    expect(run.stdout).toMatch(/changed v1\/warm\/off-schema-success\n\s+observed: rejected McpError -32602: .* → returned structuredContent \{"error":"unavailable"\}/);
    expect(run.stdout).not.toMatch(/client: /);
  });


  it('with the registry unreachable, runs cached releases and names the missing ones', async () => {
    // A closed loopback port stands in for an unreachable registry (npm fails fast on a refused connection).
    // The version list the sweeps above cached is fresh, and would answer without asking (see below):
    // MCP_SDK_PROBE_VERSIONS_MAX_AGE=0 makes this run ask, and fall back.
    const offline = { npm_config_registry: UNREACHABLE_REGISTRY, MCP_SDK_PROBE_VERSIONS_MAX_AGE: '0' };
    const cached = await runCli(['sweep', '--v1', V1_RANGE, '--out', join(dir, 'off.json'), '--baseline', join(dir, 'none.json')], offline);
    expect(cached.code).toBe(0);
    expect(cached.stderr).toContain('registry unreachable');
    expect(cached.stderr).toContain('resolving against the cached version list');
    expect(cached.stdout).toContain('2 releases swept, 0 did not run, 3 behaviour change points');
    // 1.9.0 is below every range this project sweeps, so no run here has put it in npm's own cache.
    const missing = await runCli(['--v1', '1.9.0', '--out', join(dir, 'off.json')], offline);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot install @modelcontextprotocol\/sdk@1\.9\.0 \(not in the release cache .*\)/);
  });

  it('a sweep killed midway resumes without loading a journalled release again, into the output of an uninterrupted sweep', async () => {
    // Eight releases in a release cache of this test's own, whose loader (load.mjs, through which the
    // sweep's workers import every cached release) is swapped, once installed, for one that also logs
    // each load: the count of real loads, independent of what the probe reports.
    const cache = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-resume-cache-'));
    const env = { MCP_SDK_PROBE_CACHE: cache };
    const args = ['sweep', '--v1', '1.11.0..1.11.4', '--v2', '2.2.0..2.3.1', '--jobs', '1', '--ndjson', '--baseline', join(dir, 'none.json')];
    const whole = await runCli([...args, '--out', join(dir, 'whole.json')], env);
    expect(whole.code).toBe(0);
    const plan = (JSON.parse(readFileSync(join(dir, 'whole.json'), 'utf8')) as SweepResult).plan;
    expect(plan).toEqual(['v1@1.11.0', 'v1@1.11.1', 'v1@1.11.2', 'v1@1.11.3', 'v1@1.11.4', 'v2@2.2.0', 'v2@2.3.0', 'v2@2.3.1']);
    const loads = join(dir, 'loads.txt');
    writeFileSync(
      join(cache, 'load.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport const load = (specifier) => { appendFileSync(${JSON.stringify(loads)}, specifier.split('/')[0] + '\\n'); return import(specifier); };\n`,
    );
    const loaded = () => (existsSync(loads) ? readFileSync(loads, 'utf8').split('\n').filter(Boolean) : []);

    const out = join(dir, 'resumed.json');
    const journal = `${out}.journal.ndjson`;
    const child = spawn(process.execPath, [LAUNCHER, ...args, '--out', out], { cwd: ROOT, env: { ...process.env, ...env, CI: '' }, stdio: 'ignore' });
    const closed = new Promise((resolve) => child.on('close', resolve));
    const lines = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').length - 1 : 0);
    const started = Date.now();
    while (lines() < 4 && Date.now() - started < 120_000) await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill('SIGKILL');
    await closed;
    expect(existsSync(out)).toBe(false);
    const journalled = readFileSync(journal, 'utf8').split('\n').slice(1, -1).map((line) => JSON.parse(line).run.release);
    expect(journalled.length).toBeGreaterThanOrEqual(3);
    expect(journalled.length).toBeLessThan(plan.length);
    // Every release the killed run journalled had been loaded by it.
    const aliases = journalled.map((release: { line: string; label: string }) => `${release.line}-${release.label}`);
    expect(loaded()).toEqual(expect.arrayContaining(aliases));

    rmSync(loads);
    const resumed = await runCli([...args, '--out', out, '--resume'], env);
    expect(resumed.code).toBe(0);
    // The resumed run loaded each release the journal lacked exactly once, and none it held.
    expect(loaded().sort()).toEqual(plan.map((key) => key.replace('@', '-')).filter((alias) => !aliases.includes(alias)).sort());
    expect(resumed.stderr).toContain(`resuming: ${journalled.length} of ${plan.length} releases are in the journal`);
    // cmp: the result JSON byte for byte, and the same NDJSON on stdout.
    expect(readFileSync(out)).toEqual(readFileSync(join(dir, 'whole.json')));
    expect(resumed.stdout).toBe(whole.stdout);
    expect(existsSync(journal)).toBe(false);
    // Installing eight releases into a cache of its own takes minutes on a loaded machine.
  }, 600_000);
});

// `sweep --ai-sdk` (issue #12): @ai-sdk/mcp releases over the ecosystem matrix's ai-sdk cases. Observed
// (2026-11-30): every case behaved the same in 2.0.80..2.0.99 (no change point), so this asserts the plan,
// that every ai-sdk case ran, and that 2.0.98 behaves as the pinned 2.0.99 recorded in
// results/recorded-ecosystem.json.
describe('sweep --ai-sdk over real releases', () => {
  it('installs @ai-sdk/mcp 2.0.98 beside the pinned 2.0.99 and runs every ai-sdk case as the pinned release did', async () => {
    const own = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-ai-sdk-'));
    const out = join(own, 'ai-sdk.json');
    const run = await runCli(['sweep', '--matrix', 'ecosystem', '--ai-sdk', '2.0.98..2.0.99', '--out', out, '--baseline', join(own, 'none.json')]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(result.plan).toEqual(['ai-sdk@2.0.98', 'ai-sdk@2.0.99']);
    const [older, pinned] = result.releases;
    expect(older?.release).toMatchObject({ packageName: '@ai-sdk/mcp', version: '2.0.98', source: 'registry' });
    expect(older?.release.integrity).toMatch(/^sha512-/);
    expect(pinned?.release.source).toBe('pinned');
    const recorded = ResultFileSchema.parse(JSON.parse(readFileSync(join(ROOT, 'results', 'recorded-ecosystem.json'), 'utf8'))).cases.filter((c) => c.client === 'ai-sdk');
    expect(recorded.length).toBeGreaterThan(0);
    if (older?.status !== 'ran') throw new Error(`ai-sdk@2.0.98 did not run: ${JSON.stringify(older)}`);
    expect(older.cases.map((c) => c.id).sort()).toEqual(recorded.map((c) => c.id).sort());
    expect(older.cases.every((c) => c.clientPackage === '@ai-sdk/mcp@2.0.98')).toBe(true);
    const behaviours = (cases: readonly { id: string; observed: Parameters<typeof behaviourOf>[0] }[]) => Object.fromEntries(cases.map((c) => [c.id, behaviourOf(c.observed)]));
    expect(behaviours(older.cases)).toEqual(behaviours(recorded));
    expect(result.changePoints).toEqual([]);
    expect(run.stdout).toContain('ai-sdk · @ai-sdk/mcp · 2 releases (2.0.98–2.0.99)');
  }, 240_000);
});

// The docs' samples that need the registry (<!-- sample: NAME registry -->, probe/bin/docs.ts): checked here,
// not by the offline npm test. Here, after the sweep above, because sweep-v1-range installs the same two
// releases and two npm installs must not share the cache at once (see the top of this file).
describe('the docs samples that need the registry', () => {
  const registrySamples = (Object.keys(SAMPLES) as SampleName[]).filter((name) => (SAMPLES[name] as Sample).registry);
  const rendered = new Map<SampleName, string>();
  beforeAll(async () => {
    for (const name of registrySamples) rendered.set(name, await renderSample(name, { cwd: TEST_PROJECT }));
  }, 240_000);

  it('run, and sweep-v1-range shows the change point it is there for', () => {
    expect(rendered.get('sweep-v1-range')).toContain('v1/warm/error-off-schema: returned isError ≤ 1.11.3 → rejected -32602 from 1.11.4');
  });

  it('are each what a fresh run prints in README.md and docs/ (run npm run docs when this fails)', () => {
    expect(staleSamples(allMarkers(ROOT), rendered)).toEqual([]);
  });
});
