// Server sweeps (--server-v1/--server-v2) without the registry: which cases a server release runs and
// which are left out, the behaviour a server sweep compares (what went on the wire, then what the client
// did), the combinations of flags that are refused, the renderers, the per-side baseline and the
// newest-vs-pinned gate, and the fixtures taking an injected server package. Sweeps over other published
// server releases are in test/releases/sweep.test.ts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MATRICES } from '../probe/commands/audit.ts';
import { sweepRequests } from '../probe/commands/sweep.ts';
import type { Observation, Scenario } from '../probe/core/domain.ts';
import { serverSweepExclusion, type ServerSource } from '../probe/core/fixture.ts';
import { releaseKey } from '../probe/core/release.ts';
import { observe } from '../probe/engine/observe.ts';
import { adapters } from '../probe/clients/index.ts';
import { renderSweepHtml } from '../probe/render/sweep-html.ts';
import { renderSweepMarkdown, requestFlags } from '../probe/render/sweep-markdown.ts';
import { describeChangePoint, renderSweepReport } from '../probe/render/sweep.ts';
import { compareNewestWithPinned, compareWithBaseline, toBaseline } from '../probe/sweep/gates.ts';
import { behaviourOf, changePoints, describeBehaviour, summarize, SweepResultSchema, type ReleaseRun, type SweepResult } from '../probe/sweep/model.ts';
import { leftOutOfServerSweep, scenariosFor } from '../probe/sweep/side.ts';
import { caseRecord, FIXED_ENVIRONMENT, resultFile } from './fixtures.ts';
import { RECORDED } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { seededCache, UNREACHABLE_REGISTRY } from './helpers/offline-registry.ts';

const R = (o: Partial<Observation> = {}) => ({ outcome: 'returned', content: [], serverSent: 'as-scenario', ...o }) as Observation;
/** caseRecord() fills in a returned observation's fields; a rejection is given whole. */
const record = (id: string, observed: Observation) => caseRecord(id, {}, { observed });
const serverError = (code: number, message: string) => ({ error: { code, message } });

function serverRun(label: string, observations: Record<string, Observation>): ReleaseRun {
  return {
    status: 'ran',
    release: { side: 'server', line: 'v1', packageName: '@modelcontextprotocol/sdk', version: label, label, source: 'registry', integrity: `sha512-${label}` },
    cases: Object.entries(observations).map(([id, observed]) => record(id, observed)),
  };
}

function serverSweep(releases: ReleaseRun[], fields: Partial<SweepResult> = {}): SweepResult {
  return {
    schemaVersion: 2,
    kind: 'sweep',
    matrix: { name: 'extended', title: 't', source: 's' },
    environment: FIXED_ENVIRONMENT,
    request: { v1: null, v2: null, serverV1: '1.23.1..1.24.0', serverV2: null, prerelease: false },
    plan: releases.map((r) => releaseKey(r.release)),
    releases,
    changePoints: changePoints(releases),
    leftOut: [{ reason: 'other-package', caseIds: ['v2/warm/modern-era-number-conforming'] }],
    summary: summarize(releases),
    ...fields,
  };
}

// What the wrapped low-level Server did around 1.24.0 (shape of the real records in test/releases/).
const rejectedByClient = { outcome: 'rejected', error: { name: '$ZodError', code: null, message: 'x' }, by: 'client-result-parse', serverSent: 'as-scenario' } as Observation;
const rejectedByServer = (message: string) =>
  ({ outcome: 'rejected', error: { name: 'McpError', code: -32602, message }, by: 'server', serverSent: serverError(-32602, message) }) as Observation;
const history = [
  serverRun('1.23.1', { 'v1/warm/wrapped-success-structured-null': rejectedByClient, 'v1/warm/conforming': R() }),
  serverRun('1.24.0', { 'v1/warm/wrapped-success-structured-null': rejectedByServer('Invalid tools/call result'), 'v1/warm/conforming': R() }),
];

