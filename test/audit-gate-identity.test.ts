// Issue 21 item 5, the audit side, for real: the pinned audit against a recorded result whose one case's
// error message was edited (an input file, not an observation). `--v1 1.20.0` exited 1 on exactly this
// (ajv's "data should NOT have additional properties" against 1.32.2's wording, same code -32602) while
// every case passed. The message alone is identity: exit 0 unless --gate-identity.
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RECORDED } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

const CASE = 'v1/warm/off-schema-success';
let dir: string;
let reworded: string;
let recoded: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-identity-'));
  const edit = (file: string, mutate: (error: { code: unknown; message: string }) => void) => {
    copyFileSync(RECORDED, file);
    const json = JSON.parse(readFileSync(file, 'utf8'));
    const record = json.cases.find((c: { id: string }) => c.id === CASE);
    mutate(record.observed.error);
    writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  };
  reworded = join(dir, 'reworded.json');
  edit(reworded, (error) => {
    error.message = "MCP error -32602: Structured content does not match the tool's output schema: data should NOT have additional properties";
  });
  recoded = join(dir, 'recoded.json');
  edit(recoded, (error) => {
    error.code = -32600;
  });
});

describe('the audit against a recorded result that differs in an error message only', () => {
  it('exits 0, counts the change as identity only and not gated', async () => {
    const run = await runMain(['--recorded', reworded, '--out', join(dir, 'a.json'), '--case', 'v1/**']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Compared with');
    expect(run.stdout).toMatch(/: \d+ matched, 1 changed \(identity only: the error's class name or message; not gated, --gate-identity gates it\), \d+ unchecked/);
    expect(run.stdout).toMatch(new RegExp(`identity only \\(not gated\\):\\n\\s+changed ${CASE}\\n\\s+observed: rejected McpError -32602: .*data should NOT have additional properties → rejected McpError -32602`));
    expect(run.code).toBe(0);
  });

  it('exits 1 with --gate-identity, and says the change is gated', async () => {
    const run = await runMain(['--recorded', reworded, '--out', join(dir, 'b.json'), '--case', 'v1/**', '--gate-identity']);
    expect(run.stdout).toMatch(/1 changed \(identity only: the error's class name or message; gated by --gate-identity\)/);
    expect(run.code).toBe(1);
  });

  it('the Markdown evidence counts it apart and lists it under "identity only"', async () => {
    const run = await runMain(['--recorded', reworded, '--out', join(dir, 'e.md'), '--case', 'v1/**', '--format', 'markdown']);
    expect(run.code).toBe(0);
    const evidence = readFileSync(join(dir, 'e.md'), 'utf8');
    expect(evidence).toMatch(/Against `[^`]+`: \d+ matched, 1 changed \(identity only: the error's class name or message; not gated, --gate-identity gates it\), \d+ unchecked\.\n\n- identity only \(not gated\):\n  - changed `v1\/warm\/off-schema-success`\n    - observed/);
  });

  it('the job summary (the Action) says the same, and whether --gate-identity gated it', async () => {
    const { compareWithRecorded, parseResultText, renderSummaryMarkdown } = await import('../probe/api/index.ts');
    const result = parseResultText(readFileSync(join(dir, 'a.json'), 'utf8'), 'a.json');
    const comparison = compareWithRecorded(parseResultText(readFileSync(reworded, 'utf8'), 'reworded.json'), result, { fullMatrix: false });
    expect(comparison.entries.find((e) => e.id === CASE)).toMatchObject({ kind: 'changed', changeKind: 'identity' });
    const summary = renderSummaryMarkdown(result, comparison, 'the audit');
    expect(summary).toMatch(/Compared with the recorded result: \d+ matched, 1 changed \(identity only: the error's class name or message; not gated, --gate-identity gates it\), \d+ unchecked\.\n\n- identity only \(not gated\):\n  - changed `v1\/warm\/off-schema-success`/);
    expect(renderSummaryMarkdown(result, comparison, 'the audit', { gateIdentity: true })).toContain('1 changed (identity only: the error\'s class name or message; gated by --gate-identity)');
  });

  it('a changed code is behaviour: exits 1 without --gate-identity', async () => {
    const run = await runMain(['--recorded', recoded, '--out', join(dir, 'c.json'), '--case', 'v1/**']);
    expect(run.stdout).toMatch(/: \d+ matched, 1 changed, \d+ unchecked/);
    expect(run.stdout).toMatch(new RegExp(`\\n  changed ${CASE}\\n\\s+observed: rejected McpError -32600`));
    expect(run.code).toBe(1);
  });
});
