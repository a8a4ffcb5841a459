import { describe, expect, it } from 'vitest';
import type { Expected, MismatchKind, Observation } from '../probe/core/domain.ts';
import { judge } from '../probe/core/judge.ts';

const text = [{ type: 'text', text: 'x' }];
const returned = (fields: Partial<Extract<Observation, { outcome: 'returned' }>> = {}): Observation => ({
  outcome: 'returned',
  content: text,
  serverSent: 'as-scenario',
  ...fields,
});
const rejected = (code: number | string | null, name = 'McpError'): Observation => ({
  outcome: 'rejected',
  error: { name, code, message: 'm' },
  by: 'client-output-schema',
  serverSent: 'as-scenario',
});
const expectReturned = (fields: Partial<Extract<Expected, { outcome: 'returned' }>> = {}): Expected => ({
  outcome: 'returned',
  isError: false,
  ...fields,
});

// [name, expected, observed, mismatch kinds]
const table: [string, Expected, Observation, MismatchKind[]][] = [
  ['same code', { outcome: 'rejected', code: -32602 }, rejected(-32602), []],
  ['other code', { outcome: 'rejected', code: -32602 }, rejected(-32600), ['code']],
  ['string code matches', { outcome: 'rejected', code: 'REQUEST_TIMEOUT' }, rejected('REQUEST_TIMEOUT', 'SdkError'), []],
  ['number vs string code', { outcome: 'rejected', code: -32602 }, rejected('-32602'), ['code']],
  ['no code at all', { outcome: 'rejected', code: -32602 }, rejected(null, 'TypeError'), ['code']],
  ['returned where rejection expected', { outcome: 'rejected', code: -32602 }, returned(), ['outcome']],
  ['rejected where return expected', expectReturned(), rejected(-32602), ['outcome']],
  ['timeout where return expected', expectReturned(), { outcome: 'timeout', stage: 'call', afterMs: 10, serverSent: 'nothing' }, ['outcome']],
  [
    'crash where rejection expected',
    { outcome: 'rejected', code: -32602 },
    { outcome: 'crashed', stage: 'discover', error: { name: 'Error', code: null, message: 'boom' }, serverSent: 'nothing' },
    ['outcome'],
  ],
  ['plain success', expectReturned(), returned(), []],
  ['isError false equals absent', expectReturned({ isError: false }), returned({ isError: false }), []],
  ['isError expected, absent', expectReturned({ isError: true }), returned(), ['isError']],
  ['isError unexpected', expectReturned(), returned({ isError: true }), ['isError']],
  ['structured equal', expectReturned({ structuredContent: { value: 7 } }), returned({ structuredContent: { value: 7 } }), []],
  ['structured key order ignored', expectReturned({ structuredContent: { a: 1, b: 2 } }), returned({ structuredContent: { b: 2, a: 1 } }), []],
  ['structured differs', expectReturned({ structuredContent: { value: 7 } }), returned({ structuredContent: { value: 8 } }), ['structuredContent']],
  ['structured expected, absent', expectReturned({ structuredContent: { value: 7 } }), returned(), ['structuredContent']],
  ['structured absent expected, present', expectReturned(), returned({ structuredContent: { value: 7 } }), ['structuredContent']],
  ['null is not absent', expectReturned({ structuredContent: null }), returned(), ['structuredContent']],
  ['absent is not null', expectReturned(), returned({ structuredContent: null }), ['structuredContent']],
  ['0 is not false', expectReturned({ structuredContent: 0 }), returned({ structuredContent: false }), ['structuredContent']],
  ['content equal', expectReturned({ content: text }), returned(), []],
  ['content differs', expectReturned({ content: [{ type: 'text', text: 'y' }] }), returned(), ['content']],
  ['content unchecked when not expected', expectReturned(), returned({ content: [] }), []],
  // A line whose application value is not a CallToolResult (the AI SDK's validated output, LangChain's ToolMessage).
  ['other keys equal', expectReturned({ otherKeys: { output: { value: 7 } } }), returned({ otherKeys: { output: { value: 7 } } }), []],
  ['other keys differ', expectReturned({ otherKeys: { output: { value: 7 } } }), returned({ otherKeys: { output: { value: 8 } } }), ['otherKeys']],
  ['other keys expected, none observed', expectReturned({ otherKeys: { output: 7 } }), returned(), ['otherKeys']],
  ['other keys observed beyond the expected', expectReturned({ otherKeys: {} }), returned({ otherKeys: { _meta: {} } }), ['otherKeys']],
  ['other keys unchecked when not expected', expectReturned(), returned({ otherKeys: { _meta: {} } }), []],
  ['several at once', expectReturned({ isError: true, structuredContent: { value: 0 } }), returned(), ['isError', 'structuredContent']],
  ['any code when none is stated', { outcome: 'rejected' }, rejected(-32600), []],
  ['any code, even none', { outcome: 'rejected' }, rejected(null, 'TypeError'), []],
  ['no code stated still needs a rejection', { outcome: 'rejected' }, returned(), ['outcome']],
  ['sent as expected', { outcome: 'rejected', code: -32602, sent: 'error' }, { ...rejected(-32602), serverSent: { error: { code: -32602, message: 'm' } } } as Observation, []],
  ['sent otherwise than expected', { outcome: 'rejected', code: -32602, sent: 'error' }, rejected(-32602), ['sent']],
  ['a server error without a sent expectation', { outcome: 'rejected', code: -32602 }, { ...rejected(-32602), serverSent: { error: { code: -32602, message: 'm' } } } as Observation, ['fixture-altered']],
  ['rejected by the expected side', { outcome: 'rejected', code: -32602, by: 'client-output-schema' }, rejected(-32602), []],
  ['rejected by another side', { outcome: 'rejected', code: -32602, by: 'server' }, rejected(-32602), ['by']],
  ['a result parse error', { outcome: 'rejected', by: 'client-result-parse', name: '$ZodError' }, { ...rejected(null, '$ZodError'), by: 'client-result-parse' } as Observation, []],
  ['the transport where the client was expected', { outcome: 'rejected', by: 'client' }, { ...rejected(-32000), by: 'transport' } as Observation, ['by']],
  ['another error class', { outcome: 'rejected', name: 'SdkError' }, rejected(null, 'TypeError'), ['name']],
  ['timeout as expected', { outcome: 'timeout' }, { outcome: 'timeout', stage: 'call', afterMs: 10, serverSent: 'nothing' }, []],
  ['timeout expected, returned', { outcome: 'timeout' }, returned(), ['outcome']],
  ['crash in the expected stage', { outcome: 'crashed', stage: 'discover', name: 'SyntaxError' }, { outcome: 'crashed', stage: 'discover', error: { name: 'SyntaxError', code: null, message: 'm' }, serverSent: 'nothing' }, []],
  ['crash in another stage', { outcome: 'crashed', stage: 'discover' }, { outcome: 'crashed', stage: 'connect', error: { name: 'Error', code: null, message: 'm' }, serverSent: 'nothing' }, ['outcome']],
  ['altered by the fixture', expectReturned(), returned({ serverSent: { altered: { content: [] } } }), ['fixture-altered']],
  ['what went out is unknown (a stopped stdio thread): not taken for an alteration', { outcome: 'timeout' }, { outcome: 'timeout', stage: 'call', afterMs: 10, serverSent: 'unknown' }, []],
  ['what went out is unknown where the case states it went out unchanged', { outcome: 'timeout', sent: 'as-scenario' }, { outcome: 'timeout', stage: 'call', afterMs: 10, serverSent: 'unknown' }, ['sent']],
];

describe('judge', () => {
  it.each(table)('%s', (_name, expected, observed, kinds) => {
    const { verdict, mismatches } = judge(expected, observed);
    expect(mismatches.map((m) => m.kind)).toEqual(kinds);
    expect(verdict).toBe(kinds.length === 0 ? 'pass' : 'fail');
  });

  it('leaves a case with no expectation unjudged, whatever happened', () => {
    expect(judge(null, rejected(-32602))).toEqual({ verdict: 'unjudged', mismatches: [] });
    expect(judge(null, returned())).toEqual({ verdict: 'unjudged', mismatches: [] });
  });

  it('reports the expected and observed values of a mismatch', () => {
    expect(judge({ outcome: 'rejected', code: -32602 }, rejected(-32600)).mismatches).toEqual([
      { kind: 'code', expected: -32602, observed: -32600 },
    ]);
  });
});