describe('which cases a server release runs', () => {
  const scenario = (server: Scenario['server'], transport?: Scenario['transport']) => ({ server, ...(transport && { transport }) });
  const result = { content: [] };
  it.each([
    ['v1 low-level in memory', scenario({ kind: 'respond', result }), 'v1', null],
    ['v1 low-level over HTTP', scenario({ kind: 'respond', result }, 'http'), 'v1', null],
    ['v1 low-level fault', scenario({ kind: 'hang' }), 'v1', null],
    ['v1 low-level on stdio (bundled child)', scenario({ kind: 'respond', result }, 'stdio'), 'v1', 'stdio-child'],
    ['v1 McpServer', scenario({ kind: 'helper', helper: 'v1-mcp-server', result }), 'v1', null],
    ['v2 McpServer under --server-v1', scenario({ kind: 'helper', helper: 'v2-mcp-server', result }), 'v1', 'other-package'],
    ['v2 McpServer', scenario({ kind: 'helper', helper: 'v2-mcp-server', result }), 'v2', null],
    ['v2 handler', scenario({ kind: 'v2-handler', era: 'modern', result }), 'v2', null],
    ['v1 low-level under --server-v2', scenario({ kind: 'respond', result }), 'v2', 'other-package'],
  ] as const)('%s', (_name, s, line, expected) => {
    expect(serverSweepExclusion(s, line)).toBe(expected);
  });

  it('runs every extended case once across both server lines, and says which it leaves out', async () => {
    const { scenarios } = await MATRICES.extended();
    const v1 = scenariosFor(scenarios, { side: 'server', line: 'v1' }).map((s) => s.id);
    const v2 = scenariosFor(scenarios, { side: 'server', line: 'v2' }).map((s) => s.id);
    expect(v1.filter((id) => v2.includes(id))).toEqual([]);
    // Both client lines run against a server release: the clients are pinned.
    expect(new Set(scenarios.filter((s) => v1.includes(s.id)).map((s) => s.client))).toEqual(new Set(['v1', 'v2']));
    const both = leftOutOfServerSweep(scenarios, ['v1', 'v2']);
    expect(both.map((g) => g.reason)).toEqual(['stdio-child']);
    expect(v1.length + v2.length + both[0]!.caseIds.length).toBe(scenarios.length);
    const onlyV1 = leftOutOfServerSweep(scenarios, ['v1']);
    expect(onlyV1.find((g) => g.reason === 'other-package')?.caseIds).toEqual(v2);
    // A client release still runs its own line's cases.
    expect(scenariosFor(scenarios, { line: 'v2' }).every((s) => s.client === 'v2')).toBe(true);
  });
});

describe('a server sweep compares what went on the wire too', () => {
  it('puts serverSent into the behaviour, without error wording', () => {
    const a = behaviourOf(rejectedByServer('one wording'), 'server');
    expect(a).toEqual({ sent: { error: { code: -32602 } }, outcome: 'rejected', code: -32602, name: 'McpError' });
    expect(behaviourOf(rejectedByServer('another wording'), 'server')).toEqual(a);
    // A client sweep's behaviour leaves the (pinned) server out.
    expect(behaviourOf(rejectedByServer('x'))).not.toHaveProperty('sent');
    expect(describeBehaviour(a)).toBe('sent error -32602 → rejected -32602');
    expect(describeBehaviour(behaviourOf(R({ isError: true, serverSent: { altered: { isError: true } } }), 'server'))).toBe('sent altered → returned isError');
  });

  it('names the server release that changed the wire, and what the client did about it', () => {
    const [point, ...rest] = changePoints(history);
    expect(rest).toEqual([]);
    expect(describeChangePoint(point!)).toBe(
      'v1/warm/wrapped-success-structured-null: sent as given → rejected $ZodError ≤ 1.23.1 → sent error -32602 → rejected -32602 from 1.24.0',
    );
    // The same wire with the same client outcome is no change point, whatever the release.
    const same = [history[0]!, serverRun('1.24.0', { 'v1/warm/wrapped-success-structured-null': rejectedByClient, 'v1/warm/conforming': R() })];
    expect(changePoints(same)).toEqual([]);
  });

  it('a change whose one-line wording reads the same names the fields that differ', () => {
    const altered = (text: string) => R({ isError: true, content: [{ type: 'text', text }], serverSent: { altered: { isError: true, content: [{ type: 'text', text }] } } });
    const [point] = changePoints([serverRun('1', { a: altered('old wording') }), serverRun('2', { a: altered('new wording') })]);
    expect(describeChangePoint(point!)).toBe('a: sent altered → returned isError ≤ 1 → sent altered → returned isError from 2 (sent, content differ)');
  });
});

