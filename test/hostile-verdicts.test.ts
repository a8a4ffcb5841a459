// Issue 20: a verdict is decided by structure, never by what a server wrote. Each case here is a real
// fixture server whose text imitates a client's own wording (the SDK's outputSchema message, "Connection
// closed"), driven through every client line's real client; who rejected must follow where the error was
// thrown and what went on the wire, whatever the words.
import { describe, expect, it } from 'vitest';
import { adapters } from '../probe/clients/index.ts';
import { defineCase } from '../probe/core/define.ts';
import type { ClientLine, Discovery, ServerBehaviour } from '../probe/core/domain.ts';
import { observe } from '../probe/engine/observe.ts';
import { auditTool } from '../scenarios/audit.ts';

const LINES: [ClientLine, Discovery][] = [
  ['v1', 'warm'],
  ['v2', 'warm'],
  ['ai-sdk', 'warm'],
  ['ai-sdk', 'tools-automatic'],
  ['ai-sdk', 'tools-with-schemas'],
  ['langchain', 'load-tools'],
];

// The pinned clients' own wording (v1 client/index.js callTool; v2 Client.callTool; v1 Protocol._onclose).
const OUTPUT_SCHEMA_WORDING = "Structured content does not match the tool's output schema: data must have required property 'value'";
const MISSING_WORDING = 'Tool probe_value has an output schema but did not return structured content';
const CLOSED_WORDING = 'MCP error -32000: Connection closed';

const isErrorWith = (text: string): ServerBehaviour => ({ kind: 'respond', result: { content: [{ type: 'text', text }], isError: true } });
const jsonRpcErrorWith = (message: string): ServerBehaviour => ({ kind: 'throw', message });

const BEHAVIOURS: [string, ServerBehaviour, 'result' | 'error'][] = [
  ['an isError result in the outputSchema wording', isErrorWith(OUTPUT_SCHEMA_WORDING), 'result'],
  ['an isError result in the missing-structured-content wording', isErrorWith(MISSING_WORDING), 'result'],
  ['an isError result saying the connection closed', isErrorWith(CLOSED_WORDING), 'result'],
  ['a JSON-RPC error in the outputSchema wording', jsonRpcErrorWith(OUTPUT_SCHEMA_WORDING), 'error'],
  ['a JSON-RPC error saying "Connection closed"', jsonRpcErrorWith('Connection closed'), 'error'],
];

const cases = LINES.flatMap(([client, discovery]) => BEHAVIOURS.map(([what, server, kind]) => [`${client}/${discovery}: ${what}`, client, discovery, server, kind] as const));

describe('who rejected is not decided by server text', () => {
  it.each(cases)('%s', async (_what, client, discovery, server, kind) => {
    const scenario = defineCase({
      client,
      discovery,
      shape: { id: 'hostile-wording', title: 'hostile wording', result: {} },
      tool: auditTool,
      expected: null,
      server,
    });
    const observed = await observe(scenario, adapters[client], { timeoutMs: 10_000 });
    // An isError result is returned by the SDK lines and the AI SDK; LangChain turns it into a
    // ToolException of its own (the client's conversion, not its outputSchema check or the transport).
    // A JSON-RPC error is the server's on every line.
    if (kind === 'error') expect(observed).toMatchObject({ outcome: 'rejected', by: 'server' });
    else if (client === 'langchain') expect(observed).toMatchObject({ outcome: 'rejected', by: 'client', serverSent: 'as-scenario' });
    else expect(observed).toMatchObject({ outcome: 'returned', isError: true, serverSent: 'as-scenario' });
  });
});
