// Any release for a capture (issue 21, item 4), without the npm registry: the pinned clients, the
// project's own installed client packages as package folders (an unreleased build beside a range), and a
// release cache whose version lists are fixed (test/helpers/offline-registry.ts), the registry
// unreachable. A replay over an installed range of releases is in test/releases/sweep.test.ts.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ResultFileSchema } from '../probe/core/domain.ts';
import { SweepResultSchema } from '../probe/sweep/model.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { seededCache, UNREACHABLE_REGISTRY } from './helpers/offline-registry.ts';

const PAIR = join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json');
/** The project's own installed v1 client, used in place as a package folder (an SDK checkout's build). */
const V1_FOLDER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk');
const V2_FOLDER = join(ROOT, 'node_modules', '@modelcontextprotocol', 'client');

let dir: string;
let env: Record<string, string>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-replay-releases-'));
  env = { MCP_SDK_PROBE_CACHE: seededCache() };
  // The probe runs `npm view` with this process's environment.
  vi.stubEnv('npm_config_registry', UNREACHABLE_REGISTRY);
});
afterAll(() => {
  vi.unstubAllEnvs();
});

const probe = (args: string[]) => runMain(args, { env });
const out = (name: string) => ['--out', join(dir, name)];
const noBaseline = () => ['--baseline', join(dir, 'no-baseline.json')];

