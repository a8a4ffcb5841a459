// --scenarios DIR: user-written JSON and TypeScript scenarios beside the built-in matrix (the CLI
// in-process, test/helpers/main.ts).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultFileSchema } from '../probe/core/domain.ts';
import { SweepResultSchema } from '../probe/sweep/model.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { expectValidResult } from './helpers/schema.ts';

const EXAMPLES = join(ROOT, 'scenarios', 'examples');
const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { v: { type: 'number' } }, required: ['v'] } };
const scenario = { shape: 'mine', tool, result: { content: [], structuredContent: { v: 'x' } }, expected: { 'v1/warm': 'rejected:-32602' } };

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-scenarios-'));
  mkdirSync(join(dir, 'in'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'in', name), text);
  return dir;
}

describe('--scenarios', () => {
  it('runs the shipped example scenarios (JSON and TypeScript) beside the audit, which still matches its record', async () => {
    const dir = folder({});
    const run = await runMain(['--scenarios', EXAMPLES, '--allow-scenario-code', '--json', '--out', join(dir, 'out.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectValidResult(run.stdout);
    const result = ResultFileSchema.parse(JSON.parse(run.stdout));
    expect(result.summary).toEqual({ passed: 19, failed: 0 });
    expect(result.cases.slice(13).map((c) => `${c.id} ${c.observed.outcome}`)).toEqual([
      'v1/warm/error-empty-text returned',
      'v2/warm/error-empty-text returned',
      'v1/warm/error-conforming-variant returned',
      'v1/cold/error-conforming-variant returned',
      'v2/warm/error-conforming-variant returned',
      'v2/cold/error-conforming-variant returned',
    ]);
    expect(result.lint?.['error-empty-text']?.map((f) => f.rule)).toContain('error-result-empty-text');
  });

  it('refuses the same examples without --allow-scenario-code: the TypeScript one is code (test/hostile-scenario-module.test.ts)', async () => {
    const dir = folder({});
    const run = await runMain(['--scenarios', EXAMPLES, '--out', join(dir, 'out.json')]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: `mcp-sdk-probe: --scenarios ${EXAMPLES}: structured-error-variant.ts is a TypeScript scenario module, which is code: it runs only with --allow-scenario-code (JSON scenario files need no trust)\n`,
    });
  });

  it('judges user expectations: a wrong one fails the run', async () => {
    const dir = folder({ 'mine.json': JSON.stringify({ ...scenario, expected: { 'v1/warm': 'returned' } }) });
    const run = await runMain(['--scenarios', join(dir, 'in'), '--out', join(dir, 'out.json')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ v1/warm/mine: expected returned, observed rejected -32602');
    expect(run.stdout).toContain('Compared with results/recorded.json: 13 matched');
  });

  it('takes capture files too: each becomes the cases replay makes of it, run beside the audit', async () => {
    const captures = join(ROOT, 'scenarios', 'captures');
    const dir = folder({
      'error-with-structured-content.json': readFileSync(join(captures, 'error-with-structured-content.json'), 'utf8'),
      'logged-jsonrpc-messages.json': readFileSync(join(captures, 'logged-jsonrpc-messages.json'), 'utf8'),
      'mine.json': JSON.stringify(scenario),
    });
    const run = await runMain(['--scenarios', join(dir, 'in'), '--case', '*/*/error-with-structured-content', '--case', '*/*/logged-jsonrpc-messages', '--case', '*/*/mine', '--json', '--out', join(dir, 'out.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = ResultFileSchema.parse(JSON.parse(run.stdout));
    // Every line and discovery mode replay runs (this checkout has every line's packages), unjudged as a
    // replay without --expect is, beside the scenario file's own judged case.
    const modes = ['v1/warm', 'v1/cold', 'v2/warm', 'v2/cold', 'ai-sdk/warm', 'ai-sdk/cold', 'ai-sdk/tools-automatic', 'ai-sdk/tools-with-schemas', 'langchain/load-tools'];
    expect(result.cases.map((c) => `${c.id} ${c.verdict}`)).toEqual([
      ...modes.map((mode) => `${mode}/error-with-structured-content unjudged`),
      ...modes.map((mode) => `${mode}/logged-jsonrpc-messages unjudged`),
      'v1/warm/mine pass',
    ]);
    const byId = new Map(result.cases.map((c) => [c.id, c]));
    const v1warm = byId.get('v1/warm/error-with-structured-content')!;
    expect(v1warm.observed.outcome === 'rejected' && v1warm.observed.error.code).toBe(-32602);
    // The logged tools/call request's arguments are the call's, as in a replay.
    expect(byId.get('langchain/load-tools/logged-jsonrpc-messages')?.arguments).toEqual({ city: 'Oslo' });
  });

  it('sweep --scenarios takes the same capture files', async () => {
    const dir = folder({ 'error-with-structured-content.json': readFileSync(join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json'), 'utf8') });
    const out = join(dir, 'sweep.json');
    const run = await runMain(['sweep', '--v2', '2.4.0', '--scenarios', join(dir, 'in'), '--case', 'v2/*/error-with-structured-content', '--out', out, '--baseline', join(dir, 'none.json')]);
    expect(run.stderr).not.toMatch(/mcp-sdk-probe: /);
    expect(run.code).toBe(0);
    const [release] = SweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).releases;
    expect(release?.status === 'ran' && release.cases.map((c) => `${c.id} ${c.observed.outcome}`)).toEqual([
      'v2/warm/error-with-structured-content returned',
      'v2/cold/error-with-structured-content returned',
    ]);
  });

  it.each([
    ['a capture that is not valid', { 'a.json': JSON.stringify({ tool: { name: 't' }, result: { content: [] } }) }, /in\/a\.json: not a valid replay capture: tool\.inputSchema: /],
    ['a capture whose case the audit already defines', { 'off-schema-success.json': JSON.stringify({ tool, result: { content: [] } }) }, /off-schema-success\.json: case v1\/warm\/off-schema-success is already defined by the built-in matrix/],
    ['a field of the wrong type', { 'a.json': JSON.stringify({ ...scenario, tool: { ...tool, inputSchema: 3 } }) }, /in\/a\.json: not a valid scenario file: tool\.inputSchema: /],
    ['a shape that is not a slug', { 'a.json': JSON.stringify({ ...scenario, shape: 'Not A Slug' }) }, /a\.json: not a valid scenario file: shape: must be a kebab-case slug/],
    ['no expectation at all', { 'a.json': JSON.stringify({ ...scenario, expected: {} }) }, /a\.json: not a valid scenario file: expected: name at least one of/],
    ['an unknown client cell', { 'a.json': JSON.stringify({ ...scenario, expected: { 'v3/warm': 'returned' } }) }, /a\.json: not a valid scenario file: expected/],
    ['a bad expectation word', { 'a.json': JSON.stringify({ ...scenario, expected: { 'v1/warm': 'thrown' } }) }, /a\.json: expected\.v1\/warm: 'thrown' is not an expectation/],
    ['broken JSON', { 'a.json': '{"shape":' }, /a\.json: not valid JSON/],
    ['a TypeScript module without a default export', { 'a.ts': 'export const x = 1;\n' }, /a\.ts: not a valid scenario module \(its default export\)/],
    ['a TypeScript module that does not compile', { 'a.ts': 'export default {{{;\n' }, /a\.ts: cannot load the scenario module/],
    ['a case the audit already defines', { 'a.json': JSON.stringify({ ...scenario, shape: 'off-schema-success' }) }, /case v1\/warm\/off-schema-success is already defined by the built-in matrix/],
    ['the same case in two files', { 'a.json': JSON.stringify(scenario), 'b.json': JSON.stringify(scenario) }, /b\.json: case v1\/warm\/mine is also defined in .*a\.json/],
    ['an empty folder', {}, /--scenarios .*: no \.json or \.ts scenario files in it/],
  ])('exits 2 before running anything on %s', async (_name, files, message) => {
    const dir = folder(files);
    const run = await runMain(['--scenarios', join(dir, 'in'), '--allow-scenario-code', '--out', join(dir, 'out.json')]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });
});
