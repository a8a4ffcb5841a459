// Family "server-side": the same results returned from the high-level server helpers, and the failures
// that only a server produces (bad arguments, an unknown tool, a handler that throws).
import type { Expected, Scenario, ServerBehaviour, ServerHelper, ToolDefinition } from '../../probe/core/domain.ts';
import { AUDIT_CELLS, auditShapes, auditTool, BOTH, family, rejected, text, type AuditShapeId, type ClientCells } from './shared.ts';

/** The helper replaced the handler's result with an isError result of its own (its text says why). */
const rewrittenToError: Expected = { outcome: 'returned', isError: true, sent: 'altered' };
/** The server answered the call with a JSON-RPC error instead of a result. */
const REFUSED_BY_SERVER = rejected(-32602, 'server', { sent: 'error' });

const serverSide = family('server-side');
const HELPERS: readonly ServerHelper[] = ['v1-mcp-server', 'v2-mcp-server'];
const HELPER_NAME = { 'v1-mcp-server': 'v1 McpServer.registerTool', 'v2-mcp-server': 'v2 @modelcontextprotocol/server McpServer.registerTool' } as const;
const HELPER_REF = {
  'v1-mcp-server': '@modelcontextprotocol/sdk 1.32.2 server/mcp.js validateToolOutput (returns early when result.isError)',
  'v2-mcp-server': '@modelcontextprotocol/server 2.4.0 server error guide ("the SDK skips outputSchema validation on isError results")',
} as const;

