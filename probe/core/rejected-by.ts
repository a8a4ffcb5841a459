// Who rejected a call, classified once, when the call is observed (engine/observe.ts records it in the
// observation; the judge and the renderers read it from there). Pure, and decided by structure only:
// where the line's call threw (its adapter records the stage), the thrown error's class and code, and what
// the fixture's wire tap saw the server send. Never by a message: an error's message can carry the
// server's own text (LangChain copies an isError result's text into its ToolException; every line copies
// a JSON-RPC error's message), so wording proves nothing about who threw (issue 20).
import { sentKind, type ErrorInfo, type RejectedBy, type ServerSent } from './domain.ts';

/**
 * Where in a line's call the error was thrown, as its adapter saw it (clients/adapter.ts `CallWatch`):
 * - `before-request`: the client threw before it sent tools/call (its own pre-checks, or the adapter's).
 * - `request`: the client's tools/call request itself rejected (its protocol layer: an error response,
 *   its timeout, the connection closing, its parse of the result).
 * - `after-request`: the client's call threw after its tools/call request resolved with a result.
 * - `conversion`: the client's call resolved and the framework above it threw while converting the result
 *   (LangChain's `_convertCallToolResult`, which throws a ToolException for an isError result).
 */
export const CALL_STAGES = ['before-request', 'request', 'after-request', 'conversion'] as const;
export type CallStage = (typeof CALL_STAGES)[number];

/** An error's class and code: what code, not data, put on it. */
export type ThrownClass = Pick<ErrorInfo, 'name' | 'code'>;

/**
 * The structural facts a rejection is classified by. `name`/`code` are the error the client itself threw:
 * for a line that wraps another client (LangChain over v1), the client's error under the wrapper.
 */
export interface RejectionFacts extends ThrownClass {
  readonly stage: CallStage;
  /** The class of the thrown error's `cause`, when it has one (the AI SDK wraps its result parse error). */
  readonly causeName?: string;
  /** The client had seen its connection close when the call rejected (the AI SDK's errors carry no code). */
  readonly connectionClosed?: boolean;
}

/** The class name and code of a thrown value: v1 McpError, v2 ProtocolError / SdkError, zod, a plain Error. */
export function thrownClass(error: unknown): ThrownClass {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name && error.name !== 'Error' ? error.name : error.constructor.name || 'Error',
      code: typeof code === 'number' || typeof code === 'string' ? code : null,
    };
  }
  return { name: typeof error, code: null };
}

/** The facts about an error thrown at `stage`, with its cause's class. */
export function rejectionFacts(error: unknown, stage: CallStage, extra: { connectionClosed?: boolean } = {}): RejectionFacts {
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  return {
    stage,
    ...thrownClass(error),
    ...(cause !== undefined && { causeName: thrownClass(cause).name }),
    ...(extra.connectionClosed === true && { connectionClosed: true }),
  };
}

// JSON-RPC InvalidParams, as both lines' pre-request outputSchema check throws it: v2 Client.callTool's
// `assertCompiled` ("has an invalid outputSchema", ProtocolErrorCode.InvalidParams, before `this.request`).
// v1's only pre-request throw is the task guard, ErrorCode.InvalidRequest (v1 client/index.js callTool,
// line 482), which is not an outputSchema check.
const INVALID_PARAMS = -32602;
// The client's own parse of the result: v1's Protocol.request parses with zod and lets its error through
// (zod 3 `ZodError` up to 1.22, zod 4 `$ZodError` since 1.23); v2 throws SdkError INVALID_RESULT; the AI
// SDK wraps zod's error as the cause of "Failed to parse server response" (its requestOnce).
const RESULT_PARSE_CLASSES = new Set(['ZodError', '$ZodError']);
// The connection closed under the pending request: v1 McpError ConnectionClosed (-32000, shared/protocol.js
// _onclose), v2 SdkError CONNECTION_CLOSED (Protocol._onclose): each rejects every pending request with it.
// Only at the `request` stage and only when the server sent no JSON-RPC error (which could carry -32000).
const CONNECTION_CLOSED = new Set<ErrorInfo['code']>([-32000, 'CONNECTION_CLOSED']);

export function classifyRejection(facts: RejectionFacts, serverSent: ServerSent): RejectedBy {
  // The wire tap saw the server answer tools/call with a JSON-RPC error (fixtures/wire-tap.ts).
  if (sentKind(serverSent) === 'error') return 'server';
  switch (facts.stage) {
    // After its request resolved, a client's call runs only its outputSchema check: v1 client/index.js
    // callTool lines 485-508, v2 Client.callTool's `validator` block, the AI SDK's tool `execute`, whose
    // only step after `callTool` is `extractStructuredContent` against the application's outputSchema.
    case 'after-request':
      return 'client-output-schema';
    case 'before-request':
      return facts.code === INVALID_PARAMS ? 'client-output-schema' : 'client';
    // LangChain's conversion of a result the client handed it (an isError result becomes a ToolException).
    case 'conversion':
      return 'client';
    case 'request':
      if (RESULT_PARSE_CLASSES.has(facts.name) || facts.code === 'INVALID_RESULT') return 'client-result-parse';
      if (facts.causeName !== undefined && RESULT_PARSE_CLASSES.has(facts.causeName)) return 'client-result-parse';
      if (CONNECTION_CLOSED.has(facts.code) || facts.connectionClosed === true) return 'transport';
      // Its own request timeout or abort.
      return 'client';
  }
}
