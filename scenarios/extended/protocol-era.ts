// Family "protocol-era": a v2 client and the v2 server's createMcpHandler, negotiating the 2026-07-28
// revision (where structuredContent may be any JSON value and outputSchema any JSON Schema) or pinned to
// the 2025 era, with the same non-object results and schemas.
import { returnsAsSent } from '../../probe/core/define.ts';
import type { Expected, JsonValue, Scenario, ToolDefinition, ToolResult } from '../../probe/core/domain.ts';
import { auditTool, family, rejected, text } from './shared.ts';

const era = family('protocol-era');

type Era = 'modern' | 'legacy';

/** How each era is named in a case's question, and the revision of the specification it follows. */
const ERAS: Record<Era, { negotiated: string; reference: string }> = {
  modern: {
    negotiated: 'negotiated as 2026-07-28',
    reference: 'MCP specification 2026-07-28, Tools › Structured Content (any JSON value) and Output Schema (any JSON Schema)',
  },
  legacy: { negotiated: 'in the 2025 era', reference: 'MCP specification 2025-11-25, Tools › Structured Content (a JSON object)' },
};

const eraResult = (value: JsonValue, isError = false): ToolResult => ({
  content: text(JSON.stringify(value)),
  structuredContent: value,
  ...(isError && { isError: true }),
});
const SEVEN = eraResult(7);
const SEVEN_IN_WORDS = eraResult('seven');
const ONE_TWO = eraResult([1, 2]);
const NULL = eraResult(null);
const VALUE_SEVEN = eraResult({ value: 7 });
const ERROR_SEVEN_IN_WORDS = eraResult('seven', true);

// Observed, modern era: the server wraps every result in the 2026-07-28 envelope (resultType:
// "complete", serverInfo in _meta), so what goes out is always "altered"; non-object values and schemas
// work, the client validates them and, as in the audit, skips validation for isError results.
const MODERN_OFF_SCHEMA = rejected(-32602, 'client-output-schema', { sent: 'altered' });
// Observed, legacy era: the server's own result check refuses any non-object structuredContent with
// JSON-RPC -32602 before the client sees it.
const REFUSED_BY_LEGACY_SERVER = rejected(-32602, 'server', { sent: 'error' });

/** One row per shape; the v2 client only, one cell per era. */
interface EraRow {
  readonly slug: string;
  readonly schema: Record<string, JsonValue>;
  readonly result: ToolResult;
  readonly title: string;
  readonly expected: Record<Era, Expected>;
}

const SHAPES: readonly EraRow[] = [
  {
    slug: 'number-conforming',
    schema: { type: 'number' },
    result: SEVEN,
    title: 'structuredContent 7 under outputSchema { type: number }',
    expected: { modern: { ...returnsAsSent(SEVEN), sent: 'altered' }, legacy: REFUSED_BY_LEGACY_SERVER },
  },
  {
    slug: 'string-off-schema',
    schema: { type: 'number' },
    result: SEVEN_IN_WORDS,
    title: 'structuredContent "seven" under outputSchema { type: number }',
    expected: { modern: MODERN_OFF_SCHEMA, legacy: REFUSED_BY_LEGACY_SERVER },
  },
  {
    slug: 'array-conforming',
    schema: { type: 'array', items: { type: 'number' } },
    result: ONE_TWO,
    title: 'structuredContent [1, 2] under an array outputSchema',
    expected: { modern: { ...returnsAsSent(ONE_TWO), sent: 'altered' }, legacy: REFUSED_BY_LEGACY_SERVER },
  },
  {
    slug: 'null-conforming',
    schema: { type: 'null' },
    result: NULL,
    title: 'structuredContent null under outputSchema { type: null }',
    expected: { modern: { ...returnsAsSent(NULL), sent: 'altered' }, legacy: REFUSED_BY_LEGACY_SERVER },
  },
  {
    slug: 'object-conforming',
    schema: { type: 'object', properties: { value: { type: 'number' } }, required: ['value'] },
    result: VALUE_SEVEN,
    title: 'structuredContent { value: 7 } under an object outputSchema (the control)',
    expected: { modern: { ...returnsAsSent(VALUE_SEVEN), sent: 'altered' }, legacy: returnsAsSent(VALUE_SEVEN) },
  },
  {
    slug: 'error-string-off-schema',
    schema: { type: 'number' },
    result: ERROR_SEVEN_IN_WORDS,
    title: 'isError result with structuredContent "seven" under { type: number }',
    expected: { modern: { ...returnsAsSent(ERROR_SEVEN_IN_WORDS), sent: 'altered' }, legacy: REFUSED_BY_LEGACY_SERVER },
  },
];

export const protocolEraCases: Scenario[] = (['modern', 'legacy'] as const satisfies readonly Era[]).flatMap((which) =>
  SHAPES.map((shape) => {
    const tool: ToolDefinition = { ...auditTool, outputSchema: shape.schema };
    return era({
      client: 'v2',
      discovery: 'warm',
      shape: { id: `${which}-era-${shape.slug}`, title: shape.title, result: shape.result },
      server: { kind: 'v2-handler', era: which, result: shape.result },
      tool,
      question: `${shape.title}, ${ERAS[which].negotiated}: returned, or rejected by whom?`,
      reference: ERAS[which].reference,
      expected: shape.expected[which],
    });
  }),
);
