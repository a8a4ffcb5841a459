// Who rejected a call is classified once, when it is observed; the classifier is pure and table-driven.
import { describe, expect, it } from 'vitest';
import type { ErrorInfo, RejectedBy, ServerSent } from '../probe/core/domain.ts';
import { classifyRejection } from '../probe/core/rejected-by.ts';

const error = (name: string, code: ErrorInfo['code'], message = 'm'): ErrorInfo => ({ name, code, message });
const serverError: ServerSent = { error: { code: -32602, message: 'Invalid params' } };

// [what, error, what the server sent, who rejected]; messages are the pinned SDKs' own wording.
const table: [string, ErrorInfo, ServerSent, RejectedBy][] = [
  ['the server answered with a JSON-RPC error', error('McpError', -32602, 'MCP error -32602: Invalid params'), serverError, 'server'],
  ['v1 outputSchema mismatch', error('McpError', -32602, "MCP error -32602: Structured content does not match the tool's output schema: data must NOT have additional properties"), 'as-scenario', 'client-output-schema'],
  ['v1 missing structured content', error('McpError', -32600, 'MCP error -32600: Tool probe_value has an output schema but did not return structured content'), 'as-scenario', 'client-output-schema'],
  ['v2 invalid outputSchema', error('ProtocolError', -32602, 'Tool probe_value has an invalid outputSchema'), 'nothing', 'client-output-schema'],
  ['v1 result parse (zod, no code)', error('$ZodError', null, '[{"code":"invalid_type"}]'), 'as-scenario', 'client-result-parse'],
  ['v2 result parse', error('SdkError', 'INVALID_RESULT', 'Invalid result'), 'as-scenario', 'client-result-parse'],
  ['v1 connection closed', error('McpError', -32000, 'MCP error -32000: Connection closed'), 'nothing', 'transport'],
  ['v2 connection closed', error('SdkError', 'CONNECTION_CLOSED', 'Connection closed'), 'nothing', 'transport'],
  ['ai-sdk connection closed (no code)', error('MCPClientError', null, 'Connection closed'), 'nothing', 'transport'],
  ['langchain connection closed (wrapped, no code)', error('ToolException', null, 'Error calling tool probe_value: McpError: MCP error -32000: Connection closed'), 'nothing', 'transport'],
  ['a coded error saying "connection closed" is classified by its code', error('McpError', -32001, 'Request timed out; Connection closed later'), 'nothing', 'client'],
  ['v1 request timeout', error('McpError', -32001, 'MCP error -32001: Request timed out'), 'nothing', 'client'],
  ['v2 request timeout', error('SdkError', 'REQUEST_TIMEOUT', 'Request timed out'), 'nothing', 'client'],
  ['a server error wins over outputSchema wording', error('McpError', -32602, 'output schema'), serverError, 'server'],
];

describe('classifyRejection', () => {
  it.each(table)('%s', (_what, thrown, sent, by) => {
    expect(classifyRejection(thrown, sent)).toBe(by);
  });
});
