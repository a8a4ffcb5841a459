// The explore oracles over hand-made traces, one row per situation: which violations each trace shows.
import { describe, expect, it } from 'vitest';
import type { ToolDefinition, ToolResult } from '../probe/core/domain.ts';
import { checkTraces, violationClass } from '../probe/explore/oracles.ts';
import type { CallSettled, LineTrace, TraceEvent } from '../probe/explore/trace.ts';

const schemaN = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false };
const schemaS = { type: 'object', properties: { s: { type: 'string' } }, required: ['s'], additionalProperties: false };
const tool = (outputSchema?: Record<string, unknown>): ToolDefinition =>
  ({ name: 'alpha', inputSchema: { type: 'object' }, ...(outputSchema && { outputSchema }) }) as ToolDefinition;
const result = (structuredContent?: unknown, isError = false): ToolResult =>
  ({ content: [], ...(structuredContent !== undefined && { structuredContent }), ...(isError && { isError: true }) }) as ToolResult;

const connected: TraceEvent = { event: 'connected' };
const listed = (step: number, ...tools: ToolDefinition[]): TraceEvent => ({ event: 'listed', step, via: 'plain', tools });
const returned: CallSettled = { outcome: 'returned', isError: false };
const byCheck: CallSettled = { outcome: 'rejected', by: 'client-output-schema', error: { name: 'McpError', code: -32602, message: 'Structured content does not match' } };
const byParse: CallSettled = { outcome: 'rejected', by: 'client-result-parse', error: { name: 'ZodError', code: null, message: 'bad' } };
const call = (step: number, sent: ToolResult, settled: CallSettled, definition?: ToolDefinition): TraceEvent => ({
  event: 'call',
  step,
  tool: 'alpha',
  sent,
  settled,
  ...(definition && { definition }),
});
const v1 = (...events: TraceEvent[]): LineTrace => ({ client: 'v1', events: [connected, ...events] });
const v2 = (...events: TraceEvent[]): LineTrace => ({ client: 'v2', events: [connected, ...events] });

