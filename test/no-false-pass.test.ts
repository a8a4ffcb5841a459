// No false pass: for every case of the audit and the extended matrix, a contrary expectation, and a
// perturbed observation, each make the judge fail that case, the run exit 1 and the report name it. And
// an in-memory matrix opens no socket; the loopback transport family binds and connects to 127.0.0.1 only.
import { describe, expect, it } from 'vitest';
import type { CaseRecord, Expected, Observation, ResultFile } from '../probe/core/domain.ts';
import { exitCodeFor } from '../probe/core/exit-code.ts';
import { judge } from '../probe/core/judge.ts';
import { renderTerminalReport } from '../probe/render/terminal.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';
import { pinnedPart, pinnedRun } from './helpers/pinned-run.ts';

/** An expectation no observation of this outcome can meet. */
function contrary(observed: Observation): Expected {
  switch (observed.outcome) {
    case 'returned':
      return { outcome: 'rejected' };
    case 'rejected':
      return { outcome: 'returned', isError: true };
    case 'timeout':
      return { outcome: 'returned', isError: false };
    case 'crashed':
      return { outcome: 'timeout' };
  }
}

/** The same observation with one fact the judge reads changed. */
function perturbed(observed: Observation): Observation {
  switch (observed.outcome) {
    case 'returned':
      return { ...observed, isError: observed.isError !== true };
    case 'rejected':
      return { ...observed, error: { ...observed.error, code: observed.error.code === -1 ? -2 : -1, name: `${observed.error.name}X` } };
    case 'timeout':
      return { outcome: 'returned', isError: false, serverSent: observed.serverSent };
    case 'crashed':
      return { ...observed, stage: observed.stage === 'connect' ? 'call' : 'connect', error: { ...observed.error, name: `${observed.error.name}X` } };
  }
}

function withCase(result: ResultFile, record: CaseRecord): ResultFile {
  const cases = result.cases.map((c) => (c.id === record.id ? record : c));
  const failed = cases.filter((c) => c.verdict === 'fail').length;
  return { ...result, cases, summary: { passed: cases.length - failed, failed } };
}

describe.each([
  ['audit', auditMatrix],
  ['extended', extendedMatrix],
] as const)('no false pass in the %s matrix', (_name, matrix) => {
  const result = pinnedPart(matrix);

  it('every case passed as recorded (so each flip below starts from a pass)', () => {
    expect(result.cases.filter((c) => c.verdict !== 'pass').map((c) => c.id)).toEqual([]);
    expect(result.cases).toHaveLength(matrix.scenarios.length);
  });

  it('a contrary expectation fails every case, and the run exits 1 naming it', () => {
    const survivors: string[] = [];
    for (const record of result.cases) {
      const expected = contrary(record.observed);
      const judged = judge(expected, record.observed);
      if (judged.verdict !== 'fail') survivors.push(record.id);
      const flipped = withCase(result, { ...record, expected, ...judged });
      if (exitCodeFor({ result: flipped, comparison: undefined, updatedRecorded: false }) !== 1) survivors.push(`${record.id} (exit code)`);
      const report = renderTerminalReport({ result: flipped, comparison: undefined, recordedPath: '', updatedRecorded: false, writtenPath: undefined });
      if (!report.includes(`✗ ${record.id}: expected`)) survivors.push(`${record.id} (report)`);
    }
    expect(survivors).toEqual([]);
  });

  it('a perturbed observation fails every case under its own expectation', () => {
    const survivors = result.cases.filter((record) => judge(record.expected, perturbed(record.observed)).verdict !== 'fail').map((r) => r.id);
    expect(survivors).toEqual([]);
  });
});

describe('sockets', () => {
  it('the in-memory audit opens no socket', () => {
    expect(pinnedRun().sockets.audit).toEqual([]);
  });

  it('the extended matrix listens and connects on 127.0.0.1 only, and does (the HTTP transport family)', () => {
    const { extended } = pinnedRun().sockets;
    expect(extended.length).toBeGreaterThan(0);
    expect(extended.filter((call) => !call.includes('127.0.0.1'))).toEqual([]);
  });
});
