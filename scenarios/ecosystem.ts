// The ecosystem matrix (issue #12): the audit's six result shapes, sent by the audit's fixture (the v1
// low-level Server, in memory), to every client line side by side: the two SDK clients as the audit
// called them, the AI SDK's MCP client (`@ai-sdk/mcp`, its own protocol implementation) called the three
// ways an application calls it, and LangChain's MCP adapters (`@langchain/mcp-adapters`, over the v1
// client) invoked as an agent invokes a tool. One row per shape, one column per line and discovery mode,
// so one glance answers "which clients let this result through?".
//
// Every ai-sdk and langchain expectation below was written after running the case with no expectation
// and reading what the pinned package did (@ai-sdk/mcp 2.0.99, @langchain/mcp-adapters 1.1.4 with
// @langchain/core 1.4.0 over @modelcontextprotocol/sdk 1.32.2, Node 20); each comment says what was seen.
import { defineCase, defineMatrix, returnsAsSent, type ShapeDefinition } from '../probe/core/define.ts';
import type { ClientLine, Discovery, Expected, JsonValue, Scenario, ServerBehaviour, TransportKind } from '../probe/core/domain.ts';
import { AUDIT_CELLS, auditShapes, auditTool, type AuditShapeId } from './audit.ts';

const s = auditShapes;

/** The columns of the table: a client line and how its application reaches the call. */
export const ECOSYSTEM_COLUMNS = [
  'v1/warm',
  'v2/warm',
  'ai-sdk/warm',
  'ai-sdk/cold',
  'ai-sdk/tools-automatic',
  'ai-sdk/tools-with-schemas',
  'langchain/load-tools',
] as const satisfies readonly `${ClientLine}/${Discovery}`[];
type Column = (typeof ECOSYSTEM_COLUMNS)[number];

/** What the column's application does, the question each of its cases answers. */
const QUESTION = {
  'v1/warm': 'The audit\'s v1 cell, repeated beside the other lines: what does the listed v1 client hand back for "%s"?',
  'v2/warm': 'The audit\'s v2 cell, repeated beside the other lines: what does the listed v2 client hand back for "%s"?',
  'ai-sdk/warm': 'After listTools, does the AI SDK\'s own callTool check "%s" against the outputSchema?',
  'ai-sdk/cold': 'Without listTools, what does the AI SDK\'s callTool hand back for "%s"?',
  'ai-sdk/tools-automatic': 'What does the AI SDK tool from tools() (server schemas) return to generateText for "%s"?',
  'ai-sdk/tools-with-schemas': 'With the application\'s own output schema, what does the AI SDK tool\'s execute return or throw for "%s"?',
  'langchain/load-tools': 'What does the LangChain tool from loadMcpTools return (ToolMessage) or throw for "%s"?',
} as const satisfies Record<Column, string>;

const REFERENCE = {
  'v1/warm': 'Source audit table (scenarios/audit.ts)',
  'v2/warm': 'Source audit table (scenarios/audit.ts)',
  'ai-sdk/warm': '@ai-sdk/mcp src/tool/mcp-client.ts callTool (parses CallToolResultSchema only); MCP spec 2025-11-25 server/tools "Output Schema"',
  'ai-sdk/cold': '@ai-sdk/mcp src/tool/mcp-client.ts callTool',
  'ai-sdk/tools-automatic': "@ai-sdk/mcp src/tool/mcp-client.ts toolsFromDefinitions, schemas: 'automatic' (dynamicTool, execute returns the CallToolResult)",
  'ai-sdk/tools-with-schemas': '@ai-sdk/mcp src/tool/mcp-client.ts toolsFromDefinitions + extractStructuredContent (isError results returned as is)',
  'langchain/load-tools': '@langchain/mcp-adapters dist/tools.js _convertCallToolResult (isError → ToolException) over the v1 client',
} as const satisfies Record<Column, string>;

