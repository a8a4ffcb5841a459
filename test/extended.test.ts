// The extended matrix against the real pinned SDKs: every case must do what was recorded for it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareWithRecorded } from '../probe/core/compare.ts';
import type { ResultFile } from '../probe/core/domain.ts';
import { describeMismatch } from '../probe/render/describe.ts';
import { parseResultText, serializeResult } from '../probe/io/json-files.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { ecosystemMatrix } from '../scenarios/ecosystem.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';
import { ROOT } from './helpers/cli.ts';
import { pinnedPart, pinnedRun } from './helpers/pinned-run.ts';
import { expectValidResult } from './helpers/schema.ts';

const RECORDED_EXTENDED = join(ROOT, 'results', 'recorded-extended.json');

describe('the extended matrix', () => {
  // The suite's one run of the extended matrix: its part of `--matrix all` (test/global-setup.ts).
  const result: ResultFile = pinnedPart(extendedMatrix);

  it('every case passes its recorded expectation', () => {
    const failures = result.cases.filter((c) => c.verdict !== 'pass').map((c) => `${c.id}: ${c.mismatches.map(describeMismatch).join('; ')}`);
    expect(failures).toEqual([]);
    expect(result.summary.passed).toBe(extendedMatrix.scenarios.length);
  });

  it('matches results/recorded-extended.json case for case', () => {
    const recorded = parseResultText(readFileSync(RECORDED_EXTENDED, 'utf8'), RECORDED_EXTENDED);
    const comparison = compareWithRecorded(recorded, result, { fullMatrix: true });
    expect(comparison.entries.filter((e) => e.kind !== 'matched')).toEqual([]);
    expectValidResult(serializeResult(result));
  });

  it('states an expectation, a family, a question and a reference for every case', () => {
    for (const scenario of extendedMatrix.scenarios) {
      expect(scenario.expected, scenario.id).not.toBeNull();
      expect(scenario.family, scenario.id).toMatch(/^(discovery|edge-values|schemas|server-side|faults|protocol-era|transports)$/);
      expect(scenario.question?.length, scenario.id).toBeGreaterThan(20);
      expect(scenario.reference?.length, scenario.id).toBeGreaterThan(10);
    }
  });

  // A case the client's own limit must end keeps the probe's limit far behind it, so a slow start on a
  // busy machine cannot let the probe's limit win and change the recorded outcome (it did at load 3 with
  // 500 ms against 150 ms). The ecosystem matrix's faults too.
  it("gives every case with a client limit a probe limit far past it (seconds, not milliseconds)", () => {
    const withClientLimit = [...extendedMatrix.scenarios, ...ecosystemMatrix.scenarios].filter((s) => s.clientTimeoutMs !== undefined);
    expect(withClientLimit.length).toBeGreaterThanOrEqual(2 + 3);
    for (const scenario of withClientLimit) expect({ id: scenario.id, margin: (scenario.timeoutMs ?? 5000) - scenario.clientTimeoutMs! >= 2000 }).toEqual({ id: scenario.id, margin: true });
  });

  it('shares no case id with the audit, so --matrix all can run both', () => {
    const audit = new Set(auditMatrix.scenarios.map((s) => s.id));
    expect(extendedMatrix.scenarios.filter((s) => audit.has(s.id))).toEqual([]);
  });

  it.each([
    // A handful of findings worth guarding by name, beside the recorded file.
    ['v1/warm/paged-off-schema-success', 'returned'],
    ['v2/one-page/paged-off-schema-success', 'returned'],
    ['v1/changed/schema-widened-off-schema-success', 'rejected'],
    ['v2/changed/schema-widened-off-schema-success', 'returned'],
    ['v1/warm/success-structured-null', 'rejected'],
    ['v1/warm/schema-bad-pattern', 'crashed'],
    ['v2/warm/v2-mcp-server-unknown-tool', 'rejected'],
    ['v1/warm/fault-malformed-answer', 'timeout'],
  ])('%s: %s', (id, outcome) => {
    expect(result.cases.find((c) => c.id === id)?.observed.outcome).toBe(outcome);
  });

  it('leaves nothing listening and no server child process behind', () => {
    // Listening sockets, sockets and child processes open in the process that ran every case (the stdio
    // and Streamable HTTP transports included), just before and 50 ms after the run.
    const { handles } = pinnedRun();
    expect(result.cases.filter((c) => c.family === 'transports').length).toBeGreaterThan(0);
    expect(handles.after).toEqual(handles.before);
  });

  it('records where a rejection came from', () => {
    const sent = (id: string) => result.cases.find((c) => c.id === id)?.observed.serverSent;
    expect(sent('v1/warm/wrapped-success-structured-null')).toMatchObject({ error: { code: -32602 } });
    expect(sent('v1/warm/success-structured-null')).toBe('as-scenario');
    expect(sent('v1/warm/v1-mcp-server-off-schema-success')).toMatchObject({ altered: { isError: true } });
  });
});
