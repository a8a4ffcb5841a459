// Replay captures: a tool definition and the CallToolResult a real server sent, either as
// `{ tool, result }` or as the raw JSON-RPC messages a user logged (a tools/list response and the
// tools/call response, with or without the tools/call request). Validated with zod; every problem is an
// InputError naming the file and the field.
import { basename, extname } from 'node:path';
import { z } from 'zod';
import {
  JsonValueSchema,
  ToolDefinitionSchema,
  ToolResultSchema,
  toolDefinitionAsGiven,
  toolResultAsGiven,
  type Capture,
  type JsonValue,
  type ToolDefinition,
  type ToolResult,
} from '../core/domain.ts';
import { unlessDropped } from '../core/dropped.ts';
import { InputError } from '../core/errors.ts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './files.ts';
import { jsonText, readJsonFile, validateJson } from './json-files.ts';

const IdSchema = z.union([z.string(), z.number()]);
/** tools/call `params.arguments`: an object (MCP spec, CallToolRequest: `arguments?: { [key: string]: unknown }`). */
export const CallArgumentsSchema = z.record(z.string(), JsonValueSchema);

const MessageSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: IdSchema.optional(),
    method: z.string().optional(),
    params: z.record(z.string(), JsonValueSchema).optional(),
    result: z.record(z.string(), JsonValueSchema).optional(),
    error: z.object({ code: z.number(), message: z.string() }).loose().optional(),
  })
  .loose();
type Message = z.infer<typeof MessageSchema>;

const PairSchema = z
  .object({
    /** Optional label for the report; the file name otherwise. */
    name: z.string().min(1).optional(),
    tool: ToolDefinitionSchema,
    result: ToolResultSchema,
    /** The tools/call arguments of the captured call (captureTool records them); `{}` when absent. */
    arguments: CallArgumentsSchema.optional(),
  })
  .strict();

const MessagesSchema = z
  .object({
    name: z.string().min(1).optional(),
    /** Which listed tool was called, when the log has no tools/call request. */
    toolName: z.string().min(1).optional(),
    messages: z.array(MessageSchema).min(1),
  })
  .strict();

const MessageListSchema = z.array(MessageSchema).min(1);

export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'capture'
  );
}

type Captured = Omit<Capture, 'shape'>;

function fromMessages(path: string, messages: readonly Message[], toolName: string | undefined): Captured {
  const call = messages.find((m) => m.method === 'tools/call');
  const isCallResult = (m: Message) => m.result !== undefined && Array.isArray(m.result.content);
  const responses = messages.filter((m) => m.method === undefined && m.id !== undefined);
  const callResponse = call ? responses.find((m) => m.id === call.id) : undefined;
  const candidates = call ? (callResponse ? [callResponse] : []) : responses.filter((m) => isCallResult(m) || (m.error && !Array.isArray(m.result?.tools)));
  if (candidates.length === 0) {
    throw new InputError(`${path}: messages: no tools/call response${call ? ` with id ${JSON.stringify(call.id)}` : ' (a response whose result has a content array)'}`);
  }
  if (candidates.length > 1) throw new InputError(`${path}: messages: ${candidates.length} tools/call responses; keep the one to replay`);
  const response = candidates[0]!;
  if (response.error) {
    throw new InputError(`${path}: messages: the tools/call response is a JSON-RPC error (${response.error.code}: ${response.error.message}), not a result to replay`);
  }
  const result = ToolResultSchema.safeParse(response.result);
  if (!result.success || !isCallResult(response)) throw new InputError(`${path}: messages: the tools/call response has no result with a content array`);

  const tools = responses.flatMap((m) => (Array.isArray(m.result?.tools) ? (m.result.tools as unknown[]) : []));
  if (tools.length === 0) throw new InputError(`${path}: messages: no tools/list response (a result with a tools array)`);
  const name = toolName ?? (typeof call?.params?.name === 'string' ? call.params.name : undefined);
  const named = name === undefined ? (tools.length === 1 ? tools[0] : undefined) : tools.find((t) => (t as { name?: unknown })?.name === name);
  if (named === undefined) {
    throw new InputError(
      name === undefined
        ? `${path}: toolName: the tools/list response lists ${tools.length} tools and no tools/call request says which was called; add "toolName"`
        : `${path}: messages: tools/list does not list the called tool ${JSON.stringify(name)}`,
    );
  }
  const tool = ToolDefinitionSchema.safeParse(named);
  if (!tool.success) {
    const issue = tool.error.issues[0];
    throw new InputError(`${path}: messages: tool ${JSON.stringify(name)}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message}`);
  }
  // As the log gives them, not as zod parsed them: its parse leaves own `__proto__` keys out (domain.ts
  // toolResultAsGiven), and the case must list and send what the server sent (issue 20).
  // The logged request's arguments, as given: replay makes the same call (a tool whose inputSchema requires
  // them is otherwise refused by a client's own input check, LangChain's ToolInputParsingException).
  const args = call?.params?.arguments;
  if (args !== undefined && !CallArgumentsSchema.safeParse(args).success) {
    throw new InputError(`${path}: messages: the tools/call request's params.arguments is not an object`);
  }
  return { tool: toolDefinitionAsGiven(named), result: toolResultAsGiven(response.result), ...(args !== undefined && { arguments: args as Record<string, JsonValue> }) };
}