// Who rejected, as observed; written out so a row reads as the table does.
const MCP_CLIENT_ERROR_SCHEMA = { outcome: 'rejected', name: 'MCPClientError', by: 'client-output-schema' } as const satisfies Expected;
const TOOL_EXCEPTION_SCHEMA = { outcome: 'rejected', name: 'ToolException', by: 'client-output-schema' } as const satisfies Expected;
// LangChain's adapter throws for every isError result; the message carries the text content. No code.
const TOOL_EXCEPTION_IS_ERROR = { outcome: 'rejected', name: 'ToolException', by: 'client' } as const satisfies Expected;

/** The AI SDK hands back exactly what was sent, in every mode without an application schema. */
const aiSdkAsSent = (shape: ShapeDefinition) => {
  const expected = returnsAsSent(shape.result);
  return { 'ai-sdk/warm': expected, 'ai-sdk/cold': expected, 'ai-sdk/tools-automatic': expected };
};

/** A LangChain tool's ToolMessage, as the adapter built it (content, artifact, status). */
const toolMessage = (fields: { content: JsonValue; artifact: JsonValue; status: string }): Expected => ({
  outcome: 'returned',
  isError: false,
  otherKeys: { toolMessage: fields },
});

/** One row per audit shape, one cell per column. */
export const ECOSYSTEM_CELLS = {
  'conforming-success': {
    ...AUDIT_CELLS_OF('conforming-success'),
    // Observed: returned as sent in warm, cold and tools-automatic (no outputSchema check in any of them).
    ...aiSdkAsSent(s.conformingSuccess),
    // Observed: execute returns the validated structuredContent itself, { value: 7 }, not a CallToolResult.
    'ai-sdk/tools-with-schemas': { outcome: 'returned', isError: false, otherKeys: { output: { value: 7 } } },
    // Observed: a ToolMessage whose content is the text block with structuredContent merged in, JSON-
    // stringified by @langchain/core (the adapter returns one object, not a string or an array), and the
    // structured content again as an `mcp_structured_content` artifact.
    'langchain/load-tools': toolMessage({
      content: '{"type":"text","text":"{\\"value\\":7}","structuredContent":{"value":7}}',
      artifact: [{ type: 'mcp_structured_content', data: { value: 7 } }],
      status: 'success',
    }),
  },
  'off-schema-success': {
    ...AUDIT_CELLS_OF('off-schema-success'),
    // Observed: returned as sent; the AI SDK never checks structuredContent against the tool's outputSchema.
    ...aiSdkAsSent(s.offSchemaSuccess),
    // Observed: MCPClientError 'Tool "probe_value" returned structuredContent that does not match the
    // expected outputSchema' (no code).
    'ai-sdk/tools-with-schemas': MCP_CLIENT_ERROR_SCHEMA,
    // Observed: the v1 client's -32602 rejection, wrapped: ToolException "Error calling tool probe_value:
    // McpError: MCP error -32602: Structured content does not match the tool's output schema: …".
    'langchain/load-tools': TOOL_EXCEPTION_SCHEMA,
  },
  'success-without-structured': {
    ...AUDIT_CELLS_OF('success-without-structured'),
    // Observed: returned as sent, content "7" and no structuredContent, in all three modes.
    ...aiSdkAsSent(s.successWithoutStructured),
    // Observed: execute falls back to parsing the text content "7" against the schema and throws
    // MCPClientError 'Tool "probe_value" returned content that does not match the expected outputSchema'.
    'ai-sdk/tools-with-schemas': MCP_CLIENT_ERROR_SCHEMA,
    // Observed: ToolException wrapping v1's "MCP error -32600: Tool probe_value has an output schema but
    // did not return structured content".
    'langchain/load-tools': TOOL_EXCEPTION_SCHEMA,
  },
  'error-text-only': {
    ...AUDIT_CELLS_OF('error-text-only'),
    // Observed: returned as sent with isError true, in all three modes.
    ...aiSdkAsSent(s.errorTextOnly),
    // Observed: execute returns an isError result as is, before any schema check.
    'ai-sdk/tools-with-schemas': returnsAsSent(s.errorTextOnly.result),
    // Observed: ToolException "MCP tool 'probe_value' on server 'probe' returned an error: The value
    // service is unavailable." (the adapter turns every isError result into an exception).
    'langchain/load-tools': TOOL_EXCEPTION_IS_ERROR,
  },
  'error-off-schema': {
    ...AUDIT_CELLS_OF('error-off-schema'),
    // Observed: returned as sent, isError and the off-schema structuredContent, in all three modes.
    ...aiSdkAsSent(s.errorOffSchema),
    // Observed: returned as is (isError results skip extractStructuredContent).
    'ai-sdk/tools-with-schemas': returnsAsSent(s.errorOffSchema.result),
    // Observed: the listed v1 client underneath rejects it first (-32602, the audit's v1 cell), so the
    // ToolException wraps that schema error, not the tool's error text.
    'langchain/load-tools': TOOL_EXCEPTION_SCHEMA,
  },
  'error-conforming': {
    ...AUDIT_CELLS_OF('error-conforming'),
    // Observed: returned as sent with isError true and { value: 0 }, in all three modes.
    ...aiSdkAsSent(s.errorConforming),
    // Observed: returned as is (isError).
    'ai-sdk/tools-with-schemas': returnsAsSent(s.errorConforming.result),
    // Observed: ToolException "… returned an error: The value service is unavailable." (isError).
    'langchain/load-tools': TOOL_EXCEPTION_IS_ERROR,
  },
} as const satisfies Record<AuditShapeId, Record<Column, Expected>>;

