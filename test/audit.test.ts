// The 13 audit cases against the real pinned SDKs over real in-memory connections (the suite's one run
// of them, test/global-setup.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Expected, JsonValue, ResultFile } from '../probe/core/domain.ts';
import { judge } from '../probe/core/judge.ts';
import { parseResultText, serializeResult } from '../probe/io/json-files.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { RECORDED } from './helpers/cli.ts';
import { pinnedPart } from './helpers/pinned-run.ts';

// The audit's table, written out again independently of scenarios/audit.ts so a slip in either shows.
// [case id, outcome, code or isError, structuredContent returned]
const OFF_SCHEMA = { error: 'unavailable' };
const AUDIT_TABLE: [id: string, outcome: 'returned' | 'rejected', codeOrIsError: number | boolean, structured: JsonValue | undefined][] = [
  ['v1/warm/conforming-success', 'returned', false, { value: 7 }],
  ['v2/warm/conforming-success', 'returned', false, { value: 7 }],
  ['v1/warm/off-schema-success', 'rejected', -32602, undefined],
  ['v2/warm/off-schema-success', 'rejected', -32602, undefined],
  ['v1/warm/success-without-structured', 'rejected', -32600, undefined],
  ['v2/warm/success-without-structured', 'rejected', -32600, undefined],
  ['v1/warm/error-text-only', 'returned', true, undefined],
  ['v2/warm/error-text-only', 'returned', true, undefined],
  ['v1/warm/error-off-schema', 'rejected', -32602, undefined],
  ['v2/warm/error-off-schema', 'returned', true, OFF_SCHEMA],
  ['v1/warm/error-conforming', 'returned', true, { value: 0 }],
  ['v2/warm/error-conforming', 'returned', true, { value: 0 }],
  ['v1/cold/error-off-schema', 'returned', true, OFF_SCHEMA],
];

/** The opposite of what a case expects; the real observation must fail it. */
function contrary(expected: Expected): Expected[] {
  if (expected.outcome === 'timeout' || expected.outcome === 'crashed') return [{ outcome: 'returned', isError: false }];
  if (expected.outcome === 'rejected') {
    return [
      { outcome: 'returned', isError: false },
      { outcome: 'returned', isError: true },
      { outcome: 'rejected', code: expected.code === -32602 ? -32600 : -32602 },
    ];
  }
  const flippedStructured: Expected = { ...expected, structuredContent: { value: 'other' } };
  return [{ outcome: 'rejected', code: -32602 }, { ...expected, isError: !expected.isError }, flippedStructured];
}

describe('the 13-case audit against the pinned SDKs', () => {
  const result: ResultFile = pinnedPart(auditMatrix);

  it('runs exactly the audit table, in its order', () => {
    expect(result.cases.map((c) => c.id)).toEqual(AUDIT_TABLE.map(([id]) => id));
    expect(result.summary).toEqual({ passed: 13, failed: 0 });
  });

  it('records the pinned client packages actually installed', () => {
    expect(result.environment.packages).toMatchObject({
      '@modelcontextprotocol/sdk': '1.32.2',
      '@modelcontextprotocol/client': '2.4.0',
    });
    for (const record of result.cases) {
      expect(record.clientPackage).toBe(record.client === 'v1' ? '@modelcontextprotocol/sdk@1.32.2' : '@modelcontextprotocol/client@2.4.0');
    }
  });

  it.each(AUDIT_TABLE)('%s: %s %s', (id, outcome, codeOrIsError, structured) => {
    const record = result.cases.find((c) => c.id === id);
    expect(record?.observed.serverSent).toBe('as-scenario');
    const observed = record!.observed;
    expect(observed.outcome).toBe(outcome);
    if (observed.outcome === 'rejected') {
      expect(observed.error.code).toBe(codeOrIsError);
      expect(observed.error.name).toBe(record!.client === 'v1' ? 'McpError' : 'ProtocolError');
    } else if (observed.outcome === 'returned') {
      expect(observed.isError === true).toBe(codeOrIsError);
      expect(observed.structuredContent).toEqual(structured);
      expect(Object.hasOwn(observed, 'structuredContent')).toBe(structured !== undefined);
    }
    expect(record!.verdict).toBe('pass');
  });

  it('states every expectation of the matrix as the audit table does', () => {
    for (const [id, outcome, codeOrIsError, structured] of AUDIT_TABLE) {
      const expected = auditMatrix.scenarios.find((s) => s.id === id)!.expected!;
      if (outcome === 'rejected') expect(expected).toEqual({ outcome, code: codeOrIsError });
      else {
        expect(expected).toMatchObject({ outcome, isError: codeOrIsError });
        expect(expected.outcome === 'returned' && expected.structuredContent).toEqual(structured ?? undefined);
        expect(Object.hasOwn(expected, 'structuredContent')).toBe(structured !== undefined);
      }
    }
  });

  it('fails every real observation against a contrary expectation', () => {
    for (const record of result.cases) {
      for (const expected of contrary(record.expected!)) {
        expect(judge(expected, record.observed).verdict, `${record.id} vs ${JSON.stringify(expected)}`).toBe('fail');
      }
    }
  });

  it('gives byte-identical case data to an earlier run (the committed results/recorded.json)', () => {
    // The earlier run is the recorded one; the shipped command's own run is compared with it the same way
    // in test/launch.test.ts.
    const recorded = parseResultText(readFileSync(RECORDED, 'utf8'), RECORDED);
    expect(serializeResult({ ...recorded, cases: result.cases })).toBe(serializeResult(recorded));
  });
});
