// Family "schemas": outputSchemas a validator may not compile or may read differently.
import { returnsAsSent } from '../../probe/core/define.ts';
import type { Expected, Scenario, ToolDefinition } from '../../probe/core/domain.ts';
import { auditTool, BOTH, family, rejected, text } from './shared.ts';

const schemas = family('schemas');

const withSchema = (outputSchema: Record<string, unknown>): ToolDefinition => ({ ...auditTool, outputSchema } as ToolDefinition);

export const SCHEMA_SHAPES = [
  {
    id: 'schema-bad-pattern',
    title: 'outputSchema with a pattern that is not a valid regular expression',
    tool: withSchema({ type: 'object', properties: { value: { type: 'string', pattern: '(' } }, required: ['value'] }),
    result: { content: text('{"value":"x"}'), structuredContent: { value: 'x' } },
    reference: 'JSON Schema 2020-12 Validation §6.3.3 (pattern must be a valid ECMA-262 regular expression)',
  },
  {
    id: 'schema-unresolvable-ref',
    title: 'outputSchema with a $ref that resolves to nothing',
    tool: withSchema({ type: 'object', properties: { value: { $ref: '#/$defs/missing' } }, required: ['value'] }),
    result: { content: text('{"value":7}'), structuredContent: { value: 7 } },
    reference: 'JSON Schema 2020-12 Core §8.2.3 ($ref)',
  },
  {
    id: 'schema-open-additional-properties',
    title: 'outputSchema without additionalProperties: false, result with an extra property',
    tool: withSchema({ type: 'object', properties: { value: { type: 'number' } }, required: ['value'] }),
    result: { content: text('{"value":7,"unit":"kg"}'), structuredContent: { value: 7, unit: 'kg' } },
    reference: 'JSON Schema 2020-12 Core §10.3.2.3 (additionalProperties defaults to allowing anything)',
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
    result: { content: text('{"value":7}'), structuredContent: { value: 7 } },
    reference: 'MCP specification 2025-11-25, JSON Schema usage (default dialect 2020-12; other dialects declared with $schema)',
  },
] as const;

// Observed. v1 compiles every listed outputSchema inside listTools(), so a schema its validator cannot
// compile makes tools/list itself throw; v2 compiles lazily and refuses the call before sending it
// (sent: nothing) with -32602. v2 also refuses a $schema dialect it does not support; v1 ignores it.
const invalidOutputSchemaV2 = (): Expected => rejected(-32602, 'client-output-schema', { sent: 'nothing' });
const SCHEMA_EXPECTED: Record<string, Expected> = {
  'v1/schema-bad-pattern': { outcome: 'crashed', stage: 'discover', name: 'SyntaxError' },
  'v2/schema-bad-pattern': invalidOutputSchemaV2(),
  'v1/schema-unresolvable-ref': { outcome: 'crashed', stage: 'discover', name: 'MissingRefError' },
  'v2/schema-unresolvable-ref': invalidOutputSchemaV2(),
  'v2/schema-draft-04-dialect': invalidOutputSchemaV2(),
};

export const schemaCases: Scenario[] = SCHEMA_SHAPES.flatMap((shape) =>
  BOTH.map((client) =>
    schemas({
      client,
      discovery: 'warm',
      shape: { id: shape.id, title: shape.title, result: shape.result },
      tool: shape.tool,
      question: `${shape.title}: what does the ${client} client do at tools/list and at tools/call?`,
      reference: shape.reference,
      expected: SCHEMA_EXPECTED[`${client}/${shape.id}`] ?? returnsAsSent(shape.result),
    }),
  ),
);