/** The audit's own v1 and v2 cells (its table, not re-observed here). */
function AUDIT_CELLS_OF(shape: AuditShapeId): Record<'v1/warm' | 'v2/warm', Expected> {
  return { 'v1/warm': AUDIT_CELLS[shape].v1, 'v2/warm': AUDIT_CELLS[shape].v2 };
}

function columnParts(column: Column): { client: ClientLine; discovery: Discovery } {
  const [client, discovery] = column.split('/') as [ClientLine, Discovery];
  return { client, discovery };
}

const shapeCases: Scenario[] = Object.values(auditShapes).flatMap((shape) =>
  ECOSYSTEM_COLUMNS.map((column) =>
    defineCase({
      ...columnParts(column),
      shape,
      tool: auditTool,
      family: 'audit shapes',
      question: QUESTION[column].replace('%s', shape.title),
      reference: REFERENCE[column],
      expected: ECOSYSTEM_CELLS[shape.id][column],
    }),
  ),
);

/**
 * Family "transports": the same shapes over the transports each ecosystem line has besides memory
 * (the AI SDK over Streamable HTTP, its `{ type: 'http' }` transport; LangChain's v1 client over stdio and
 * Streamable HTTP), to see whether the transport changes any cell. The id's shape carries the transport.
 */
const OVER: readonly { readonly column: Column; readonly transport: Extract<TransportKind, 'stdio' | 'http'> }[] = [
  { column: 'ai-sdk/warm', transport: 'http' },
  { column: 'ai-sdk/tools-automatic', transport: 'http' },
  { column: 'ai-sdk/tools-with-schemas', transport: 'http' },
  { column: 'langchain/load-tools', transport: 'stdio' },
  { column: 'langchain/load-tools', transport: 'http' },
];
const TRANSPORT_NAME = { stdio: 'stdio', http: 'Streamable HTTP' } as const;

const transportCases: Scenario[] = OVER.flatMap(({ column, transport }) =>
  Object.values(auditShapes).map((shape) =>
    defineCase({
      ...columnParts(column),
      transport,
      shape: { ...shape, id: `${transport}-${shape.id}` },
      tool: auditTool,
      family: 'transports',
      question: `Over ${TRANSPORT_NAME[transport]}, is ${column}'s answer to "${shape.title}" the one it gives in memory?`,
      reference: `MCP specification, Transports › ${TRANSPORT_NAME[transport]}`,
      // Observed (run with no expectation first): every one of the 30 cells as in memory, error names and
      // messages included, and the result seen leaving the server unchanged.
      expected: { ...ECOSYSTEM_CELLS[shape.id][column], sent: 'as-scenario' },
    }),
  ),
);

