// Family "schemas": outputSchemas a validator may not compile or may read differently.
import { returnsAsSent } from '../../probe/core/define.ts';
import type { JsonValue, Scenario, ToolDefinition, ToolResult } from '../../probe/core/domain.ts';
import { auditTool, BOTH, family, rejected, text, type ClientCells } from './shared.ts';

const schemas = family('schemas');

const withSchema = (outputSchema: Record<string, JsonValue>): ToolDefinition => ({ ...auditTool, outputSchema });

// Observed. v1 compiles every listed outputSchema inside listTools(), so a schema its validator cannot
// compile makes tools/list itself throw; v2 compiles lazily and refuses the call before sending it
// (sent: nothing) with -32602.
const INVALID_OUTPUT_SCHEMA_V2 = rejected(-32602, 'client-output-schema', { sent: 'nothing' });

const VALUE_X: ToolResult = { content: text('{"value":"x"}'), structuredContent: { value: 'x' } };
const VALUE_7: ToolResult = { content: text('{"value":7}'), structuredContent: { value: 7 } };
const VALUE_7_KG: ToolResult = { content: text('{"value":7,"unit":"kg"}'), structuredContent: { value: 7, unit: 'kg' } };

/** One row per schema; `expected` has one cell per client. */
interface SchemaRow {
  readonly id: string;
  readonly title: string;
  readonly tool: ToolDefinition;
  readonly result: ToolResult;
  readonly reference: string;
  readonly expected: ClientCells;
}

export const SCHEMA_SHAPES: readonly SchemaRow[] = [
  {
    id: 'schema-bad-pattern',
    title: 'outputSchema with a pattern that is not a valid regular expression',
    tool: withSchema({ type: 'object', properties: { value: { type: 'string', pattern: '(' } }, required: ['value'] }),
    result: VALUE_X,
    reference: 'JSON Schema 2020-12 Validation §6.3.3 (pattern must be a valid ECMA-262 regular expression)',
    expected: { v1: { outcome: 'crashed', stage: 'discover', name: 'SyntaxError' }, v2: INVALID_OUTPUT_SCHEMA_V2 },
  },
  {
    id: 'schema-unresolvable-ref',
    title: 'outputSchema with a $ref that resolves to nothing',
    tool: withSchema({ type: 'object', properties: { value: { $ref: '#/$defs/missing' } }, required: ['value'] }),
    result: VALUE_7,
    reference: 'JSON Schema 2020-12 Core §8.2.3 ($ref)',
    expected: { v1: { outcome: 'crashed', stage: 'discover', name: 'MissingRefError' }, v2: INVALID_OUTPUT_SCHEMA_V2 },
  },
  {
    id: 'schema-open-additional-properties',
    title: 'outputSchema without additionalProperties: false, result with an extra property',
    tool: withSchema({ type: 'object', properties: { value: { type: 'number' } }, required: ['value'] }),
    result: VALUE_7_KG,
    reference: 'JSON Schema 2020-12 Core §10.3.2.3 (additionalProperties defaults to allowing anything)',
    expected: { v1: returnsAsSent(VALUE_7_KG), v2: returnsAsSent(VALUE_7_KG) },
  },
  {
    id: 'schema-draft-04-dialect',
    title: 'outputSchema declaring the draft-04 dialect in $schema',
    tool: withSchema({
      $schema: 'http://json-schema.org/draft-04/schema#',
      type: 'object',
      properties: { value: { type: 'number' } },
      required: ['value'],
    }),
    result: VALUE_7,
    reference: 'MCP specification 2025-11-25, JSON Schema usage (default dialect 2020-12; other dialects declared with $schema)',
    // Observed: v2 refuses a $schema dialect it does not support; v1 ignores it.
    expected: { v1: returnsAsSent(VALUE_7), v2: INVALID_OUTPUT_SCHEMA_V2 },
  },
];

export const schemaCases: Scenario[] = SCHEMA_SHAPES.flatMap((shape) =>
  BOTH.map((client) =>
    schemas({
      client,
      discovery: 'warm',
      shape: { id: shape.id, title: shape.title, result: shape.result },
      tool: shape.tool,
      question: `${shape.title}: what does the ${client} client do at tools/list and at tools/call?`,
      reference: shape.reference,
      expected: shape.expected[client],
    }),
  ),
);