describe('server sweep reports name the server package and release', () => {
  const result = serverSweep(history);
  const input = { result, baseline: undefined, baselinePath: 'results/sweep-baseline-server-extended.json', updatedBaseline: false, pinned: [], writtenPath: undefined };
  it('terminal', () => {
    const text = renderSweepReport(input);
    expect(text).toContain('server sweep: each release\'s server package runs the fixtures; clients pinned: @modelcontextprotocol/sdk@1.32.2');
    expect(text).toContain('server v1 · @modelcontextprotocol/sdk · 2 releases (1.23.1–1.24.0)');
    expect(text).toContain('1 case of the matrix not run: their fixture comes from a server package this sweep does not vary (v2/warm/modern-era-number-conforming)');
    expect(text).toMatch(/v1\/warm\/wrapped-success-structured-null\s+sent as given → rejected \$ZodError\s+sent error -32602 → rejected -32602\n/);
  });
  it('HTML', () => {
    const page = renderSweepHtml(result);
    expect(page).toContain('<h2>server v1 · @modelcontextprotocol/sdk · 2 releases (1.23.1–1.24.0)</h2>');
    expect(page).toContain('sweep --server-v1 1.23.1..1.24.0');
    expect(page).toContain('1 case of the matrix not run');
  });
  it('Markdown', () => {
    const page = renderSweepMarkdown(input);
    // Data in Markdown text is backslash-escaped (issue 20); it reads the same rendered.
    expect(page).toContain('| `v1/warm/wrapped-success-structured-null` | sent as given → rejected \\$ZodError (≤ 1\\.23\\.1) | sent error \\-32602 → rejected \\-32602 (from 1\\.24\\.0) |');
    expect(page).toContain('node_modules/.bin/mcp-sdk-probe sweep --server-v1 1.23.1..1.24.0 --matrix extended');
    expect(page).toContain('"by": "server"');
    expect(requestFlags({ v1: '1.11.3 || 1.11.4', v2: null, prerelease: true })).toBe("--v1 '1.11.3 || 1.11.4' --prerelease");
  });
  it('the sweep JSON records the side and the server release', () => {
    const parsed = SweepResultSchema.parse(JSON.parse(JSON.stringify(result)));
    expect(parsed.releases[0]!.release).toMatchObject({ side: 'server', packageName: '@modelcontextprotocol/sdk', label: '1.23.1' });
    expect(parsed.plan).toEqual(['server-v1@1.23.1', 'server-v1@1.24.0']);
    expect(toBaseline(parsed)).toMatchObject({ side: 'server', releases: [{ release: 'server-v1@1.23.1' }, { release: 'server-v1@1.24.0' }] });
  });
});

describe('server sweep gates', () => {
  it('compares with a server baseline, the wire included', () => {
    const baseline = toBaseline(serverSweep(history));
    expect(compareWithBaseline(baseline, serverSweep(history)).map((e) => e.kind)).toEqual(['matched', 'matched']);
    // The same client outcome, but the server now sends something else: a change.
    const rewired = [history[0]!, serverRun('1.24.0', { 'v1/warm/wrapped-success-structured-null': { ...rejectedByServer('x'), serverSent: serverError(-32603, 'x') } as Observation, 'v1/warm/conforming': R() })];
    const [, changed] = compareWithBaseline(baseline, serverSweep(rewired));
    expect(changed).toMatchObject({ kind: 'changed', release: 'server-v1@1.24.0', cases: [{ caseId: 'v1/warm/wrapped-success-structured-null' }] });
  });

  it('newest server release against the pinned one, over the cases it ran', () => {
    const recorded = {
      ...resultFile([record('v1/warm/wrapped-success-structured-null', rejectedByServer('y')), caseRecord('v1/warm/conforming'), caseRecord('v2/warm/not-swept', { isError: true })]),
      environment: FIXED_ENVIRONMENT,
    };
    const [same] = compareNewestWithPinned(recorded, serverSweep(history), ['v1']);
    expect(same).toEqual({ line: 'v1', kind: 'same', release: 'server-v1@1.24.0', pinned: '@modelcontextprotocol/sdk@1.32.2' });
    const [differs] = compareNewestWithPinned(recorded, serverSweep(history.slice(0, 1)), ['v1']);
    expect(differs).toMatchObject({ kind: 'differs', release: 'server-v1@1.23.1', cases: [{ caseId: 'v1/warm/wrapped-success-structured-null' }] });
  });
});

