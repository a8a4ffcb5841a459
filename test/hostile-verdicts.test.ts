// Issue 20: a verdict is decided by structure, never by what a server wrote. Each case here is a real
// fixture server whose text imitates a client's own wording (the SDK's outputSchema message, "Connection
// closed"), driven through every client line's real client; who rejected must follow where the error was
// thrown and what went on the wire, whatever the words.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapters } from '../probe/clients/index.ts';
import { defineCase } from '../probe/core/define.ts';
import type { ClientLine, Discovery, ServerBehaviour } from '../probe/core/domain.ts';
import { observe } from '../probe/engine/observe.ts';
import { loadUserScenarios } from '../probe/io/user-scenarios.ts';
import { describeObservationInFull } from '../probe/render/describe.ts';
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

// An own `__proto__` key (JSON.parse keeps it as an own property) is a key like any other: the case sends
// it, and the record says who dropped it, instead of calling the result unchanged.
describe('a key dropped on the way is recorded as dropped', () => {
  const withProto = () => JSON.parse('{"content":[],"structuredContent":{"__proto__":{"polluted":true},"value":7}}') as Record<string, never>;
  const tool = { name: 'probe_value', inputSchema: { type: 'object' } };
  const lost = [{ path: ['structuredContent', '__proto__'], by: 'client' }];

  it.each([
    ['v1', 'raw', 'as-scenario', lost],
    ['v2', 'raw', 'as-scenario', lost],
    // The v1 Server's own CallToolResult parse (Server.setRequestHandler, since 1.24.0) drops it first.
    ['v1', 'wrapped', 'altered', [{ path: ['structuredContent', '__proto__'], by: 'server' }]],
    // The AI SDK's parse keeps it: nothing dropped.
    ['ai-sdk', 'raw', 'as-scenario', undefined],
  ] as const)('%s, %s registration', async (client, registration, sent, dropped) => {
    const result = withProto();
    const scenario = defineCase({
      client,
      discovery: 'cold',
      shape: { id: 'own-proto-key', title: 'own __proto__ key', result },
      tool,
      expected: null,
      server: { kind: 'respond', result, registration },
    });
    const observed = await observe(scenario, adapters[client], { timeoutMs: 10_000 });
    expect(observed.outcome).toBe('returned');
    expect(typeof observed.serverSent === 'string' ? observed.serverSent : Object.keys(observed.serverSent)[0]).toBe(sent);
    expect(observed.outcome === 'returned' ? observed.dropped : 'not returned').toEqual(dropped);
    expect(describeObservationInFull(observed)).toContain(dropped ? `dropped: structuredContent.__proto__ (by the ${dropped[0]!.by})` : 'returned');
  });

  it('a case defined from a shape keeps its own __proto__ key', () => {
    const scenario = defineCase({ client: 'v1', discovery: 'cold', shape: { id: 'own-proto-key', title: 't', result: withProto() }, tool, expected: null });
    const result = scenario.server.kind === 'respond' ? scenario.server.result : {};
    expect(Object.hasOwn((result.structuredContent ?? {}) as object, '__proto__')).toBe(true);
  });

  it('a user JSON scenario keeps its own __proto__ key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'probe-proto-'));
    try {
      writeFileSync(
        join(dir, 'proto.json'),
        '{"shape":"own-proto","tool":{"name":"probe_value","inputSchema":{"type":"object"}},"result":{"content":[],"structuredContent":{"__proto__":{"x":1},"value":7}},"expected":{"v1/cold":"returned"}}',
      );
      const [scenario] = await loadUserScenarios(dir, 'scenarios', new Set(), { allowCode: false });
      const result = scenario!.server.kind === 'respond' ? scenario!.server.result : {};
      expect(Object.hasOwn(result.structuredContent as object, '__proto__')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