/**
 * Whether a JSON file in a scenario folder is a capture rather than a scenario file: logged JSON-RPC
 * messages (an array of them, or `{ messages }`), or `{ tool, result }` with neither of a scenario's own
 * fields (`shape`, `expected`). A scenario file missing one of those is still a scenario file, so its
 * error names the field it lacks.
 */
export function isCaptureJson(json: unknown): boolean {
  if (Array.isArray(json)) return json.length > 0 && json.every((m) => m !== null && typeof m === 'object' && 'jsonrpc' in m);
  if (json === null || typeof json !== 'object') return false;
  return 'messages' in json || ('tool' in json && 'result' in json && !('shape' in json) && !('expected' in json));
}

/** The capture's form decides its schema, so a mistake is reported against the form the user meant. */
export function parseCapture(json: unknown, path: string): Capture {
  const fallback = slug(basename(path, extname(path)));
  // The messages are read as given once validated (their schema is loose: zod's output is the input but for
  // the own `__proto__` keys it leaves out), so the result and tool taken from them are the log's.
  if (Array.isArray(json)) {
    validateJson(json, path, MessageListSchema, 'replay capture');
    return { shape: fallback, ...fromMessages(path, json as Message[], undefined) };
  }
  if (json !== null && typeof json === 'object' && 'messages' in json) {
    const capture = validateJson(json, path, MessagesSchema, 'replay capture');
    return { shape: capture.name ? slug(capture.name) : fallback, ...fromMessages(path, (json as { messages: Message[] }).messages, capture.toolName) };
  }
  const capture = validateJson(json, path, PairSchema, 'replay capture');
  const given = json as { tool: unknown; result: unknown; arguments?: Record<string, JsonValue> };
  return {
    shape: capture.name ? slug(capture.name) : fallback,
    tool: toolDefinitionAsGiven(given.tool),
    result: toolResultAsGiven(given.result),
    ...(given.arguments !== undefined && { arguments: given.arguments }),
  };
}

/**
 * A capture as a file `replay` reads back (the `{ name, tool, result }` form), pretty JSON with a trailing
 * newline. Validated against the same schema and depth limit the reader uses, so what is written always
 * reads; `path` names the file in errors.
 */
export function captureFileText(
  capture: { readonly name: string; readonly tool: ToolDefinition; readonly result: ToolResult; readonly arguments?: Readonly<Record<string, unknown>> },
  path: string,
): string {
  // A call made with no arguments is written as before (no key): replay calls with `{}` when it has none.
  const args = capture.arguments !== undefined && Object.keys(capture.arguments).length > 0 ? capture.arguments : undefined;
  const given = { name: capture.name, tool: capture.tool, result: capture.result, ...(args && { arguments: args }) };
  // Before zod and JSON.stringify walk it recursively: what a server sent may nest past the stack.
  if (nestsDeeperThan(given, MAX_JSON_DEPTH)) {
    throw new InputError(`${path}: not written: the replay capture would nest more than ${MAX_JSON_DEPTH} levels deep, more than the probe reads back`);
  }
  // The values as given where zod's output left an own `__proto__` key out (core/dropped.ts unlessDropped).
  const pair = unlessDropped(given, validateJson(given, path, PairSchema, 'replay capture'));
  return `${jsonText(pair, 2)}\n`;
}

export function readCapture(path: string, shownPath: string = path): Capture {
  return parseCapture(readJsonFile(path, z.unknown(), 'replay capture', shownPath), shownPath);
}