describe('several specs for one line', () => {
  it('sweep runs the union: a local build beside a release, each release once, in release order', async () => {
    const run = await probe(['sweep', '--v1', V1_FOLDER, '--v1', '1.32.2', '--v1', '1.32.2', '--json', ...out('union.json'), ...noBaseline()]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(run.stdout));
    expect(result.plan).toHaveLength(2);
    expect(result.plan[0]).toBe('v1@1.32.2');
    expect(result.plan[1]).toMatch(/^v1@1\.32\.2\+local\.[0-9a-f]{8}$/);
    // Both ran, and the result says what was typed, each spec once per time it was given.
    expect(result.releases.map((r) => r.status)).toEqual(['ran', 'ran']);
    // A path of this machine by its file name: the result leaves the machine (test/sweep-portable.test.ts).
    expect(result.request.v1).toEqual(['sdk', '1.32.2', '1.32.2']);
  });

  it('a sweep of one spec per flag records it as a string, as before', async () => {
    const run = await probe(['sweep', '--v2', '2.4.0', '--json', ...out('one.json'), ...noBaseline()]);
    expect(run.code).toBe(0);
    expect(SweepResultSchema.parse(JSON.parse(run.stdout)).request).toMatchObject({ v1: null, v2: '2.4.0' });
  });

  it('the audit refuses a second --v1, naming both, before anything runs', async () => {
    const run = await probe(['--v1', '1.32.2', '--v1', V1_FOLDER, ...out('audit.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mcp-sdk-probe: --v1 1.32.2 and --v1 ${V1_FOLDER}: the audit runs one release per line (the sweep command takes several)\n`);
  });
});

describe('replay FILE --v1/--v2', () => {
  it('an exact release or a package folder replays the capture against that release, the other lines pinned', async () => {
    const run = await probe(['replay', PAIR, '--v1', V1_FOLDER, '--v2', '2.4.0', '--clients', 'v1,v2', '--json', ...out('replay-folder.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = ResultFileSchema.parse(JSON.parse(run.stdout));
    const packages = Object.fromEntries(result.cases.map((c) => [c.id, c.clientPackage]));
    expect(packages['v1/warm/error-with-structured-content']).toMatch(/^@modelcontextprotocol\/sdk@1\.32\.2\+local\.[0-9a-f]{8}$/);
    expect(packages['v2/warm/error-with-structured-content']).toBe('@modelcontextprotocol/client@2.4.0');
    // The local build is the pinned code: it does what the pinned v1 does with this result.
    const v1warm = result.cases.find((c) => c.id === 'v1/warm/error-with-structured-content')!;
    expect(v1warm.observed.outcome === 'rejected' && v1warm.observed.error.code).toBe(-32602);
  });

  it('--ai-sdk names the release of the ai-sdk cases, as for --v1', async () => {
    const run = await probe(['replay', PAIR, '--ai-sdk', '2.0.99', '--clients', 'ai-sdk', '--json', ...out('replay-ai-sdk.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = ResultFileSchema.parse(JSON.parse(run.stdout));
    expect(result.cases.map((c) => c.clientPackage)).toEqual(Array(4).fill('@ai-sdk/mcp@2.0.99'));
    expect((await probe(['replay', PAIR, '--ai-sdk', '9.9.9', ...out('replay-ai-sdk.json')])).code).toBe(2);
  });

  it('a range makes it a sweep of the capture: a grid of its cases over the releases', async () => {
    // '>=1.32.2' and the folder resolve, offline, to the pinned 1.32.2 and the local build of it.
    const run = await probe(['replay', PAIR, '--v1', '>=1.32.2', '--v1', V1_FOLDER, ...out('replay-sweep.json')]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'replay-sweep.json'), 'utf8')));
    expect(result.matrix.name).toBe('replay');
    expect(result.plan).toEqual(['v1@1.32.2', expect.stringMatching(/^v1@1\.32\.2\+local\.[0-9a-f]{8}$/)]);
    // A sweep of the capture on the line it varies: v1's two discovery modes, in each release.
    for (const release of result.releases) {
      expect(release.status === 'ran' && release.cases.map((c) => c.id)).toEqual(['v1/warm/error-with-structured-content', 'v1/cold/error-with-structured-content']);
    }
    expect(result.changePoints).toEqual([]);
    expect(run.stdout).toContain('2 releases swept, 0 did not run, 0 change points');
  });

  it('a sweep of the capture records its own baseline with --update, and the next sweep compares with it', async () => {
    const baseline = join(dir, 'replay-baseline.json');
    const args = ['replay', PAIR, '--v1', '>=1.32.2', '--baseline', baseline, ...out('replay-baselined.json')];
    const update = await probe([...args, '--update']);
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(/Sweep baseline updated: .*replay-baseline\.json \(--update\)/);
    const again = await probe(args);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Compared with .*replay-baseline\.json: 1 matched/);
    // A replay of one release per line has no baseline to compare with.
    const one = await probe(['replay', PAIR, '--v1', '1.32.2', '--update', ...out('x.json')]);
    expect(one.code).toBe(2);
    expect(one.stderr).toBe('mcp-sdk-probe: --update: a sweep baseline is for a replay over several releases (a range, or a line\'s releases given more than once)\n');
  });

  it('a sweep of the capture writes the sweep HTML page', async () => {
    const page = join(dir, 'replay-sweep.html');
    const run = await probe(['replay', PAIR, '--v1', '>=1.32.2', '--format', 'html', '--out', page]);
    expect(run.code).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain('Sweep of matrix replay: replay of error-with-structured-content.json');
  });

  it('a sweep of the capture exits 1 when a release does not do what --expect says', async () => {
    const args = ['replay', PAIR, '--v2', '>=2.4.0', '--v2', V2_FOLDER];
    const pass = await probe([...args, '--expect', 'returned', ...out('expect-pass.json')]);
    expect(pass.code).toBe(0);
    const fail = await probe([...args, '--expect', 'v2/cold=rejected', ...out('expect-fail.json')]);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toMatch(/\n✗ v2\/cold\/error-with-structured-content: expected rejected \(any error\), observed returned isError in v2@2\.4\.0, v2@2\.4\.0\+local\.[0-9a-f]{8}\n$/);
  });

  it.each([
    ['--server-v1', ['--server-v1', '1.24.0'], '--server-v1: a replay sends the captured result as the server sent it; it varies client releases only (--v1, --v2, --ai-sdk)'],
    ['--server-v2', ['--server-v2', '2.4.0'], '--server-v2: a replay sends the captured result as the server sent it; it varies client releases only (--v1, --v2, --ai-sdk)'],
    ['--format junit over a range', ['--v1', '>=1.32.2', '--format', 'junit'], "--format junit: a replay over several releases writes table, json or html"],
    ['--format repro over a range', ['--v1', '>=1.32.2', '--format', 'repro'], "--format repro: a replay over several releases writes table, json or html"],
    ['--format markdown over a range', ['--v1', '>=1.32.2', '--format', 'markdown'], '--format markdown: a replay over several releases writes table, json or html'],
    ['--clients naming a line the range does not vary', ['--v1', '>=1.32.2', '--clients', 'v1,langchain'], '--clients v1,langchain: a replay over several releases runs only the lines it varies (--v1); langchain is not one of them'],
  ])('exits 2 on %s, in one line', async (_name, flags, message) => {
    const run = await probe(['replay', PAIR, ...flags, ...out('refused.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mcp-sdk-probe: ${message}\n`);
  });
});

describe('a package folder whose dependencies are not installed', () => {
  // The pinned v1 client's own files, copied where no node_modules is above them: a fresh checkout's
  // built package before `npm install` (it used to fail with "Cannot find package 'zod'" and no hint).
  let bare: string;
  beforeAll(() => {
    bare = join(mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-bare-')), 'sdk');
    cpSync(V1_FOLDER, bare, { recursive: true, dereference: true });
    rmSync(join(bare, 'node_modules'), { recursive: true, force: true });
  });

  it.each([
    ['the audit', ['--v1']],
    ['a replay', ['replay', PAIR, '--v1']],
    ['a sweep', ['sweep', '--v1', V1_FOLDER, '--v1']],
  ])('%s says what to run in that folder, in one line, exit 2', async (_name, args) => {
    const run = await probe([...args, bare, ...out('bare.json'), ...(args[0] === 'sweep' ? noBaseline() : [])]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      new RegExp(`^mcp-sdk-probe: --v1 ${bare.replace(/[.*+?^$()[\]{}|\\]/g, '\\$&')}: its dependencies are not installed \\(@hono/node-server, ajv, ajv-formats and \\d+ more\\); run npm install \\(or npm ci\\) in that folder, or pack it \\(npm pack\\) and pass the \\.tgz\n$`),
    );
  });
});
