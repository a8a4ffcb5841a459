// The 13-case fixture of the source audit "MCP isError Results Meet Different Client Checks"
// (shared/seeds/000_176f0236f7e285a5.txt). Every expectation below is a cell of the audit's table;
// none is copied from what the probe observed.
import { defineCase, defineMatrix, rejectsWith, returnsAsSent, type ShapeDefinition } from '../probe/core/define.ts';
import type { ToolDefinition } from '../probe/core/domain.ts';

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

// [shape, v1.32.2 after listTools, v2.4.0 after listTools], in the order of the audit's table.
const auditTable = [
  [s.conformingSuccess, returned(s.conformingSuccess), returned(s.conformingSuccess)],
  [s.offSchemaSuccess, rejectsWith(INVALID_PARAMS), rejectsWith(INVALID_PARAMS)],
  [s.successWithoutStructured, rejectsWith(INVALID_REQUEST), rejectsWith(INVALID_REQUEST)],
  [s.errorTextOnly, returned(s.errorTextOnly), returned(s.errorTextOnly)],
  // The audit's one version difference: discovered v1 validates structuredContent even when isError is
  // set (its guard is `if (result.structuredContent)`), v2 skips validation for isError results.
  [s.errorOffSchema, rejectsWith(INVALID_PARAMS), returned(s.errorOffSchema)],
  [s.errorConforming, returned(s.errorConforming), returned(s.errorConforming)],
] as const;

export const auditMatrix = defineMatrix({
  name: 'audit',
  title: 'MCP isError Results Meet Different Client Checks',
  source: 'shared/seeds/000_176f0236f7e285a5.txt (source audit, 13-case fixture)',
  scenarios: [
    ...auditTable.flatMap(([shape, v1, v2]) => [
      defineCase({ client: 'v1', discovery: 'warm', shape, tool: auditTool, expected: v1 }),
      defineCase({ client: 'v2', discovery: 'warm', shape, tool: auditTool, expected: v2 }),
    ]),
    // "A separate v1 client called the same tool without first discovering it. That call returned the
    // off-schema structured error." (Discovery changes the v1 control)
    defineCase({ client: 'v1', discovery: 'cold', shape: s.errorOffSchema, tool: auditTool, expected: returned(s.errorOffSchema) }),
  ],
});
