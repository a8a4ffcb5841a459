// Issue 10, memory flat: the audit keeps no case records; its result file is assembled at the end from the
// run journal, record after record, through the one writer. These tests hold the streamed bytes to the
// whole-result serialization (and both to an independent reference of the canonical form), and the
// writer to its promise that a write that fails midway leaves the target as it was.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CaseRecordSchema, type CaseRecord, type ResultFile } from '../probe/core/domain.ts';
import { writeFileAtomic } from '../probe/io/files.ts';
import { openJournal } from '../probe/io/journal.ts';
import { orderCaseRecord, orderEnvironment, parseResultText, serializeResult, serializeResultPieces } from '../probe/io/json-files.ts';
import { ROOT } from './helpers/cli.ts';

/** The canonical form written out longhand: one JSON.stringify of the whole, ordered object. */
function reference(result: ResultFile): string {
  const ordered = {
    schemaVersion: result.schemaVersion,
    matrix: { name: result.matrix.name, title: result.matrix.title, source: result.matrix.source },
    environment: orderEnvironment(result.environment),
    summary: result.summary,
    ...(result.lint !== undefined && { lint: result.lint }),
    cases: result.cases.map(orderCaseRecord),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

function recorded(name: string): ResultFile {
  const path = join(ROOT, 'results', name);
  return parseResultText(readFileSync(path, 'utf8'), path);
}

/** A record whose free JSON is awkward for a line-based indenter: newlines, quotes, unicode, nesting. */
function awkward(record: CaseRecord): CaseRecord {
  return CaseRecordSchema.parse({
    ...record,
    id: `${record.id}-awkward`,
    result: { content: [{ type: 'text', text: 'line 1\nline 2\t"quoted" \\ é 😀' }], structuredContent: { z: [1, [2, { y: null }]], a: '' } },
  });
}

describe('streamed result assembly', () => {
  for (const name of ['recorded.json', 'recorded-extended.json']) {
    it(`gives the bytes of the whole-result serialization and of results/${name}`, () => {
      const result = recorded(name);
      const { cases, ...header } = result;
      const streamed = [...serializeResultPieces(header, cases)].join('');
      expect(streamed).toBe(reference(result));
      expect(streamed).toBe(serializeResult(result));
      // The recorded files were written whole, before streaming existed.
      expect(streamed).toBe(readFileSync(join(ROOT, 'results', name), 'utf8'));
    });
  }

  it('gives the same bytes for no cases, one case, and payloads with newlines and quotes', () => {
    const result = recorded('recorded.json');
    for (const cases of [[], [result.cases[0]!], [awkward(result.cases[0]!), result.cases[1]!]]) {
      const variant = { ...result, cases };
      const { cases: records, ...header } = variant;
      expect([...serializeResultPieces(header, records)].join('')).toBe(reference(variant));
    }
  });

  it('assembles from a journal written in another order (and continued by --resume) the bytes of the whole result', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-stream-'));
    const path = join(dir, 'result.json.journal.ndjson');
    const result = recorded('recorded-extended.json');
    const records = [...result.cases.slice(0, 40), awkward(result.cases[0]!)];
    // Cases finish out of order in the pool: the journal has them as they finished.
    const finished = [...records].reverse();
    const journal = openJournal(path, 'run', false);
    for (const record of finished.slice(0, 20)) journal.append(record, null);
    // An interrupted run, continued: the new journal object indexes what the first one wrote.
    const continued = openJournal(path, 'run', true);
    for (const record of finished.slice(20)) continued.append(record, null);
    const { cases: _cases, ...header } = result;
    const streamed = [...serializeResultPieces(header, continued.records(records.map((r) => r.id)))].join('');
    expect(streamed).toBe(serializeResult({ ...header, cases: records }));
    // Asking for a case the journal does not have is a programming error, never a shorter file.
    expect(() => [...continued.records(['v1/warm/not-run'])]).toThrow(/no record of case v1\/warm\/not-run/);
    continued.finish();
  });
});

describe('the one writer, fed in pieces', () => {
  it('writes the pieces one after another', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-stream-'));
    const target = join(dir, 'out.json');
    writeFileAtomic(target, ['{', '"a": ', '"é"', '}\n']);
    expect(readFileSync(target, 'utf8')).toBe('{"a": "é"}\n');
  });

  it('leaves the target as it was, and no temporary file, when a piece cannot be made midway', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-stream-'));
    const target = join(dir, 'result.json');
    writeFileSync(target, 'the previous result\n');
    function* pieces() {
      yield 'the start of a new result';
      throw new Error('journal: the line of case x is cut short');
    }
    expect(() => writeFileAtomic(target, pieces())).toThrow(/cut short/);
    expect(readFileSync(target, 'utf8')).toBe('the previous result\n');
    expect(readdirSync(dir)).toEqual(['result.json']);
  });
});
