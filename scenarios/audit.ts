// The 13-case fixture of the published source audit "MCP isError Results Meet Different Client Checks".
// In our words: a low-level in-memory server answers tools/call for one tool (outputSchema: an object with
// one required number `value`, no other properties) with six synthetic results; each goes to the v1
// client (@modelcontextprotocol/sdk 1.32.2) and the v2 client (@modelcontextprotocol/client 2.4.0) after
// tools/list, and the off-schema error once more to a v1 client that never listed the tools. Both clients
// reject the off-schema success (-32602) and the success without structuredContent (-32600) and return
// the rest; the one difference is the off-schema error, which listed v1 rejects (-32602) and v2 returns,
// and cold v1 returns too. Every expectation below is a cell of that table; none is copied from what the
// probe observed.
import { defineCase, defineMatrix, returnsAsSent, type ShapeDefinition } from '../probe/core/define.ts';
import type { SdkLine, Expected, ToolDefinition } from '../probe/core/domain.ts';

// JSON-RPC codes named by the audit's table.
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/** "an object output schema with one required numeric value property and additionalProperties: false" */
export const auditTool: ToolDefinition = {
  name: 'probe_value',
  description: 'Returns a value; the fixture answers with a synthetic result instead.',
  inputSchema: { type: 'object', properties: {} },
  outputSchema: {
    type: 'object',
    properties: { value: { type: 'number' } },
    required: ['value'],
    additionalProperties: false,
  },
};

const text = (value: string) => [{ type: 'text', text: value }];

export const auditShapes = {
  conformingSuccess: {
    id: 'conforming-success',
    title: 'Conforming success, { value: 7 }',
    result: { content: text('{"value":7}'), structuredContent: { value: 7 } },
  },
  offSchemaSuccess: {
    id: 'off-schema-success',
    title: 'Off-schema success, { error: "unavailable" }',
    result: { content: text('{"error":"unavailable"}'), structuredContent: { error: 'unavailable' } },
  },
  successWithoutStructured: {
    id: 'success-without-structured',
    title: 'Success missing structuredContent',
    result: { content: text('7') },
  },
  errorTextOnly: {
    id: 'error-text-only',
    title: 'Error with text only',
    result: { content: text('The value service is unavailable.'), isError: true },
  },
  errorOffSchema: {
    id: 'error-off-schema',
    title: 'Error with off-schema structured data',
    result: {
      content: text('The value service is unavailable.'),
      structuredContent: { error: 'unavailable' },
      isError: true,
    },
  },
  errorConforming: {
    id: 'error-conforming',
    title: 'Error with conforming structured data, { value: 0 }',
    result: { content: text('The value service is unavailable.'), structuredContent: { value: 0 }, isError: true },
  },
} as const satisfies Record<string, ShapeDefinition>;

const s = auditShapes;
const returned = (shape: ShapeDefinition) => returnsAsSent(shape.result);

export type AuditShapeId = (typeof auditShapes)[keyof typeof auditShapes]['id'];

// The audit names only the JSON-RPC code a rejection carries. Written as literals (not rejectsWith) so
// a family that adds what it observed (who rejected, what was sent) can spread a cell and stay typed.
const REJECTED_INVALID_PARAMS = { outcome: 'rejected', code: INVALID_PARAMS } as const satisfies Expected;
const REJECTED_INVALID_REQUEST = { outcome: 'rejected', code: INVALID_REQUEST } as const satisfies Expected;

/** The audit's table, v1.32.2 and v2.4.0 after listTools, keyed by shape id, in the audit's order. */
export const AUDIT_CELLS = {
  'conforming-success': { v1: returned(s.conformingSuccess), v2: returned(s.conformingSuccess) },
  'off-schema-success': { v1: REJECTED_INVALID_PARAMS, v2: REJECTED_INVALID_PARAMS },
  'success-without-structured': { v1: REJECTED_INVALID_REQUEST, v2: REJECTED_INVALID_REQUEST },
  'error-text-only': { v1: returned(s.errorTextOnly), v2: returned(s.errorTextOnly) },
  // The audit's one version difference: discovered v1 validates structuredContent even when isError is
  // set (its guard is `if (result.structuredContent)`), v2 skips validation for isError results.
  'error-off-schema': { v1: REJECTED_INVALID_PARAMS, v2: returned(s.errorOffSchema) },
  'error-conforming': { v1: returned(s.errorConforming), v2: returned(s.errorConforming) },
} as const satisfies Record<AuditShapeId, Record<SdkLine, Expected>>;

/**
 * "A separate v1 client called the same tool without first discovering it. That call returned the
 * off-schema structured error." (Discovery changes the v1 control)
 */
export const AUDIT_COLD_V1_ERROR_OFF_SCHEMA: Expected = returned(s.errorOffSchema);

export const auditMatrix = defineMatrix({
  name: 'audit',
  title: 'MCP isError Results Meet Different Client Checks',
  source: 'the source audit "MCP isError Results Meet Different Client Checks": its 13-case table, as summarised in scenarios/audit.ts',
  scenarios: [
    ...Object.values(auditShapes).flatMap((shape) => [
      defineCase({ client: 'v1', discovery: 'warm', shape, tool: auditTool, expected: AUDIT_CELLS[shape.id].v1 }),
      defineCase({ client: 'v2', discovery: 'warm', shape, tool: auditTool, expected: AUDIT_CELLS[shape.id].v2 }),
    ]),
    defineCase({ client: 'v1', discovery: 'cold', shape: s.errorOffSchema, tool: auditTool, expected: AUDIT_COLD_V1_ERROR_OFF_SCHEMA }),
  ],
});
