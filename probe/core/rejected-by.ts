// Who rejected a call, classified once, when the call is observed (engine/observe.ts records it in the
// observation; the judge and the renderers read it from there). Pure.
import { sentKind, type ErrorInfo, type RejectedBy, type ServerSent } from './domain.ts';

// The wording both client lines use when their outputSchema check rejects a result (v1 client/index.js
// callTool, v2 Client.callTool): "has an output schema but did not return structured content",
// "Structured content does not match the tool's output schema", "has an invalid outputSchema".
const OUTPUT_SCHEMA_CHECK = /output schema|outputSchema|structured content does not match|failed to validate structured content/i;
// The client's own result parse: v1 lets zod's error through unwrapped, v2 throws SdkError INVALID_RESULT.
const RESULT_PARSE = /^\$?ZodError$/;
// The connection closed under the pending request: v1 McpError ConnectionClosed (-32000), v2 SdkError
// CONNECTION_CLOSED (SDK Protocol._onclose rejects every pending request).
const CONNECTION_CLOSED = new Set<ErrorInfo['code']>([-32000, 'CONNECTION_CLOSED']);
// The ecosystem lines carry no code for it: the AI SDK's MCPClientError "Connection closed", LangChain's
// ToolException wrapping v1's "MCP error -32000: Connection closed".
const CONNECTION_CLOSED_MESSAGE = /\bConnection closed\b/;

export function classifyRejection(error: ErrorInfo, serverSent: ServerSent): RejectedBy {
  if (sentKind(serverSent) === 'error') return 'server';
  if (OUTPUT_SCHEMA_CHECK.test(error.message)) return 'client-output-schema';
  if (RESULT_PARSE.test(error.name) || error.code === 'INVALID_RESULT') return 'client-result-parse';
  if (CONNECTION_CLOSED.has(error.code) || (error.code === null && CONNECTION_CLOSED_MESSAGE.test(error.message))) return 'transport';
  return 'client';
}
