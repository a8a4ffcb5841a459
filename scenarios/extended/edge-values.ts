// Family "edge-values": structuredContent that is not a plain conforming object, on the 2025-era wire.
import type { Expected, JsonValue, Scenario, ToolResult } from '../../probe/core/domain.ts';
import { returnsAsSent } from '../../probe/core/define.ts';
import { AUDIT_CELLS, auditTool, BOTH, family, rejected, text, type ClientCells } from './shared.ts';

const edge = family('edge-values');

const UNAVAILABLE = 'The value service is unavailable.';
const successWith = (value: JsonValue): ToolResult => ({ content: text(JSON.stringify(value)), structuredContent: value });
const errorWith = (value: JsonValue): ToolResult => ({ content: text(UNAVAILABLE), structuredContent: value, isError: true });

/** Whether the value is sent in a success result or in an isError result. */
type ResultKind = 'success' | 'error';
const RESULT_KINDS: Record<ResultKind, { label: string; resultWith: (value: JsonValue) => ToolResult }> = {
  success: { label: 'Success', resultWith: successWith },
  error: { label: 'Error', resultWith: errorWith },
};

function shape(slug: string, value: JsonValue, kind: ResultKind) {
  const { label, resultWith } = RESULT_KINDS[kind];
  return { id: `${kind}-structured-${slug}`, title: `${label} with structuredContent ${JSON.stringify(value)}`, result: resultWith(value) };
}

// Observed: a non-object never reaches the outputSchema check, falsy or not: both clients' result parse
// (a record is required on this wire) throws first: v1 lets zod's own error out with no code, v2 throws
// SdkError INVALID_RESULT.
const PARSE_REJECTED_V1 = rejected(null, 'client-result-parse', { name: '$ZodError' });
const PARSE_REJECTED_V2 = rejected('INVALID_RESULT', 'client-result-parse', { name: 'SdkError' });
// Observed: the wrapped Server.setRequestHandler refuses its own handler's result and answers with
// JSON-RPC -32602.
const REFUSED_BY_SERVER = rejected(-32602, 'server', { sent: 'error' });

const NESTED_EXTRA = { value: 7, extra: { deep: true } };

/**
 * One row per value. Columns: sent as a success and as an isError result, to each client, through the
 * unwrapped handler; and (for some values) as a success through the wrapped handler, to v1 only.
 */
interface EdgeRow {
  readonly slug: string;
  readonly value: JsonValue;
  readonly success: ClientCells;
  readonly error: ClientCells;
  readonly wrapped: { readonly v1: Expected } | null;
}

export const EDGE_VALUES: readonly EdgeRow[] = [
  {
    slug: 'null',
    value: null,
    success: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    error: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    wrapped: { v1: REFUSED_BY_SERVER },
  },
  {
    slug: 'zero',
    value: 0,
    success: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    error: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    wrapped: { v1: REFUSED_BY_SERVER },
  },
  {
    slug: 'empty-string',
    value: '',
    success: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    error: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    wrapped: null,
  },
  {
    slug: 'false',
    value: false,
    success: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    error: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    wrapped: null,
  },
  {
    slug: 'empty-array',
    value: [],
    success: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    error: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    wrapped: null,
  },
  {
    slug: 'array',
    value: [{ value: 7 }],
    success: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    error: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    wrapped: { v1: REFUSED_BY_SERVER },
  },
  {
    slug: 'string',
    value: 'seven',
    success: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    error: { v1: PARSE_REJECTED_V1, v2: PARSE_REJECTED_V2 },
    wrapped: { v1: REFUSED_BY_SERVER },
  },
  {
    // Observed: an object with an extra property meets the outputSchema check (additionalProperties:
    // false), which v2 skips for isError results, exactly as for the audit's off-schema rows.
    slug: 'nested-extra',
    value: NESTED_EXTRA,
    success: {
      v1: { ...AUDIT_CELLS['off-schema-success'].v1, by: 'client-output-schema' },
      v2: { ...AUDIT_CELLS['off-schema-success'].v2, by: 'client-output-schema' },
    },
    error: {
      v1: { ...AUDIT_CELLS['error-off-schema'].v1, by: 'client-output-schema' },
      v2: returnsAsSent(errorWith(NESTED_EXTRA)),
    },
    wrapped: null,
  },
];

export const edgeValueCases: Scenario[] = [
  // Sent through the unwrapped handler, so the value reaches the client whatever the server-side check
  // thinks of it: the case is about the client's result parse and its outputSchema check.
  ...EDGE_VALUES.flatMap((row) =>
    (['success', 'error'] as const satisfies readonly ResultKind[]).flatMap((kind) =>
      BOTH.map((client) => {
        const s = shape(row.slug, row.value, kind);
        return edge({
          client,
          discovery: 'warm',
          shape: s,
          server: { kind: 'respond', result: s.result, registration: 'raw' },
          tool: auditTool,
          question: `${s.title}: does the ${client} client's result parse or its outputSchema check reject it, or is it returned?`,
          reference: 'MCP specification 2025-11-25, Tools › Structured Content (an object) vs 2026-07-28 (any JSON value); source audit: v1 guards with `if (result.structuredContent)`',
          expected: row[kind][client],
        });
      }),
    ),
  ),
  // The same values through the wrapped Server.setRequestHandler: the server-side result check answers
  // instead of the client (client line does not matter; v1 is enough to see it).
  ...EDGE_VALUES.flatMap(({ slug, value, wrapped }) => {
    if (wrapped === null) return [];
    const s = shape(slug, value, 'success');
    return [
      edge({
        client: 'v1',
        discovery: 'warm',
        shape: { ...s, id: `wrapped-${s.id}` },
        server: { kind: 'respond', result: s.result, registration: 'wrapped' },
        tool: auditTool,
        question: `${s.title}, from a server registered with Server.setRequestHandler: does the server's own result check stop it?`,
        reference: '@modelcontextprotocol/sdk 1.24.0+: Server.setRequestHandler validates tools/call results against CallToolResultSchema',
        expected: wrapped.v1,
      }),
    ];
  }),
];
