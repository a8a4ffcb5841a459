// Issue 21 item 5, the audit side: a changed case is classified behaviour or identity, and the recorded
// comparison fails a run on behaviour only unless identity is asked for (--gate-identity). Expectations are
// written here row by row, independently of the table in probe/core/compare.ts.
import { describe, expect, it } from 'vitest';
import { compareWithRecorded, differsFromRecorded, type CaseComparison } from '../probe/core/compare.ts';
import type { CaseRecord, Observation } from '../probe/core/domain.ts';
import { exitCodeFor } from '../probe/core/exit-code.ts';
import { caseRecord, resultFile } from './fixtures.ts';

const ID = 'v1/warm/a';
const rejected: Observation = {
  outcome: 'rejected',
  error: { name: 'McpError', code: -32602, message: "MCP error -32602: data must have required property 'value'" },
  by: 'client',
  serverSent: 'as-scenario',
};
const recordedRejected = caseRecord(ID, rejected, { expected: { outcome: 'rejected', code: -32602 } });
const withObserved = (observed: Partial<Observation>, fields: Partial<CaseRecord> = {}) =>
  caseRecord(ID, { ...rejected, ...observed } as Observation, { expected: { outcome: 'rejected', code: -32602 }, ...fields });
const errorWith = (error: Partial<Extract<Observation, { outcome: 'rejected' }>['error']>) => ({ error: { ...rejected.error, ...error } });

const returned: Observation = { outcome: 'returned', isError: true, content: [{ type: 'text', text: 'x' }], structuredContent: { value: 1 }, serverSent: 'as-scenario' };
const recordedReturned = caseRecord(ID, returned);
const crashed: Observation = { outcome: 'crashed', stage: 'connect', error: { name: 'Error', code: null, message: 'Unexpected token } in JSON at position 7' }, serverSent: 'nothing' };
const recordedCrashed = caseRecord(ID, crashed);

// [name, recorded case, case now, expected kind]: one row per field that flips the classification.
const table: [string, CaseRecord, CaseRecord, 'behaviour' | 'identity'][] = [
  ['the error message only (wording of another release, or of another Node)', recordedRejected, withObserved(errorWith({ message: 'MCP error -32602: data should NOT have additional properties' })), 'identity'],
  ['the error class name only (ZodError → $ZodError)', recordedRejected, withObserved(errorWith({ name: '$ZodError' })), 'identity'],
  ['the class name and the message', recordedRejected, withObserved(errorWith({ name: 'ProtocolError', message: 'other' })), 'identity'],
  ['a crash: its message only', recordedCrashed, caseRecord(ID, { ...crashed, error: { ...crashed.error, message: 'Expected property name or \'}\' in JSON at position 7' } } as Observation), 'identity'],
  ['the error code', recordedRejected, withObserved(errorWith({ code: -32600 })), 'behaviour'],
  ['the error code and the message', recordedRejected, withObserved(errorWith({ code: -32600, message: 'other' })), 'behaviour'],
  ['the error code becomes null (a plain Error)', recordedRejected, withObserved(errorWith({ code: null, name: 'Error' })), 'behaviour'],
  ['who rejected (by)', recordedRejected, withObserved({ ...errorWith({ message: 'other' }), by: 'server' } as Partial<Observation>), 'behaviour'],
  ['what the server sent', recordedRejected, withObserved({ serverSent: { altered: { content: [] } } }), 'behaviour'],
  ['what the server sent: its error message only', caseRecord(ID, { ...rejected, serverSent: { error: { code: -32603, message: 'a' } } } as Observation), caseRecord(ID, { ...rejected, serverSent: { error: { code: -32603, message: 'b' } } } as Observation), 'behaviour'],
  ['a dropped key', recordedRejected, withObserved({ dropped: [{ path: ['structuredContent'], by: 'client' }] } as Partial<Observation>), 'behaviour'],
  ['the outcome (rejected → returned)', recordedRejected, caseRecord(ID, returned, { expected: { outcome: 'rejected', code: -32602 } }), 'behaviour'],
  ['isError', recordedReturned, caseRecord(ID, { ...returned, isError: false } as Observation), 'behaviour'],
  ['structuredContent (what the application is handed)', recordedReturned, caseRecord(ID, { ...returned, structuredContent: { value: 2 } } as Observation), 'behaviour'],
  ['content', recordedReturned, caseRecord(ID, { ...returned, content: [] } as Observation), 'behaviour'],
  ['another key handed back (_meta)', recordedReturned, caseRecord(ID, { ...returned, otherKeys: { _meta: {} } } as Observation), 'behaviour'],
  ['the stage of a crash', recordedCrashed, caseRecord(ID, { ...crashed, stage: 'discover' } as Observation), 'behaviour'],
  ['a timeout: its time', caseRecord(ID, { outcome: 'timeout', stage: 'call', afterMs: 100, serverSent: 'nothing' } as Observation), caseRecord(ID, { outcome: 'timeout', stage: 'call', afterMs: 200, serverSent: 'nothing' } as Observation), 'behaviour'],
  ['the expectation, beside a reworded message', recordedRejected, withObserved(errorWith({ message: 'other' }), { expected: { outcome: 'rejected', code: -32600 } }), 'behaviour'],
  ['the result the server was given', recordedRejected, withObserved(errorWith({ message: 'other' }), { result: { content: [], isError: true } }), 'behaviour'],
  ['the tool', recordedRejected, withObserved({}, { tool: { name: 'other', inputSchema: { type: 'object' } } }), 'behaviour'],
  ['the client package (not ignored)', recordedRejected, withObserved(errorWith({ message: 'other' }), { clientPackage: '@modelcontextprotocol/sdk@1.20.0' }), 'behaviour'],
];

