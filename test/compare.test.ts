import { describe, expect, it } from 'vitest';
import { compareWithRecorded, differsFromRecorded, type ComparisonKind } from '../probe/core/compare.ts';
import type { CaseRecord } from '../probe/core/domain.ts';
import { caseRecord, resultFile } from './fixtures.ts';

const a = caseRecord('v1/warm/a');
const b = caseRecord('v1/warm/b');
const bRejected = caseRecord('v1/warm/b', { outcome: 'rejected', error: { name: 'McpError', code: -32602, message: 'm' } } as never);

// [name, recorded cases (undefined: no recorded file), current cases, full matrix?, expected kinds by id, differs?]
const table: [string, CaseRecord[] | undefined, CaseRecord[], boolean, Record<string, ComparisonKind>, boolean][] = [
  ['identical', [a, b], [a, b], true, { 'v1/warm/a': 'matched', 'v1/warm/b': 'matched' }, false],
  ['order does not matter', [b, a], [a, b], true, { 'v1/warm/a': 'matched', 'v1/warm/b': 'matched' }, false],
  ['observation changed', [a, b], [a, bRejected], true, { 'v1/warm/a': 'matched', 'v1/warm/b': 'changed' }, true],
  ['new case', [a], [a, b], true, { 'v1/warm/a': 'matched', 'v1/warm/b': 'new' }, true],
  ['stale record in a full run', [a, b], [a], true, { 'v1/warm/a': 'matched', 'v1/warm/b': 'stale' }, true],
  ['unselected record in a filtered run', [a, b], [a], false, { 'v1/warm/a': 'matched', 'v1/warm/b': 'unchecked' }, false],
  ['no recorded file', undefined, [a], true, { 'v1/warm/a': 'new' }, true],
  ['client package changed', [a], [caseRecord('v1/warm/a', {}, { clientPackage: '@modelcontextprotocol/sdk@1.33.0' })], true, { 'v1/warm/a': 'changed' }, true],
  ['expectation changed', [a], [caseRecord('v1/warm/a', {}, { expected: { outcome: 'rejected', code: -32602 } })], true, { 'v1/warm/a': 'changed' }, true],
  ['sent result changed', [a], [caseRecord('v1/warm/a', {}, { result: { content: [], isError: true } })], true, { 'v1/warm/a': 'changed' }, true],
  // The environment block is where a run happened, not what it observed.
  ['verdict and mismatches alone are derived, not compared', [a], [caseRecord('v1/warm/a', {}, { verdict: 'fail' })], true, { 'v1/warm/a': 'matched' }, false],
];

describe('compareWithRecorded', () => {
  it.each(table)('%s', (_name, recorded, current, fullMatrix, kinds, differs) => {
    const comparison = compareWithRecorded(recorded && resultFile(recorded), resultFile(current), { fullMatrix });
    expect(Object.fromEntries(comparison.entries.map((e) => [e.id, e.kind]))).toEqual(kinds);
    expect(differsFromRecorded(comparison)).toBe(differs);
    const total = Object.values(comparison.counts).reduce((sum, n) => sum + n, 0);
    expect(total).toBe(comparison.entries.length);
  });

  it('names the changed fields with the before and after records', () => {
    const comparison = compareWithRecorded(resultFile([b]), resultFile([bRejected]), { fullMatrix: true });
    const [entry] = comparison.entries;
    expect(entry).toMatchObject({ kind: 'changed', fields: ['observed'], before: b, after: bRejected });
  });

  // Issue 21: an installed package's sweep failed on integrity null (no lockfile). The audit's comparison
  // has no such gate: integrity lives in the environment block, which it does not compare.
  it('does not compare integrity: known in the recorded result, unknown in this run (no lockfile), it still matches', () => {
    const recorded = { ...resultFile([a]), environment: { ...resultFile([a]).environment, integrity: { '@modelcontextprotocol/sdk': 'sha512-AAAA' } } };
    const current = resultFile([a]);
    expect(current.environment.integrity).toBeUndefined();
    const comparison = compareWithRecorded(recorded, current, { fullMatrix: true });
    expect(comparison.counts.matched).toBe(1);
    expect(differsFromRecorded(comparison)).toBe(false);
  });

  it('ignores the environment block', () => {
    const recorded = resultFile([a]);
    const current = { ...resultFile([a]), environment: { ...recorded.environment, node: 'v99' } };
    expect(compareWithRecorded(recorded, current, { fullMatrix: true }).counts.matched).toBe(1);
  });
});
