// Family "protocol-era": a v2 client and the v2 server's createMcpHandler, negotiating the 2026-07-28
// revision (where structuredContent may be any JSON value and outputSchema any JSON Schema) or pinned to
// the 2025 era, with the same non-object results and schemas.
import { returnsAsSent } from '../../probe/core/define.ts';
import type { Expected, JsonValue, Scenario, ToolDefinition, ToolResult } from '../../probe/core/domain.ts';
import { auditTool, family, rejected, text } from './shared.ts';

/**
 * Observed. Modern era: the server wraps every result in the 2026-07-28 envelope (resultType: "complete",
 * serverInfo in _meta), so what goes out is always "altered"; non-object values and schemas work, the
 * client validates them and, as in the audit, skips validation for isError results. Legacy era: the
 * server's own result check refuses any non-object structuredContent with JSON-RPC -32602 before the
 * client sees it.
 */
function observedOutcome(which: 'modern' | 'legacy', shape: { slug: string; isError?: boolean }, result: ToolResult): Expected {
  if (which === 'modern') {
    if (shape.slug === 'string-off-schema') return rejected(-32602, 'client-output-schema', { sent: 'altered' });
    return { ...returnsAsSent(result), sent: 'altered' } as Expected;
  }
  if (shape.slug === 'object-conforming') return returnsAsSent(result);
  return rejected(-32602, 'server', { sent: 'error' });
}

const era = family('protocol-era');

const SHAPES: readonly { slug: string; schema: Record<string, JsonValue>; value: JsonValue; isError?: boolean; title: string }[] = [
  { slug: 'number-conforming', schema: { type: 'number' }, value: 7, title: 'structuredContent 7 under outputSchema { type: number }' },
  { slug: 'string-off-schema', schema: { type: 'number' }, value: 'seven', title: 'structuredContent "seven" under outputSchema { type: number }' },
  { slug: 'array-conforming', schema: { type: 'array', items: { type: 'number' } }, value: [1, 2], title: 'structuredContent [1, 2] under an array outputSchema' },
  { slug: 'null-conforming', schema: { type: 'null' }, value: null, title: 'structuredContent null under outputSchema { type: null }' },
  {
    slug: 'object-conforming',
    schema: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] },
    value: { value: 7 },
    title: 'structuredContent { value: 7 } under an object outputSchema (the control)',
  },
  { slug: 'error-string-off-schema', schema: { type: 'number' }, value: 'seven', isError: true, title: 'isError result with structuredContent "seven" under { type: number }' },
];

export const protocolEraCases: Scenario[] = (['modern', 'legacy'] as const).flatMap((which) =>
  SHAPES.map((shape) => {
    const tool: ToolDefinition = { ...auditTool, outputSchema: shape.schema } as ToolDefinition;
    const result: ToolResult = { content: text(JSON.stringify(shape.value)), structuredContent: shape.value, ...(shape.isError && { isError: true }) };
    return era({
      client: 'v2',
      discovery: 'warm',
      shape: { id: `${which}-era-${shape.slug}`, title: shape.title, result },
      server: { kind: 'v2-handler', era: which, result },
      tool,
      question: `${shape.title}, ${which === 'modern' ? 'negotiated as 2026-07-28' : 'in the 2025 era'}: returned, or rejected by whom?`,
      reference:
        which === 'modern'
          ? 'MCP specification 2026-07-28, Tools › Structured Content (any JSON value) and Output Schema (any JSON Schema)'
          : 'MCP specification 2025-11-25, Tools › Structured Content (a JSON object)',
      expected: observedOutcome(which, shape, result),
    });
  }),
);