/**
 * Family "faults": the server misbehaves at the call (as the extended matrix's faults family, for the SDK
 * lines). What does the application-facing call of each ecosystem line do: throw which error, or hang?
 */
const FAULT_COLUMNS = ['ai-sdk/warm', 'ai-sdk/tools-automatic', 'langchain/load-tools'] as const satisfies readonly Column[];
type FaultColumn = (typeof FAULT_COLUMNS)[number];
/** Short limits: these cases wait on purpose; the recorded outcome must not depend on machine speed. */
const OUR_LIMIT_MS = 500;
const CLIENT_LIMIT_MS = 150;
/**
 * Where the client's own limit must end the case, the probe's is only a backstop, far from it: at load 3,
 * a case thread's first case took over 350 ms to connect, and a 500 ms limit then won over the client's
 * 150 ms one, changing the recorded outcome (`--matrix extended --jobs 2`, 2 runs of 5).
 */
const BACKSTOP_LIMIT_MS = 5000;
const TIMEOUT: Expected = { outcome: 'timeout' };
const FAULTS: readonly {
  readonly id: string;
  readonly title: string;
  readonly server: ServerBehaviour;
  readonly clientTimeout?: boolean;
  readonly reference: string;
  readonly expected: Record<FaultColumn, Expected>;
}[] = [
  {
    id: 'fault-close-mid-call',
    title: 'The server closes the connection when tools/call arrives',
    server: { kind: 'close' },
    reference: 'MCP specification, Lifecycle › Shutdown',
    // Observed: the pending call rejects at once. AI SDK: MCPClientError "Connection closed" (no code);
    // LangChain: ToolException wrapping v1's "MCP error -32000: Connection closed".
    expected: {
      'ai-sdk/warm': { outcome: 'rejected', name: 'MCPClientError', by: 'transport' },
      'ai-sdk/tools-automatic': { outcome: 'rejected', name: 'MCPClientError', by: 'transport' },
      'langchain/load-tools': { outcome: 'rejected', name: 'ToolException', by: 'transport' },
    },
  },
  {
    id: 'fault-never-answers-client-timeout',
    title: `The server never answers; the application's own time limit is ${CLIENT_LIMIT_MS} ms`,
    server: { kind: 'hang' },
    clientTimeout: true,
    reference: 'MCP specification, Lifecycle › Timeouts (senders SHOULD time out requests)',
    // Observed: each gives up by itself. AI SDK callTool's timeout: MCPClientError "Request timed out after
    // 150ms"; a tool's execute under an abortSignal: MCPClientError "Request was aborted"; LangChain's invoke
    // timeout reaches the v1 callTool: ToolException "… MCP error -32001: TimeoutError: …". None has a code.
    expected: {
      'ai-sdk/warm': { outcome: 'rejected', name: 'MCPClientError', by: 'client' },
      'ai-sdk/tools-automatic': { outcome: 'rejected', name: 'MCPClientError', by: 'client' },
      'langchain/load-tools': { outcome: 'rejected', name: 'ToolException', by: 'client' },
    },
  },
  {
    id: 'fault-never-answers',
    title: `The server never answers; only the probe's ${OUR_LIMIT_MS} ms limit ends the case`,
    server: { kind: 'hang' },
    reference: 'MCP specification, Lifecycle › Timeouts',
    // Observed: nothing ends the call before the probe's limit (the AI SDK has no default request timeout in
    // callTool or execute; LangChain's v1 client waits its 60 s default).
    expected: { 'ai-sdk/warm': TIMEOUT, 'ai-sdk/tools-automatic': TIMEOUT, 'langchain/load-tools': TIMEOUT },
  },
  {
    id: 'fault-malformed-answer',
    title: 'The server answers with a message that is not valid JSON-RPC',
    server: { kind: 'malformed' },
    reference: 'JSON-RPC 2.0 §5 (Response object: result or error)',
    // Observed: the call waits until the probe's limit in every column. In memory the AI SDK client throws
    // (a TypeError reading the bad message) inside its onmessage, which the synchronous in-memory pair
    // runs inside the server's send: the v1 Server then answers the call with -32603 carrying that
    // message, so the wire shows a JSON-RPC error (sent: 'error'), which the AI SDK client never settles
    // the call with either. LangChain's v1 client ignores the bad message as v1 does.
    expected: {
      'ai-sdk/warm': { outcome: 'timeout', sent: 'error' },
      'ai-sdk/tools-automatic': { outcome: 'timeout', sent: 'error' },
      'langchain/load-tools': TIMEOUT,
    },
  },
  {
    id: 'fault-answer-wrong-id',
    title: "The server answers with a valid result carrying another request's id",
    server: { kind: 'wrong-id', result: s.conformingSuccess.result },
    reference: 'JSON-RPC 2.0 §5 (id MUST be the same as the request)',
    // Observed: the AI SDK client throws MCPClientError "Protocol error: Received a response for an unknown
    // message ID" inside its onmessage; in memory that throw lands in the server's send (see the malformed
    // row), the v1 Server answers the real call with -32603 carrying the client's own message, and the call
    // rejects with it (by: server, sent: error). LangChain's v1 client matches by id and keeps waiting.
    expected: {
      'ai-sdk/warm': { outcome: 'rejected', code: -32603, name: 'MCPClientError', by: 'server', sent: 'error' },
      'ai-sdk/tools-automatic': { outcome: 'rejected', code: -32603, name: 'MCPClientError', by: 'server', sent: 'error' },
      'langchain/load-tools': TIMEOUT,
    },
  },
  {
    id: 'fault-handler-throws',
    title: 'The server\'s tools/call handler throws',
    server: { kind: 'throw', message: 'the value service crashed' },
    reference: 'MCP specification, server/tools › Error Handling (protocol errors vs tool execution errors)',
    // Observed: the v1 Server answers -32603 "the value service crashed"; the AI SDK rejects with that code
    // (MCPClientError), LangChain throws ToolException "… MCP error -32603: the value service crashed"
    // (no code of its own). The tool's error never becomes an isError result on the way.
    expected: {
      'ai-sdk/warm': { outcome: 'rejected', code: -32603, name: 'MCPClientError', by: 'server', sent: 'error' },
      'ai-sdk/tools-automatic': { outcome: 'rejected', code: -32603, name: 'MCPClientError', by: 'server', sent: 'error' },
      'langchain/load-tools': { outcome: 'rejected', name: 'ToolException', by: 'server', sent: 'error' },
    },
  },
];

const faultCases: Scenario[] = FAULTS.flatMap((fault) =>
  FAULT_COLUMNS.map((column) =>
    defineCase({
      ...columnParts(column),
      shape: { id: fault.id, title: fault.title, result: s.conformingSuccess.result },
      server: fault.server,
      tool: auditTool,
      timeoutMs: fault.clientTimeout ? BACKSTOP_LIMIT_MS : OUR_LIMIT_MS,
      ...(fault.clientTimeout && { clientTimeoutMs: CLIENT_LIMIT_MS }),
      family: 'faults',
      question: `${fault.title}: what does ${column}'s call throw, or does it hang?`,
      reference: fault.reference,
      expected: fault.expected[column],
    }),
  ),
);

export const ecosystemMatrix = defineMatrix({
  name: 'ecosystem',
  title: 'Beyond the official SDK: the AI SDK and LangChain clients beside v1 and v2',
  source: 'scenarios/ecosystem.ts (issue #12): the audit\'s six shapes, and the transports, for every client line',
  scenarios: [...shapeCases, ...transportCases, ...faultCases],
});
