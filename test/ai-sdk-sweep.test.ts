// `sweep --ai-sdk` (issue #12 item 4): the ai-sdk line as a swept line, offline. Parsing, refusals, the
// gate's lines and a sweep of the pinned @ai-sdk/mcp (no registry: the pinned release is the project's
// own install). Sweeps over other published releases are in test/releases/sweep.test.ts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterFromModule } from '../probe/clients/index.ts';
import { LINE_PINS, RELEASE_PEERS } from '../probe/clients/packages.ts';
import { gatedLines, sweepRequests } from '../probe/commands/sweep.ts';
import { MATRICES } from '../probe/commands/audit.ts';
import { requestFlags } from '../probe/render/sweep-markdown.ts';
import { describeLeftOut } from '../probe/render/sweep.ts';
import { leftOutOfClientSweep } from '../probe/sweep/side.ts';
import { SweepResultSchema } from '../probe/sweep/model.ts';
import { ROOT, runCli } from './helpers/cli.ts';

describe('sweep --ai-sdk', () => {
  it('parses --ai-sdk as a client request of the ai-sdk line', () => {
    expect(sweepRequests({ aiSdk: '2.0.98..2.0.99' })).toEqual({ requests: [{ line: 'ai-sdk', flag: '--ai-sdk', text: '2.0.98..2.0.99' }], side: 'client' });
    expect(() => sweepRequests({ aiSdk: '2.0.99', serverV1: '1.33.0' })).toThrow(/--ai-sdk and --server-v1/);
  });

  it('gates the ai-sdk line when its range ends at latest, and names the flag in reports', () => {
    expect(gatedLines({ v1: null, v2: null, aiSdk: '2.0.90..latest', prerelease: false })).toEqual(['ai-sdk']);
    expect(gatedLines({ v1: null, v2: null, aiSdk: '2.0.99', prerelease: false })).toEqual([]);
    expect(requestFlags({ v1: null, v2: null, aiSdk: '2.0.98..2.0.99', prerelease: false })).toBe('--ai-sdk 2.0.98..2.0.99');
  });

  it('leaves out only the lines not swept', async () => {
    const scenarios = (await MATRICES.ecosystem()).scenarios;
    const leftOut = (swept: Parameters<typeof leftOutOfClientSweep>[1]) => new Set(leftOutOfClientSweep(scenarios, swept).flatMap((g) => g.caseIds.map((id) => id.split('/')[0])));
    expect(leftOut([])).toEqual(new Set(['ai-sdk', 'langchain']));
    expect(leftOut(['ai-sdk'])).toEqual(new Set(['langchain']));
    // The report names the lines actually left out, never one that ran.
    const said = (swept: Parameters<typeof leftOutOfClientSweep>[1]) => describeLeftOut({ leftOut: leftOutOfClientSweep(scenarios, swept) });
    expect(said(['ai-sdk'])).toEqual([expect.stringMatching(/^\d+ cases of the matrix not run: their client is an ecosystem line \(langchain\) this sweep has no releases of; /)]);
    expect(said(['v1'])).toEqual([expect.stringMatching(/: their client is an ecosystem line \(ai-sdk, langchain\) this sweep/)]);
  });

  it('makes an adapter from an @ai-sdk/mcp module and refuses a module without createMCPClient', async () => {
    expect(() => adapterFromModule['ai-sdk']({}, '@ai-sdk/mcp@0.0.0')).toThrow('@ai-sdk/mcp@0.0.0 does not export createMCPClient');
    expect(adapterFromModule['ai-sdk'](await import('@ai-sdk/mcp'), '@ai-sdk/mcp@2.0.99').line).toBe('ai-sdk');
  });

  it('installs the zod the project pins beside @ai-sdk/mcp releases (their peer)', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(RELEASE_PEERS['ai-sdk'].zod).toBe(pkg.dependencies.zod);
    expect(LINE_PINS['ai-sdk']['@ai-sdk/mcp']).toBe('2.0.99');
  });

  it('refuses --ai-sdk with a matrix that has no ai-sdk case (exit 2, one line)', async () => {
    const run = await runCli(['sweep', '--ai-sdk', '2.0.99']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('mcp-sdk-probe: --ai-sdk: no selected case of matrix audit runs on the ai-sdk client; use --matrix ecosystem\n');
  });

  it('sweeps the pinned @ai-sdk/mcp over the ecosystem matrix, naming the package in every output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-ai-sdk-'));
    const args = ['sweep', '--matrix', 'ecosystem', '--ai-sdk', '2.0.99', '--case', 'ai-sdk/warm/*conforming*', '--baseline', join(dir, 'none.json')];
    const run = await runCli([...args, '--out', join(dir, 'out.json')]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code).toBe(0);
    const result = SweepResultSchema.parse(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')));
    expect(result.request.aiSdk).toBe('2.0.99');
    expect(result.plan).toEqual(['ai-sdk@2.0.99']);
    const [release] = result.releases;
    expect(release?.status).toBe('ran');
    const ids = release?.status === 'ran' ? release.cases.map((c) => c.id) : [];
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith('ai-sdk/warm/'))).toBe(true);
    expect(release?.status === 'ran' && release.cases.every((c) => c.clientPackage === '@ai-sdk/mcp@2.0.99')).toBe(true);
    expect(run.stdout).toContain('ai-sdk · @ai-sdk/mcp · 1 release (2.0.99)');
    const md = await runCli([...args, '--format', 'markdown', '--out', join(dir, 'out.md')]);
    expect(md.code).toBe(0);
    const markdown = readFileSync(join(dir, 'out.md'), 'utf8');
    expect(markdown).toContain('--ai-sdk 2.0.99');
    expect(markdown).toContain('@ai-sdk/mcp');
    const html = await runCli([...args, '--format', 'html', '--out', join(dir, 'out.html')]);
    expect(html.code).toBe(0);
    expect(readFileSync(join(dir, 'out.html'), 'utf8')).toContain('@ai-sdk/mcp');
  }, 120_000);
});