// [situation, traces, violation classes]
const table: [string, LineTrace[], string[]][] = [
  ['conforming result returned after listing', [v1(listed(0, tool(schemaN)), call(1, result({ n: 1 }), returned))], []],
  ['nonconforming result rejected by the check', [v1(listed(0, tool(schemaN)), call(1, result({ s: 'x' }), byCheck))], []],
  ['nonconforming result returned', [v1(listed(0, tool(schemaN)), call(1, result({ s: 'x' }), returned))], ['schema-consistency:v1:returned-nonconforming:plain']],
  ['missing structuredContent returned', [v1(listed(0, tool(schemaN)), call(1, result(), returned))], ['schema-consistency:v1:returned-nonconforming:plain']],
  ['conforming result rejected by the check', [v1(listed(0, tool(schemaN)), call(1, result({ n: 1 }), byCheck))], ['schema-consistency:v1:rejected-conforming:plain']],
  ['conforming rejected by the result parse is not the check', [v1(listed(0, tool(schemaN)), call(1, result({ n: 1 }), byParse))], []],
  ['the most recent listing counts', [v1(listed(0, tool(schemaN)), listed(1, tool(schemaS)), call(2, result({ s: 'x' }), byCheck))], ['schema-consistency:v1:rejected-conforming:plain']],
  ['stale schema checked is fine when the old listing is the latest', [v1(listed(0, tool(schemaN)), call(2, result({ s: 'x' }), byCheck))], []],
  ['nothing listed: returned is fine', [v2(call(0, result({ s: 'x' }), returned))], []],
  ['nothing listed: checked anyway', [v2(call(0, result({ s: 'x' }), byCheck))], ['schema-consistency:v2:rejected-unlisted:unlisted']],
  ['a reconnect forgets the listing', [v1(listed(0, tool(schemaN)), connected, call(2, result({ s: 'x' }), byCheck))], ['schema-consistency:v1:rejected-unlisted:unlisted']],
  ['a listing without outputSchema: checked anyway', [v1(listed(0, tool()), call(1, result({ s: 'x' }), byCheck))], ['schema-consistency:v1:rejected-unlisted:plain']],
  ['the handed definition counts over the listing', [v2(listed(0, tool(schemaS)), call(1, result({ n: 1 }), byCheck, tool(schemaN)))], ['schema-consistency:v2:rejected-conforming:definition']],
  ['an error result makes no schema claim', [v1(listed(0, tool(schemaN)), call(1, result({ s: 'x' }, true), returned))], []],
  ['two definitions of one name in one listing: no claim', [v1(listed(0, tool(schemaN), tool(schemaS)), call(1, result({ s: 'x' }), returned))], []],
  ['one name redefined on a later step: the later counts', [v1(listed(0, tool(schemaN)), listed(1, tool(schemaS)), call(2, result({ n: 1 }), returned))], ['schema-consistency:v1:returned-nonconforming:plain']],
  [
    'what happened since the listing: list_changed',
    [v2(listed(0, tool(schemaN)), { event: 'changed', step: 1, tool: 'alpha', notified: true }, call(2, result({ s: 'x' }), returned))],
    ['schema-consistency:v2:returned-nonconforming:plain+list-changed'],
  ],
  [
    'what happened since the listing: a silent change, then a failed listing',
    [v1(listed(0, tool(schemaN)), { event: 'changed', step: 1, tool: 'alpha', notified: false }, { event: 'list-refused', step: 2 }, call(3, result({ n: 1 }), byCheck))],
    ['schema-consistency:v1:rejected-conforming:plain+silent-change+failed-listing'],
  ],
  [
    'a listing by page',
    [v2({ event: 'listed', step: 0, via: 'page', tools: [tool(schemaN)] }, call(1, result({ s: 'x' }), returned))],
    ['schema-consistency:v2:returned-nonconforming:page'],
  ],
  ['differential: an error result', [v1(call(0, result({ s: 'x' }, true), byCheck)), v2(call(0, result({ s: 'x' }, true), returned))], ['differential:v1+v2:error,sc:rejected(client-output-schema)/returned']],
  [
    'differential: same call, settled differently',
    [v1(call(0, result({ s: 'x' }), returned)), v2(call(0, result({ s: 'x' }), { outcome: 'stalled' }))],
    ['no-silent-crash:v2:stalled-call', 'differential:v1+v2:success,sc:returned/stalled'],
  ],
  ['differential: same settlement', [v1(call(0, result({ n: 1 }), returned)), v2(call(0, result({ n: 1 }), returned))], []],
  // {n:1} does not conform to the handed schemaS, so v2's rejection is right; v1 made another call (no definition).
  ['differential: v2 handed a definition is not the same call', [v1(call(0, result({ n: 1 }), returned)), v2(call(0, result({ n: 1 }), byCheck, tool(schemaS)))], []],
  ['the handed definition: a conforming result rejected', [v2(call(0, result({ s: 'x' }), byCheck, tool(schemaS)))], ['schema-consistency:v2:rejected-conforming:definition']],
  ['differential: rejected by different parts', [v1(call(0, result({ n: 1 }), byParse)), v2(call(0, result({ n: 1 }), byCheck))], ['schema-consistency:v2:rejected-unlisted:unlisted', 'differential:v1+v2:success,sc:rejected(client-result-parse)/rejected(client-output-schema)']],
  ['a refused listing that throws is its answer', [v1({ event: 'list-refused', step: 0 }, { event: 'action-failed', step: 0, action: 'list:plain', refused: true, error: { name: 'McpError', code: -32603, message: 'x' } })], []],
  ['an unprovoked throw', [v1({ event: 'action-failed', step: 0, action: 'list:plain', refused: false, error: { name: 'TypeError', code: null, message: 'x' } })], ['no-silent-crash:v1:threw:list:plain']],
  ['an action that never settled', [v2({ event: 'action-failed', step: 0, action: 'reconnect', refused: false })], ['no-silent-crash:v2:stalled:reconnect']],
  ['an unhandled rejection', [v2({ event: 'uncaught', step: 1, error: { name: 'Error', code: null, message: 'x' } })], ['no-silent-crash:v2:uncaught']],
];

describe('explore oracles', () => {
  it.each(table)('%s', (_name, traces, classes) => {
    expect(checkTraces(traces).map(violationClass)).toEqual(classes);
  });
});
