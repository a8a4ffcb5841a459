// Golden files for the terminal report (colour off, a fixed environment block: what varies between
// machines is kept out so the golden compares only what the probe says). vitest never writes a missing
// golden in CI, so a golden cannot be silently created there.
import { describe, expect, it } from 'vitest';
import { isCi, wantsColour } from '../probe/commands/cli.ts';
import { compareWithRecorded } from '../probe/core/compare.ts';
import type { Expected, ResultFile } from '../probe/core/domain.ts';
import { FIXED_ENVIRONMENT } from './fixtures.ts';
import { renderTerminalReport } from '../probe/render/terminal.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { pinnedPart, rejudged } from './helpers/pinned-run.ts';

const environment = FIXED_ENVIRONMENT;

describe('terminal report', () => {
  // The suite's one run of the audit (test/global-setup.ts), with a fixed environment block.
  const result: ResultFile = pinnedPart(auditMatrix, environment);

  it('renders the passing audit', async () => {
    const report = renderTerminalReport({
      result,
      comparison: compareWithRecorded(result, result, { fullMatrix: true }),
      recordedPath: 'results/recorded.json',
      updatedRecorded: false,
      writtenPath: 'results/latest.json',
    });
    await expect(report).toMatchFileSnapshot('golden/audit-pass.txt');
  });

  it('renders failures and changes', async () => {
    // What a user sees when v2 starts validating isError results the way v1 does.
    const failing = rejudged(result, { 'v2/warm/error-off-schema': { outcome: 'rejected', code: -32602 } });
    const recorded = { ...result, cases: result.cases.filter((c) => c.id !== 'v1/cold/error-off-schema') };
    const report = renderTerminalReport({
      result: failing,
      comparison: compareWithRecorded(recorded, failing, { fullMatrix: true }),
      recordedPath: 'results/recorded.json',
      updatedRecorded: false,
      writtenPath: undefined,
    });
    await expect(report).toMatchFileSnapshot('golden/audit-fail.txt');
  });

  // Issue 21: a failed case's headline already says what was expected and what was observed; a detail
  // line under it says only what the headline does not (each fact once).
  it.each<[string, string, Expected, string[]]>([
    ['outcome', 'v2/warm/error-off-schema', { outcome: 'rejected' }, ['✗ v2/warm/error-off-schema: expected rejected (any error), observed returned isError']],
    ['code', 'v1/warm/error-off-schema', { outcome: 'rejected', code: -32600 }, ['✗ v1/warm/error-off-schema: expected rejected -32600, observed rejected -32602']],
    ['isError', 'v1/warm/error-text-only', { outcome: 'returned', isError: false }, ['✗ v1/warm/error-text-only: expected returned, observed returned isError']],
    [
      'the thrown class and who rejected, beside a matching code',
      'v1/warm/error-off-schema',
      { outcome: 'rejected', code: -32602, name: 'ZodError', by: 'server' },
      [
        '✗ v1/warm/error-off-schema: expected rejected -32602, observed rejected -32602',
        '    expected a thrown ZodError, observed McpError',
        "    expected the rejection from the server (a JSON-RPC error), it came from the client's outputSchema check",
      ],
    ],
    [
      'isError and structuredContent',
      'v1/warm/conforming-success',
      { outcome: 'returned', isError: true, structuredContent: { value: 8 } },
      ['✗ v1/warm/conforming-success: expected returned isError, observed returned', '    expected structuredContent {"value":8}, observed {"value":7}'],
    ],
  ])('states each fact of a failed case once (%s)', (_, id, expected, block) => {
    const report = renderTerminalReport({ result: rejudged(result, { [id]: expected }), comparison: undefined, recordedPath: 'results/recorded.json', updatedRecorded: false, writtenPath: undefined });
    const lines = report.split('\n');
    const start = lines.indexOf('Failed cases') + 1;
    expect(lines.slice(start, lines.indexOf('', start))).toEqual(block);
  });
});

describe('environment switches', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
  ])('colour with env %j on a tty=%s: %s', (env, stdoutIsTty, colour) => {
    expect(wantsColour({ env, stdoutIsTty })).toBe(colour);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', true],
    ['woodpecker', true],
  ])('CI=%j means CI: %s', (value, ci) => {
    expect(isCi({ CI: value })).toBe(ci);
  });
});