describe('allowed combinations', () => {
  it.each([
    [{ v1: '1.32.2', serverV1: '1.32.2' }, '--v1 and --server-v1: a sweep varies one side of the wire (clients or servers); run two sweeps, each has its own baseline'],
    [{ v1: '1.32.2', v2: '2.4.0', serverV2: '2.4.0' }, '--v1/--v2 and --server-v2: a sweep varies one side'],
    [{}, 'sweep needs --v1, --v2 and/or --ai-sdk (for example --v1 1.10.0..latest), or --server-v1 and/or --server-v2 for server releases'],
  ])('refuses %j', (flags, message) => {
    expect(() => sweepRequests(flags)).toThrow(message);
  });
  it.each([
    [{ serverV1: '1.20.0..1.24.0', serverV2: '2.0.0..latest' }, 'server', ['--server-v1', '--server-v2']],
    [{ v1: '1.10.0..latest', v2: 'latest' }, 'client', ['--v1', '--v2']],
  ] as const)('allows %j', (flags, side, names) => {
    const { requests, side: chosen } = sweepRequests(flags);
    expect(chosen).toBe(side);
    expect(requests.map((r) => r.flag)).toEqual(names);
  });
});

describe('server sweep command without the registry', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-server-sweep-'));
    env = { MCP_SDK_PROBE_CACHE: seededCache() };
    vi.stubEnv('npm_config_registry', UNREACHABLE_REGISTRY);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });
  const sweep = (args: string[]) => runMain(args, { env });

  it.each([
    [['sweep', '--v1', '1.32.2', '--server-v1', '1.32.2'], 'mcp-sdk-probe: --v1 and --server-v1: a sweep varies one side of the wire'],
    [['sweep', '--server-v2', '2.4.0'], 'mcp-sdk-probe: --server-v2: no case of matrix audit runs a fixture from @modelcontextprotocol/server in process'],
    [['sweep', '--server-v1', './sdk'], 'mcp-sdk-probe: --server-v1 ./sdk: server sweeps take published releases only'],
    [['sweep', '--server-v1', '1.19.0'], 'mcp-sdk-probe: --server-v1 1.19.0: @modelcontextprotocol/sdk has no published release 1.19.0; nearest: 1.18.1, 1.18.2, 1.19.1, 1.20.0'],
    [['sweep', '--server-v2', '2.9.0', '--matrix', 'extended'], 'mcp-sdk-probe: --server-v2 2.9.0: @modelcontextprotocol/server has no published release 2.9.0'],
    [['sweep', '--server-v1', '1.32.2', '--baseline', 'results/sweep-baseline.json'], 'a sweep baseline of client releases, not server releases'],
  ])('usage error, exit 2, one line: %j', async (args, message) => {
    const run = await sweep(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(run.stderr.includes('warning:') ? 2 : 1);
  });

  it('sweeps the pinned server packages with the pinned clients, records the side, and gates the newest against the pinned', async () => {
    const narrowed = ['--matrix', 'extended', '--case', '*/warm/v1-mcp-server-off-schema-success', '--case', '*/warm/v2-mcp-server-off-schema-success', '--case', '*/warm/stdio-error-conforming'];
    const baseline = join(dir, 'server-baseline.json');
    const recorded = await sweep(['sweep', '--server-v1', 'latest', '--server-v2', 'latest', ...narrowed, '--out', join(dir, 'server.json'), '--baseline', baseline]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')));
    expect(result.request).toEqual({ v1: null, v2: null, serverV1: 'latest', serverV2: 'latest', prerelease: false });
    expect(result.plan).toEqual(['server-v1@1.32.2', 'server-v2@2.4.0']);
    expect(result.releases.map((r) => [r.release.side, r.release.packageName, r.release.source])).toEqual([
      ['server', '@modelcontextprotocol/sdk', 'pinned'],
      ['server', '@modelcontextprotocol/server', 'pinned'],
    ]);
    const ids = result.releases.map((r) => (r.status === 'ran' ? r.cases.map((c) => c.id) : []));
    expect(ids).toEqual([
      ['v1/warm/v1-mcp-server-off-schema-success', 'v2/warm/v1-mcp-server-off-schema-success'],
      ['v1/warm/v2-mcp-server-off-schema-success', 'v2/warm/v2-mcp-server-off-schema-success'],
    ]);
    expect(result.leftOut).toEqual([{ reason: 'stdio-child', caseIds: ['v1/warm/stdio-error-conforming', 'v2/warm/stdio-error-conforming'] }]);
    expect(recorded.stdout).toContain('server v2 · @modelcontextprotocol/server · 1 release (2.4.0)');
    expect(recorded.stdout).toContain('2 cases of the matrix not run: the stdio fixture is a separate bundled process that always runs the pinned server');
    expect(recorded.stdout).toMatch(/v1\/warm\/v1-mcp-server-off-schema-success\s+sent altered → returned isError\n/);
    expect(recorded.stdout).toContain('Newest server v1 release server-v1@1.32.2 behaves as the pinned @modelcontextprotocol/sdk@1.32.2 in every case');
    expect(recorded.stdout).toContain('Newest server v2 release server-v2@2.4.0 behaves as the pinned @modelcontextprotocol/server@2.4.0 in every case');

    // --update records a server baseline (of the whole matrix: here the audit's 13 cases), which the next
    // sweep compares with; a client sweep refuses it.
    const update = await sweep(['sweep', '--server-v1', '1.32.2', '--out', join(dir, 'u.json'), '--baseline', baseline, '--update']);
    expect(update.code, update.stderr).toBe(0);
    expect(JSON.parse(readFileSync(baseline, 'utf8'))).toMatchObject({ kind: 'sweep-baseline', matrix: 'audit', side: 'server', releases: [{ release: 'server-v1@1.32.2' }] });
    const again = await sweep(['sweep', '--server-v1', '1.32.2', '--out', join(dir, 'again.json'), '--baseline', baseline]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Compared with \S*server-baseline\.json: 1 matched release\(s\)/);
    const client = await sweep(['sweep', '--v1', '1.32.2', '--baseline', baseline]);
    expect(client.code).toBe(2);
    expect(client.stderr).toContain('a sweep baseline of server releases, not client releases');

    // The newest-vs-pinned gate fails when the recorded pinned result says otherwise.
    const tampered = join(dir, 'tampered-extended.json');
    const json = JSON.parse(readFileSync(join(RECORDED, '..', 'recorded-extended.json'), 'utf8'));
    json.cases.find((c: { id: string }) => c.id === 'v1/warm/v1-mcp-server-off-schema-success').observed.serverSent = 'as-scenario';
    writeFileSync(tampered, JSON.stringify(json));
    const gated = await sweep(['sweep', '--server-v1', 'latest', ...narrowed, '--out', join(dir, 'gated.json'), '--baseline', join(dir, 'none.json'), '--recorded', tampered]);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toContain('Newest server v1 release server-v1@1.32.2 behaves differently from the pinned @modelcontextprotocol/sdk@1.32.2:');
    expect(gated.stdout).toContain('v1/warm/v1-mcp-server-off-schema-success: sent as given → returned isError → sent altered → returned isError');
  }, 120_000);
});

