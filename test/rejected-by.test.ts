// Who rejected a call is classified once, when it is observed; the classifier is pure and table-driven
// over structural facts (where the call threw, the error's class and code, what the server sent). The
// facts carry no message, so no wording can reach the decision (issue 20; hostile-verdicts.test.ts drives
// real servers that try).
import { describe, expect, it } from 'vitest';
import type { RejectedBy, ServerSent } from '../probe/core/domain.ts';
import { classifyRejection, rejectionFacts, type CallStage, type RejectionFacts } from '../probe/core/rejected-by.ts';

const facts = (stage: CallStage, name: string, code: RejectionFacts['code'], more: Partial<RejectionFacts> = {}): RejectionFacts => ({ stage, name, code, ...more });
const serverError: ServerSent = { error: { code: -32602, message: 'Invalid params' } };

// [what, facts, what the server sent, who rejected]; classes and codes are the pinned SDKs' own.
const table: [string, RejectionFacts, ServerSent, RejectedBy][] = [
  ['the server answered with a JSON-RPC error', facts('request', 'McpError', -32602), serverError, 'server'],
  ['a server error with the closed-connection code is the server', facts('request', 'McpError', -32000), { error: { code: -32000, message: 'Connection closed' } }, 'server'],
  ['v1 outputSchema mismatch (after its request)', facts('after-request', 'McpError', -32602), 'as-scenario', 'client-output-schema'],
  ['v1 missing structured content (after its request)', facts('after-request', 'McpError', -32600), 'as-scenario', 'client-output-schema'],
  ['v2 outputSchema mismatch on an altered result', facts('after-request', 'ProtocolError', -32602), { altered: {} }, 'client-output-schema'],
  ['v2 invalid outputSchema (before its request)', facts('before-request', 'ProtocolError', -32602), 'nothing', 'client-output-schema'],
  ['v1 task guard (before its request, InvalidRequest)', facts('before-request', 'McpError', -32600), 'nothing', 'client'],
  ['the adapter refused before the client was called', facts('before-request', 'TypeError', null), 'nothing', 'client'],
  ['ai-sdk application outputSchema (after its callTool)', facts('after-request', 'MCPClientError', null, { causeName: 'TypeValidationError' }), 'as-scenario', 'client-output-schema'],
  ['v1 result parse (zod 4, no code)', facts('request', '$ZodError', null), 'as-scenario', 'client-result-parse'],
  ['v1 result parse (zod 3, older releases)', facts('request', 'ZodError', null), 'as-scenario', 'client-result-parse'],
  ['v2 result parse', facts('request', 'SdkError', 'INVALID_RESULT'), 'as-scenario', 'client-result-parse'],
  ['ai-sdk result parse (zod under its error)', facts('request', 'MCPClientError', null, { causeName: '$ZodError' }), 'as-scenario', 'client-result-parse'],
  ['v1 connection closed', facts('request', 'McpError', -32000), 'nothing', 'transport'],
  ['v2 connection closed', facts('request', 'SdkError', 'CONNECTION_CLOSED'), 'nothing', 'transport'],
  ['ai-sdk connection closed (no code, the client saw it close)', facts('request', 'MCPClientError', null, { connectionClosed: true }), 'nothing', 'transport'],
  ['ai-sdk request timeout (no code, still open)', facts('request', 'MCPClientError', null), 'nothing', 'client'],
  ['v1 request timeout', facts('request', 'McpError', -32001), 'nothing', 'client'],
  ['v2 request timeout', facts('request', 'SdkError', 'REQUEST_TIMEOUT'), 'nothing', 'client'],
  ['langchain isError conversion', facts('conversion', 'ToolException', null), 'as-scenario', 'client'],
  ['a closed-connection code after the request is not the transport', facts('after-request', 'McpError', -32000), 'as-scenario', 'client-output-schema'],
  ['a closed-connection code in a conversion is not the transport', facts('conversion', 'ToolException', -32000), 'as-scenario', 'client'],
];

describe('classifyRejection', () => {
  it.each(table)('%s', (_what, thrown, sent, by) => {
    expect(classifyRejection(thrown, sent)).toBe(by);
  });
});

describe('rejectionFacts', () => {
  it('keeps class, code and the cause class, never the message', () => {
    const cause = new (class TypeValidationError extends Error {})('Structured content does not match the tool\'s output schema');
    const error = Object.assign(new Error('Connection closed', { cause }), { code: -32000 });
    const recorded = rejectionFacts(error, 'request', { connectionClosed: true });
    expect(recorded).toEqual({ stage: 'request', name: 'Error', code: -32000, causeName: 'TypeValidationError', connectionClosed: true });
    expect(JSON.stringify(recorded)).not.toContain('Connection closed');
  });
});
