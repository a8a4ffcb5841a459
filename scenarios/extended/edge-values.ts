// Family "edge-values": structuredContent that is not a plain conforming object, on the 2025-era wire.
import type { JsonValue, Scenario, ToolResult } from '../../probe/core/domain.ts';
import { returnsAsSent } from '../../probe/core/define.ts';
import { auditTool, BOTH, family, rejected, text } from './shared.ts';

const edge = family('edge-values');

export const EDGE_VALUES: readonly [slug: string, value: JsonValue][] = [
  ['null', null],
  ['zero', 0],
  ['empty-string', ''],
  ['false', false],
  ['empty-array', []],
  ['array', [{ value: 7 }]],
  ['string', 'seven'],
  ['nested-extra', { value: 7, extra: { deep: true } }],
];

function shape(slug: string, value: JsonValue, isError: boolean) {
  const id = `${isError ? 'error' : 'success'}-structured-${slug}`;
  const result: ToolResult = isError
    ? { content: text('The value service is unavailable.'), structuredContent: value, isError: true }
    : { content: text(JSON.stringify(value)), structuredContent: value };
  return { id, title: `${isError ? 'Error' : 'Success'} with structuredContent ${JSON.stringify(value)}`, result };
}

export const edgeValueCases: Scenario[] = [
  // Sent through the unwrapped handler, so the value reaches the client whatever the server-side check
  // thinks of it: the case is about the client's result parse and its outputSchema check.
  ...EDGE_VALUES.flatMap(([slug, value]) =>
    [false, true].flatMap((isError) =>
      BOTH.map((client) => {
        const s = shape(slug, value, isError);
        return edge({
          client,
          discovery: 'warm',
          shape: s,
          server: { kind: 'respond', result: s.result, registration: 'raw' },
          tool: auditTool,
          question: `${s.title}: does the ${client} client's result parse or its outputSchema check reject it, or is it returned?`,
          reference: 'MCP specification 2025-11-25, Tools › Structured Content (an object) vs 2026-07-28 (any JSON value); source audit: v1 guards with `if (result.structuredContent)`',
          // Observed: a non-object never reaches the outputSchema check, falsy or not: both clients' result
          // parse (a record is required on this wire) throws first: v1 lets zod's own error out with no
          // code, v2 throws SdkError INVALID_RESULT. An object with an extra property meets the check,
          // which v2 skips for isError results as in the audit.
          expected:
            slug !== 'nested-extra'
              ? client === 'v1'
                ? rejected(null, 'client-result-parse', { name: '$ZodError' })
                : rejected('INVALID_RESULT', 'client-result-parse', { name: 'SdkError' })
              : isError && client === 'v2'
                ? returnsAsSent(s.result)
                : rejected(-32602, 'client-output-schema'),
        });
      }),
    ),
  ),
  // The same values through the wrapped Server.setRequestHandler: the server-side result check answers
  // instead of the client (client line does not matter; v1 is enough to see it).
  ...EDGE_VALUES.filter(([slug]) => ['null', 'zero', 'array', 'string'].includes(slug)).map(([slug, value]) => {
    const s = shape(slug, value, false);
    return edge({
      client: 'v1',
      discovery: 'warm',
      shape: { ...s, id: `wrapped-${s.id}` },
      server: { kind: 'respond', result: s.result, registration: 'wrapped' },
      tool: auditTool,
      question: `${s.title}, from a server registered with Server.setRequestHandler: does the server's own result check stop it?`,
      reference: '@modelcontextprotocol/sdk 1.24.0+: Server.setRequestHandler validates tools/call results against CallToolResultSchema',
      // Observed: the server refuses its own handler's result and answers with JSON-RPC -32602.
      expected: rejected(-32602, 'server', { sent: 'error' }),
    });
  }),
];
