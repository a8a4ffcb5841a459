// Guards the extended matrix's tables against drift without running any SDK: a handful of cells are
// written out again here, independently of scenarios/, from the matrix as it stood when the families
// were rewritten as tables; a slip in a table (or here) shows as a mismatch.
import { describe, expect, it } from 'vitest';
import type { Expected } from '../probe/core/domain.ts';
import { AUDIT_CELLS, auditMatrix } from '../scenarios/audit.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';

const expectedOf = (id: string) => extendedMatrix.scenarios.find((s) => s.id === id)?.expected;

const OFF_SCHEMA_TEXT = [{ type: 'text', text: '{"error":"unavailable"}' }];
const UNAVAILABLE_TEXT = [{ type: 'text', text: 'The value service is unavailable.' }];

const CELLS: [id: string, expected: Expected][] = [
  // edge-values: a falsy non-object is refused by v2's result parse before any outputSchema check.
  ['v2/warm/error-structured-zero', { outcome: 'rejected', code: 'INVALID_RESULT', name: 'SdkError', by: 'client-result-parse' }],
  ['v1/warm/success-structured-null', { outcome: 'rejected', name: '$ZodError', by: 'client-result-parse' }],
  [
    'v2/warm/error-structured-nested-extra',
    { outcome: 'returned', isError: true, structuredContent: { value: 7, extra: { deep: true } }, content: UNAVAILABLE_TEXT },
  ],
  ['v1/warm/wrapped-success-structured-zero', { outcome: 'rejected', code: -32602, by: 'server', sent: 'error' }],
  // discovery
  ['v1/changed/schema-widened-off-schema-success', { outcome: 'rejected', code: -32602, by: 'client-output-schema' }],
  [
    'v2/changed/schema-widened-off-schema-success',
    { outcome: 'returned', isError: false, structuredContent: { error: 'unavailable' }, content: OFF_SCHEMA_TEXT },
  ],
  ['v1/all-pages/paged-off-schema-success', { outcome: 'rejected', code: -32602, by: 'client-output-schema' }],
  ['v2/definition/off-schema-success', { outcome: 'rejected', code: -32602, by: 'client-output-schema' }],
  // schemas
  ['v1/warm/schema-bad-pattern', { outcome: 'crashed', stage: 'discover', name: 'SyntaxError' }],
  ['v2/warm/schema-bad-pattern', { outcome: 'rejected', code: -32602, by: 'client-output-schema', sent: 'nothing' }],
  // server-side
  ['v2/warm/v2-mcp-server-unknown-tool', { outcome: 'rejected', code: -32602, by: 'server', sent: 'error' }],
  ['v1/warm/v1-mcp-server-off-schema-success', { outcome: 'returned', isError: true, sent: 'altered' }],
  ['v1/warm/low-level-handler-throws', { outcome: 'rejected', code: -32603, by: 'server', sent: 'error' }],
  // faults
  ['v2/warm/fault-close-mid-call', { outcome: 'rejected', code: 'CONNECTION_CLOSED', by: 'transport', name: 'SdkError' }],
  // protocol-era
  ['v2/warm/modern-era-string-off-schema', { outcome: 'rejected', code: -32602, by: 'client-output-schema', sent: 'altered' }],
  [
    'v2/warm/modern-era-error-string-off-schema',
    { outcome: 'returned', isError: true, structuredContent: 'seven', content: [{ type: 'text', text: '"seven"' }], sent: 'altered' },
  ],
  ['v2/warm/legacy-era-number-conforming', { outcome: 'rejected', code: -32602, by: 'server', sent: 'error' }],
  // transports
  ['v1/warm/http-error-off-schema', { outcome: 'rejected', code: -32602, by: 'client-output-schema', sent: 'as-scenario' }],
  [
    'v2/warm/stdio-error-off-schema',
    { outcome: 'returned', isError: true, structuredContent: { error: 'unavailable' }, content: UNAVAILABLE_TEXT, sent: 'as-scenario' },
  ],
];

describe('the extended matrix as tables', () => {
  it.each(CELLS)('%s expects what its table row says', (id, expected) => {
    expect(expectedOf(id)).toEqual(expected);
  });

  it('keeps its size, family by family (a dropped or doubled row shows here)', () => {
    const counts: Record<string, number> = {};
    for (const scenario of extendedMatrix.scenarios) counts[scenario.family ?? '?'] = (counts[scenario.family ?? '?'] ?? 0) + 1;
    expect(counts).toEqual({ discovery: 24, 'edge-values': 36, schemas: 8, 'server-side': 38, faults: 10, 'protocol-era': 12, transports: 24 });
    expect(extendedMatrix.scenarios).toHaveLength(152);
  });

  it('gives every case a family, a question and a reference', () => {
    for (const scenario of extendedMatrix.scenarios) {
      expect(scenario.family, scenario.id).toMatch(/^[a-z-]+$/);
      expect(scenario.question, scenario.id).toMatch(/\S/);
      expect(scenario.reference, scenario.id).toMatch(/\S/);
    }
  });

  it("runs the audit's cold v1 case once, in the audit, and nowhere in the extended matrix", () => {
    expect(auditMatrix.scenarios.filter((s) => s.id === 'v1/cold/error-off-schema')).toHaveLength(1);
    expect(expectedOf('v1/cold/error-off-schema')).toBeUndefined();
  });

  it("builds the audit's warm cases from AUDIT_CELLS, cell for cell", () => {
    for (const [shapeId, cells] of Object.entries(AUDIT_CELLS)) {
      for (const [client, cell] of Object.entries(cells)) {
        expect(auditMatrix.scenarios.find((s) => s.id === `${client}/warm/${shapeId}`)?.expected, `${client}/warm/${shapeId}`).toEqual(cell);
      }
    }
  });
});