const cityTool: ToolDefinition = {
  name: 'probe_weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

// The audit's six shapes through each helper, one row per shape, one cell per client; the same table
// holds for both helpers. Observed, the same for both helpers: a success result that breaks the
// outputSchema (off-schema or missing structuredContent) is replaced by an isError result whose text is
// the validation error; isError results are sent unvalidated, so the client's own check decides, as in
// the audit.
const HELPER_SENDS: Record<AuditShapeId, ClientCells> = {
  'conforming-success': { v1: AUDIT_CELLS['conforming-success'].v1, v2: AUDIT_CELLS['conforming-success'].v2 },
  'off-schema-success': { v1: rewrittenToError, v2: rewrittenToError },
  'success-without-structured': { v1: rewrittenToError, v2: rewrittenToError },
  'error-text-only': { v1: AUDIT_CELLS['error-text-only'].v1, v2: AUDIT_CELLS['error-text-only'].v2 },
  'error-off-schema': { v1: { ...AUDIT_CELLS['error-off-schema'].v1, by: 'client-output-schema' }, v2: AUDIT_CELLS['error-off-schema'].v2 },
  'error-conforming': { v1: AUDIT_CELLS['error-conforming'].v1, v2: AUDIT_CELLS['error-conforming'].v2 },
};

// SEP-1303: arguments that fail the tool's inputSchema, one row per helper.
// Observed: both helpers follow SEP-1303 and answer with an isError result naming the bad argument.
const INVALID_ARGUMENTS: Record<ServerHelper, ClientCells> = {
  'v1-mcp-server': { v1: rewrittenToError, v2: rewrittenToError },
  'v2-mcp-server': { v1: rewrittenToError, v2: rewrittenToError },
};

// A call to a tool the server does not have, one row per helper.
// Observed: the two lines disagree. v1 McpServer sends an isError result ("Tool no_such_tool not found");
// the v2 server sends JSON-RPC -32602.
const UNKNOWN_TOOL: Record<ServerHelper, ClientCells> = {
  'v1-mcp-server': { v1: rewrittenToError, v2: rewrittenToError },
  'v2-mcp-server': { v1: REFUSED_BY_SERVER, v2: REFUSED_BY_SERVER },
};

// A handler that throws: each helper, and the low-level Server.
// Observed: the helpers turn the exception into an isError result carrying its message; the low-level
// Server turns it into JSON-RPC -32603 (internal error).
const HANDLER_THROWS: Record<ServerHelper | 'low-level', { server: ServerBehaviour; name: string; expected: ClientCells }> = {
  'v1-mcp-server': {
    server: { kind: 'helper', helper: 'v1-mcp-server', result: 'throw' },
    name: HELPER_NAME['v1-mcp-server'],
    expected: { v1: rewrittenToError, v2: rewrittenToError },
  },
  'v2-mcp-server': {
    server: { kind: 'helper', helper: 'v2-mcp-server', result: 'throw' },
    name: HELPER_NAME['v2-mcp-server'],
    expected: { v1: rewrittenToError, v2: rewrittenToError },
  },
  'low-level': {
    server: { kind: 'throw', message: 'The value service is unavailable.' },
    name: 'the v1 low-level Server',
    expected: { v1: rejected(-32603, 'server', { sent: 'error' }), v2: rejected(-32603, 'server', { sent: 'error' }) },
  },
};

export const serverSideCases: Scenario[] = [
  ...HELPERS.flatMap((helper) =>
    Object.values(auditShapes).flatMap((shape) =>
      BOTH.map((client) =>
        serverSide({
          client,
          discovery: 'warm',
          shape: { ...shape, id: `${helper}-${shape.id}` },
          server: { kind: 'helper', helper, result: shape.result },
          tool: auditTool,
          question: `What does ${HELPER_NAME[helper]} do with a handler returning "${shape.title}" (send it, reject it, rewrite it), and what does the ${client} client then do?`,
          reference: HELPER_REF[helper],
          expected: HELPER_SENDS[shape.id][client],
        }),
      ),
    ),
  ),
  ...HELPERS.flatMap((helper) =>
    BOTH.map((client) =>
      serverSide({
        client,
        discovery: 'warm',
        shape: { id: `${helper}-invalid-arguments`, title: 'Arguments that fail the inputSchema ({ city: 7 })', result: { content: text('Sunny') } },
        server: { kind: 'helper', helper, result: { content: text('Sunny') } },
        tool: cityTool,
        arguments: { city: 7 },
        question: `Does ${HELPER_NAME[helper]} answer arguments that fail the inputSchema with an isError result (SEP-1303) or a JSON-RPC -32602?`,
        reference: 'MCP specification 2025-11-25, Tools › Error Handling; SEP-1303 (input validation errors are tool execution errors)',
        expected: INVALID_ARGUMENTS[helper][client],
      }),
    ),
  ),
  ...HELPERS.flatMap((helper) =>
    BOTH.map((client) =>
      serverSide({
        client,
        discovery: 'warm',
        shape: { id: `${helper}-unknown-tool`, title: 'A call to a tool the server does not list', result: auditShapes.conformingSuccess.result },
        server: { kind: 'helper', helper, result: auditShapes.conformingSuccess.result },
        tool: auditTool,
        calledName: 'no_such_tool',
        question: `Does ${HELPER_NAME[helper]} answer an unknown tool with a JSON-RPC error or an isError result?`,
        reference: 'MCP specification 2025-11-25, Tools › Error Handling (unknown tools are protocol errors)',
        expected: UNKNOWN_TOOL[helper][client],
      }),
    ),
  ),
  ...([...HELPERS, 'low-level'] as const).flatMap((server) =>
    BOTH.map((client) =>
      serverSide({
        client,
        discovery: 'warm',
        shape: { id: `${server}-handler-throws`, title: 'The tool handler throws an Error', result: { content: [] } },
        server: HANDLER_THROWS[server].server,
        tool: auditTool,
        question: `When the tool handler throws, does ${HANDLER_THROWS[server].name} send an isError result or a JSON-RPC error?`,
        reference: 'MCP specification 2025-11-25, Tools › Error Handling (execution errors are isError results)',
        expected: HANDLER_THROWS[server].expected[client],
      }),
    ),
  ),
];
