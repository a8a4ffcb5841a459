import { describe, expect, it } from 'vitest';
import { compareWithRecorded } from '../probe/core/compare.ts';
import { exitCodeFor } from '../probe/core/exit-code.ts';
import { caseRecord, resultFile } from './fixtures.ts';

const passing = caseRecord('v1/warm/a');
const failing = caseRecord('v1/warm/a', {}, { verdict: 'fail', mismatches: [{ kind: 'isError', expected: true, observed: false }] });
const changed = caseRecord('v1/warm/a', { isError: true });

// [name, recorded, current, --update, exit code]
const table = [
  ['passes and matches', [passing], [passing], false, 0],
  ['a case fails', [failing], [failing], false, 1],
  ['differs from recorded', [passing], [changed], false, 1],
  ['no recorded result', undefined, [passing], false, 1],
  ['--update accepts a difference', [passing], [changed], true, 0],
  ['--update does not excuse a failure', [failing], [failing], true, 1],
] as const;

describe('exitCodeFor', () => {
  it.each(table)('%s → %i', (_name, recorded, current, updatedRecorded, code) => {
    const result = resultFile([...current]);
    const comparison = compareWithRecorded(recorded && resultFile([...recorded]), result, { fullMatrix: true });
    expect(exitCodeFor({ result, comparison, updatedRecorded })).toBe(code);
  });
});
