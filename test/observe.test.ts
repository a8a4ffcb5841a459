// The observer's own failure paths, driven through the real SDK clients: a server that never answers and
// a discovery step that throws must become recorded observations, never a stuck or crashed run.
import { describe, expect, it } from 'vitest';
import { adapters } from '../probe/clients/index.ts';
import { defineCase } from '../probe/core/define.ts';
import { describeError, observe } from '../probe/engine/observe.ts';
import { auditShapes, auditTool } from '../scenarios/audit.ts';

describe('observe', () => {
  it.each(['v1', 'v2'] as const)('records a server that never answers as a timeout (%s)', async (client) => {
    const scenario = defineCase({
      client,
      discovery: 'warm',
      shape: auditShapes.conformingSuccess,
      tool: auditTool,
      expected: { outcome: 'returned', isError: false },
      server: { kind: 'hang' },
    });
    const observed = await observe(scenario, adapters[client], { timeoutMs: 300 });
    // Our limit (afterMs 300), not the client's default request timeout (60 s, longer than this test may run),
    // ended the case.
    expect(observed).toEqual({ outcome: 'timeout', stage: 'call', afterMs: 300, serverSent: 'nothing' });
  });

  it('records a discovery step that throws as crashed, with the stage and the error', async () => {
    // v1 compiles a validator for every listed outputSchema; an invalid regex cannot compile.
    const tool = { ...auditTool, outputSchema: { type: 'string', pattern: '(' } };
    const scenario = defineCase({
      client: 'v1',
      discovery: 'warm',
      shape: auditShapes.conformingSuccess,
      tool,
      expected: { outcome: 'returned', isError: false },
    });
    const observed = await observe(scenario, adapters.v1, { timeoutMs: 5000 });
    expect(observed).toMatchObject({ outcome: 'crashed', stage: 'discover', serverSent: 'nothing' });
  });
});

describe('describeError', () => {
  it.each([
    [Object.assign(new Error('x'), { code: -32602 }), { name: 'Error', code: -32602, message: 'x' }],
    [Object.assign(new TypeError('t'), { code: 'ERR' }), { name: 'TypeError', code: 'ERR', message: 't' }],
    [new (class McpError extends Error {})('m'), { name: 'McpError', code: null, message: 'm' }],
    ['a string', { name: 'string', code: null, message: 'a string' }],
  ])('%s', (error, expected) => {
    expect(describeError(error)).toEqual(expected);
  });
});