function changedEntry(before: CaseRecord, after: CaseRecord): Extract<CaseComparison, { kind: 'changed' }> {
  const [entry] = compareWithRecorded(resultFile([before]), resultFile([after]), { fullMatrix: true }).entries;
  if (entry?.kind !== 'changed') throw new Error(`expected a changed entry, got ${entry?.kind}`);
  return entry;
}

describe('a changed case is behaviour or identity', () => {
  it.each(table)('%s → %s', (_name, before, after, kind) => {
    expect(changedEntry(before, after).changeKind).toBe(kind);
  });

  it('an ignored field does not count: another release with a reworded message is identity', () => {
    const after = withObserved(errorWith({ message: 'other' }), { clientPackage: '@modelcontextprotocol/sdk@1.20.0' });
    const comparison = compareWithRecorded(resultFile([recordedRejected]), resultFile([after]), { fullMatrix: true, ignore: ['clientPackage'] });
    expect(comparison.entries[0]).toMatchObject({ kind: 'changed', fields: ['observed'], changeKind: 'identity' });
  });

  it('counts changed cases by kind, and combined comparisons add them up', async () => {
    const { combineComparisons } = await import('../probe/core/compare.ts');
    const b = caseRecord('v1/warm/b', rejected, { expected: { outcome: 'rejected', code: -32602 } });
    const bReworded = caseRecord('v1/warm/b', { ...rejected, ...errorWith({ message: 'other' }) } as Observation, { expected: { outcome: 'rejected', code: -32602 } });
    const one = compareWithRecorded(resultFile([recordedRejected, b]), resultFile([withObserved(errorWith({ code: 1 })), bReworded]), { fullMatrix: true });
    expect(one.counts.changed).toBe(2);
    expect(one.changedByKind).toEqual({ behaviour: 1, identity: 1 });
    expect(combineComparisons([one, one]).changedByKind).toEqual({ behaviour: 2, identity: 2 });
  });
});

describe('the recorded comparison fails on behaviour; on identity only with gateIdentity', () => {
  const reworded = withObserved(errorWith({ message: 'data should NOT have additional properties' }));
  const recoded = withObserved(errorWith({ code: -32600 }));
  // [name, recorded, now, --update, gateIdentity, exit code]
  const exits: [string, CaseRecord[], CaseRecord[], boolean, boolean, 0 | 1][] = [
    ['identity only', [recordedRejected], [reworded], false, false, 0],
    ['identity only, --gate-identity', [recordedRejected], [reworded], false, true, 1],
    ['behaviour', [recordedRejected], [recoded], false, false, 1],
    ['behaviour, --gate-identity', [recordedRejected], [recoded], false, true, 1],
    ['identity and a new case', [recordedRejected], [reworded, caseRecord('v1/warm/new')], false, false, 1],
    ['identity and a stale record', [recordedRejected, caseRecord('v1/warm/gone')], [reworded], false, false, 1],
    ['identity, --update, --gate-identity', [recordedRejected], [reworded], true, true, 0],
  ];
  it.each(exits)('%s → %i', (_name, recorded, now, updatedRecorded, gateIdentity, code) => {
    const result = resultFile(now);
    const comparison = compareWithRecorded(resultFile(recorded), result, { fullMatrix: true });
    expect(differsFromRecorded(comparison, { gateIdentity })).toBe(updatedRecorded || code === 1);
    expect(exitCodeFor({ result, comparison, updatedRecorded, gateIdentity })).toBe(code);
  });
});
