// The library API (probe/api/index.ts, the package's main export) from the checkout: the same runs the
// CLI makes, nothing written. test/releases/pack.test.ts uses it from the packed, installed package and
// typechecks a consumer against the shipped declarations.
import { describe, expect, it } from 'vitest';
import { compareWithShipped, recordedResult, renderJunit, renderTerminalReport, replay, runMatrix, serializeResult } from '../probe/api/index.ts';
import { pinnedRun } from './helpers/pinned-run.ts';

describe('the library API', () => {
  it('compares a run with the recorded result shipped for its matrix: the pinned audit matches all 13', () => {
    const comparison = compareWithShipped('audit', pinnedRun().results.audit);
    expect(comparison.recorded).toBe('found');
    expect(comparison.counts.matched).toBe(13);
    expect(recordedResult('extended').cases.length).toBe(pinnedRun().results.extended.cases.length);
  });

  it('replays a { tool, result } to every client line and discovery mode, judged by --expect words', async () => {
    const result = await replay(
      { name: 'Empty error', tool: { name: 't', inputSchema: { type: 'object' } }, result: { content: [], isError: true } },
      { runIn: 'in-process', expect: ['v1/*=returned', 'v2/*=returned'] },
    );
    // Every line by default, as the replay command: the SDK clients, the AI SDK's four ways, LangChain's tool.
    expect(result.cases.map((c) => c.id)).toEqual([
      'v1/warm/empty-error',
      'v1/cold/empty-error',
      'v2/warm/empty-error',
      'v2/cold/empty-error',
      'ai-sdk/warm/empty-error',
      'ai-sdk/cold/empty-error',
      'ai-sdk/tools-automatic/empty-error',
      'ai-sdk/tools-with-schemas/empty-error',
      'langchain/load-tools/empty-error',
    ]);
    expect(result.summary).toEqual({ passed: 4, failed: 0, unjudged: 5 });
    expect(renderTerminalReport({ result, comparison: undefined, recordedPath: '', updatedRecorded: false, writtenPath: undefined })).toContain('4 passed, 0 failed, 5 unjudged');
    expect(renderJunit(result)).toContain('<testsuite');
    expect(JSON.parse(serializeResult(result)).matrix.name).toBe('replay');
  });

  it('runs a built-in matrix in the case pool, selected by case patterns', async () => {
    const result = await runMatrix('audit', { cases: ['v1/cold/*'] });
    expect(result.cases.map((c) => c.id)).toEqual(pinnedRun().results.audit.cases.filter((c) => c.id.startsWith('v1/cold/')).map((c) => c.id));
    expect(result.summary.failed).toBe(0);
  });

  it('rejects what the CLI would reject: an unknown matrix, a pattern matching nothing, a malformed tool', async () => {
    await expect(runMatrix('everything' as 'audit')).rejects.toThrow(/expected one of audit, extended/);
    await expect(runMatrix('audit', { cases: ['nothing-like-this'] })).rejects.toThrow(/cases: nothing-like-this matches no case of audit/);
    // Every pattern must select something, and none may be empty (a typo would narrow the run silently).
    await expect(runMatrix('audit', { cases: ['v1', 'nothing-like-this'] })).rejects.toThrow(/cases: nothing-like-this matches no case of audit/);
    await expect(runMatrix('audit', { cases: [''] })).rejects.toThrow(/cases: '': an empty pattern/);
    // A limit Node's timers cannot keep would make every case a 1 ms timeout.
    await expect(runMatrix('audit', { timeoutMs: 2 ** 31 })).rejects.toThrow(/timeoutMs: a whole number of milliseconds from 1 to 2147483647, got 2147483648/);
    await expect(runMatrix('audit', { jobs: 0 })).rejects.toThrow(/jobs: a whole number above 0, got 0/);
    await expect(replay({ tool: { name: 7 } as never, result: {} })).rejects.toThrow(/replay: tool: name/);
    await expect(replay({ tool: { name: 't', inputSchema: { type: 'object' } }, result: {} }, { clients: ['v3' as 'v1'] })).rejects.toThrow(/replay: clients: "v3" is not a client line/);
  });
});