describe('fixtures take an injected server package', () => {
  it('loads the low-level Server and the McpServer through the source, not the pinned import', async () => {
    const loaded: string[] = [];
    // The pinned install's own modules, reached through a ServerSource: this proves the fixtures ask the
    // source (a server sweep's release) for every module they use.
    const pinned: Record<string, () => Promise<unknown>> = {
      'server/index.js': () => import('@modelcontextprotocol/sdk/server/index.js'),
      'shared/protocol.js': () => import('@modelcontextprotocol/sdk/shared/protocol.js'),
      'types.js': () => import('@modelcontextprotocol/sdk/types.js'),
      'server/mcp.js': () => import('@modelcontextprotocol/sdk/server/mcp.js'),
    };
    const source: ServerSource = {
      line: 'v1',
      label: 'pinned-through-source',
      module: (subpath) => {
        loaded.push(subpath);
        return pinned[subpath]!();
      },
      dependency: (name) => {
        loaded.push(`dependency ${name}`);
        return import('zod');
      },
    };
    const { scenarios } = await MATRICES.extended();
    const lowLevel = scenarios.find((s) => s.id === 'v1/warm/wrapped-success-structured-null')!;
    const helper = scenarios.find((s) => s.id === 'v1/warm/v1-mcp-server-off-schema-success')!;
    const viaSource = await observe(lowLevel, adapters.v1, { timeoutMs: 5000, servers: { v1: source } });
    const pinnedRun = await observe(lowLevel, adapters.v1, { timeoutMs: 5000 });
    expect(viaSource).toEqual(pinnedRun);
    expect(loaded).toEqual(['server/index.js', 'shared/protocol.js', 'types.js']);
    const helperViaSource = await observe(helper, adapters.v1, { timeoutMs: 5000, servers: { v1: source } });
    expect(loaded.slice(3)).toEqual(['dependency zod', 'server/mcp.js']);
    expect(helperViaSource).toEqual(await observe(helper, adapters.v1, { timeoutMs: 5000 }));
    // A source for the other line's package is not used by a v1 fixture.
    loaded.length = 0;
    await observe(lowLevel, adapters.v1, { timeoutMs: 5000, servers: { v2: { ...source, line: 'v2' } } });
    expect(loaded).toEqual([]);
  });
});
