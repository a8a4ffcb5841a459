// The GitHub Action (action.yml) as far as it runs off GitHub: its script, action/run.mjs, run as the
// composite step runs it (INPUT_* variables, a temporary $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT, the
// workspace as the working folder), against the pinned clients. And the wiring: every input action.yml
// declares reaches the script, and this repository's workflow uses the action.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareWithRecorded, parseResultText, recordedResult, renderJunit, renderSummaryMarkdown } from '../probe/api/index.ts';
import { ACTION_SCRIPT as SCRIPT, runAction as runActionIn } from './helpers/action.ts';
import { ROOT } from './helpers/cli.ts';
import { expectValidResult } from './helpers/schema.ts';

const base = mkdtempSync(join(tmpdir(), 'probe-action-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const runAction = (inputs: Record<string, string>, files: Record<string, string> = {}) => runActionIn(base, inputs, files);

const CAPTURES = {
  'captures/error-with-structured-content.json': join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json'),
  'captures/logged-jsonrpc-messages.json': join(ROOT, 'scenarios', 'captures', 'logged-jsonrpc-messages.json'),
};

describe('the action script', () => {
  it('audit (the default): the summary has the table and the comparison; JSON and JUnit reports; outputs', async () => {
    const run = await runAction({});
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.summary).toMatch(/^## mcp-sdk-probe audit: passed\n\n### MCP isError Results Meet Different Client Checks\n\n\*\*13 passed, 0 failed\*\* · v1 = `@modelcontextprotocol\/sdk@1\.32\.2` · v2 = `@modelcontextprotocol\/client@2\.4\.0`\n/);
    expect(run.summary).toContain('| result shape | v1 warm | v2 warm | v1 cold |');
    // Data in Markdown text is backslash-escaped (issue 20); it reads the same rendered.
    expect(run.summary).toContain('| `error-off-schema` | ✅ rejected \\-32602 | ✅ returned isError | ✅ returned isError |');
    expect(run.summary).toContain('Compared with the recorded result: 13 matched.');
    expect(run.summary).not.toContain(base); // no machine path
    expect(run.outputs).toEqual({ 'exit-code': '0', passed: '13', failed: '0', reports: 'mcp-sdk-probe-reports' });
    const reports = join(run.workspace, 'mcp-sdk-probe-reports');
    expect(readdirSync(reports).sort()).toEqual(['audit.json', 'audit.junit.xml']);
    const json = readFileSync(join(reports, 'audit.json'), 'utf8');
    expectValidResult(json);
    // The JUnit report is rendered from the JSON the command wrote: the two cannot disagree.
    expect(readFileSync(join(reports, 'audit.junit.xml'), 'utf8')).toBe(renderJunit(parseResultText(json, 'audit.json')));
    expect(readFileSync(join(reports, 'audit.junit.xml'), 'utf8').match(/<testcase /g)).toHaveLength(13);
  });

  it('replay: every capture the glob matches, one report pair each; a failed expectation fails the step (exit 1) and shows in the summary', async () => {
    // The SDK lines only (`args` reaches the command): what this test counts is the script's reports, and
    // replay's default of every client line would add the ecosystem columns.
    const run = await runAction({ mode: 'replay', captures: 'captures/*.json', expect: 'returned\nv1/warm=rejected:-32602', args: '--clients v1,v2' }, CAPTURES);
    expect(run.code).toBe(1);
    expect(run.summary).toMatch(/^## mcp-sdk-probe replay: failed \(exit 1\)\n/);
    expect(run.summary).toContain('### replay of captures\\/error\\-with\\-structured\\-content\\.json\n\n**4 passed, 0 failed**');
    expect(run.summary).toContain('### replay of captures\\/logged\\-jsonrpc\\-messages\\.json\n\n**3 passed, 1 failed**');
    expect(run.summary).toContain('| `logged-jsonrpc-messages` | ✅ rejected \\-32602 | ✅ returned | ❌ rejected \\-32602 | ✅ returned |');
    expect(run.summary).toContain('- ❌ `v2/warm/logged-jsonrpc-messages`: expected returned\\, observed rejected');
    expect(run.outputs).toEqual({ 'exit-code': '1', passed: '7', failed: '1', reports: 'mcp-sdk-probe-reports' });
    const reports = join(run.workspace, 'mcp-sdk-probe-reports');
    expect(readdirSync(reports).sort()).toEqual([
      'replay-captures-error-with-structured-content.json',
      'replay-captures-error-with-structured-content.junit.xml',
      'replay-captures-logged-jsonrpc-messages.json',
      'replay-captures-logged-jsonrpc-messages.junit.xml',
    ]);
    expect(readFileSync(join(reports, 'replay-captures-logged-jsonrpc-messages.junit.xml'), 'utf8').match(/<failure /g)).toHaveLength(1);
  });

  it('replay: the same captures with what the clients really do pass (exit 0); a file two globs match runs once, two names with one slug both run', async () => {
    const run = await runAction(
      { mode: 'replay', captures: 'captures/error-*.json captures/logged-*.json\ncaptures/*.json', expect: 'v1/warm=rejected:-32602\n*/cold=returned', reports: 'out/probe', args: '--clients v1,v2' },
      { ...CAPTURES, 'captures-logged-jsonrpc-messages.json': CAPTURES['captures/logged-jsonrpc-messages.json'] },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.summary).toMatch(/^## mcp-sdk-probe replay: passed\n/);
    expect(run.outputs).toEqual({ 'exit-code': '0', passed: '6', failed: '0', reports: 'out/probe' });
    expect(readdirSync(join(run.workspace, 'out', 'probe')).filter((f) => f.endsWith('.json')).sort()).toEqual([
      'replay-captures-error-with-structured-content.json',
      'replay-captures-logged-jsonrpc-messages.json',
    ]);
    const again = await runAction({ mode: 'replay', captures: '*.json captures/logged-*.json', expect: 'v1/warm=rejected:-32602', args: '--clients v1,v2' }, { ...CAPTURES, 'captures-logged-jsonrpc-messages.json': CAPTURES['captures/logged-jsonrpc-messages.json'] });
    expect(again.code).toBe(0);
    expect(readdirSync(join(again.workspace, 'mcp-sdk-probe-reports')).filter((f) => f.endsWith('.json')).sort()).toEqual([
      'replay-captures-logged-jsonrpc-messages-2.json',
      'replay-captures-logged-jsonrpc-messages.json',
    ]);
  });

  it('replay: a capture the command refuses is shown in the summary with its one-line error, and the step fails (exit 2)', async () => {
    const run = await runAction({ mode: 'replay', captures: '*.json' }, { 'broken.json': join(ROOT, 'package.json') });
    expect(run.code).toBe(2);
    expect(run.summary).toContain('### replay of broken\\.json\n\nDid not run (exit 2):\n\n```text\nmcp-sdk-probe: broken.json: not a valid replay capture: ');
    expect(run.summary).not.toContain(base);
  });

  it('sweep: the sweep JSON and its HTML page, the sweep\'s own report in the summary', async () => {
    const run = await runAction({ mode: 'sweep', v1: '1.32.2', v2: '2.4.0', args: '--case */warm/*' });
    expect(run.code).toBe(0);
    expect(run.summary).toMatch(/^## mcp-sdk-probe sweep: passed\n\n### sweep of MCP isError Results Meet Different Client Checks\n\n\*\*2 releases swept\\, 0 did not run\\, 0 change points\*\* \(exit 0\)/);
    expect(run.summary).toContain('v2/warm/error-off-schema            returned isError');
    const reports = join(run.workspace, 'mcp-sdk-probe-reports');
    expect(readdirSync(reports).sort()).toEqual(['sweep.html', 'sweep.json']);
    expect(readFileSync(join(reports, 'sweep.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    expect(JSON.parse(readFileSync(join(reports, 'sweep.json'), 'utf8')).plan).toEqual(['v1@1.32.2', 'v2@2.4.0']);
  });

  it.each([
    [{ mode: 'everything' }, 'input mode: "everything": expected one of audit, replay, sweep'],
    [{ mode: 'replay' }, 'input captures: the replay mode needs a glob of capture files'],
    [{ mode: 'replay', captures: 'nowhere/*.json' }, 'input captures: nowhere/*.json matches no file under the working folder'],
    [{ mode: 'sweep' }, 'input v1, v2: the sweep mode needs a range of releases'],
    [{ matrix: 'all' }, 'input matrix: "all": the audit mode runs audit or extended'],
  ])('bad input %j: one line, exit 2, nothing run', async (inputs, message) => {
    const run = await runAction(inputs);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`mcp-sdk-probe action: ${message}${message.endsWith('range of releases') ? ' for at least one line (1.10.0..latest)' : message.endsWith('capture files') ? ' (captures/*.json)' : ''}\n`);
    expect(run.stdout).toBe('');
    expect(run.outputs).toEqual({ 'exit-code': '2' });
    expect(existsSync(join(run.workspace, 'mcp-sdk-probe-reports'))).toBe(false);
  });
});

describe('the action\'s wiring', () => {
  const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
  const declared = [...action.split(/^outputs:/m)[0]!.split(/^inputs:/m)[1]!.matchAll(/^ {2}([a-z0-9-]+):$/gm)].map((m) => m[1]!);

  it('passes every input the script reads from action.yml, as INPUT_<NAME>', () => {
    const script = readFileSync(SCRIPT, 'utf8');
    const read = [...script.matchAll(/\b(?:input|list)\('([a-z0-9-]+)'/g)].map((m) => m[1]!);
    expect(new Set(read)).toEqual(new Set(['mode', 'matrix', 'captures', 'expect', 'v1', 'v2', 'args', 'reports']));
    for (const name of read) {
      expect(declared).toContain(name);
      expect(action).toContain(`INPUT_${name.toUpperCase()}: \${{ inputs.${name} }}`);
    }
    // The rest are the composite's own: node set-up and the upload.
    expect(declared.filter((name) => !read.includes(name)).sort()).toEqual(['artifact-name', 'node-version', 'upload']);
    expect(action).toContain('run: node "$GITHUB_ACTION_PATH/action/run.mjs"');
    expect(action).toMatch(/if: always\(\) && inputs\.upload == 'true'\n\s+uses: actions\/upload-artifact@v4/);
  });

  it('is what this repository\'s workflow runs', () => {
    const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'probe.yml'), 'utf8');
    expect(workflow.match(/uses: \.\/$/gm)).toHaveLength(2);
    expect(workflow).toContain('captures: scenarios/captures/*.json');
  });
});

describe('the job summary (renderSummaryMarkdown)', () => {
  const recorded = recordedResult('audit');

  it('lists what differs from the recorded result, with each change, and the failures with why', () => {
    // The recorded result as if v2 had rejected error-off-schema, and had never run conforming-success.
    const before = structuredClone(recorded);
    const changed = before.cases.find((c) => c.id === 'v2/warm/error-off-schema')!;
    changed.observed = { ...changed.observed, outcome: 'rejected', error: { name: 'ProtocolError', code: -32602, message: 'x' } } as never;
    before.cases = before.cases.filter((c) => c.id !== 'v2/warm/conforming-success');
    const summary = renderSummaryMarkdown(recorded, compareWithRecorded(before, recorded, { fullMatrix: true }), 'the audit');
    expect(summary).toContain('Compared with the recorded result: 11 matched, 1 changed, 1 new.');
    expect(summary).toMatch(/^- changed `v2\/warm\/error-off-schema`\n {2}- observed\\: rejected ProtocolError \\-32602\\: x → returned isError/m);
    expect(summary).toContain('- new (not in the recorded result) `v2/warm/conforming-success`');
    expect(summary).not.toContain('**Failed:**');

    const failing = structuredClone(recorded);
    const first = failing.cases[0]!;
    failing.cases[0] = { ...first, verdict: 'fail', mismatches: [{ kind: 'outcome', expected: 'returned', observed: 'rejected' }] } as typeof first;
    failing.summary = { ...failing.summary, passed: 12, failed: 1 };
    const failed = renderSummaryMarkdown(failing, undefined);
    expect(failed).toMatch(/^### MCP isError Results Meet Different Client Checks\n\n\*\*12 passed, 1 failed\*\*/);
    expect(failed).toContain(`**Failed:**\n\n- ❌ \`${first.id}\`: expected returned\\, observed rejected\n`);
    expect(failed).not.toContain('Compared with');
  });
});
