// Golden files for the terminal report (colour off, a fixed environment block: what varies between
// machines is kept out so the golden compares only what the probe says). vitest never writes a missing
// golden in CI, so a golden cannot be silently created there.
import { describe, expect, it } from 'vitest';
import { isCi, wantsColour } from '../probe/commands/cli.ts';
import { compareWithRecorded } from '../probe/core/compare.ts';
import type { ResultFile } from '../probe/core/domain.ts';
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
