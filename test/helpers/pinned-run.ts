// The suite's one run of the pinned clients (audit + extended matrix, made by test/global-setup.ts), and
// one matrix's part of it as the result that matrix alone gives (the split `--matrix all` makes).
import { inject } from 'vitest';
import { resultFor } from '../../probe/commands/audit.ts';
import type { Environment, Expected, Matrix, ResultFile } from '../../probe/core/domain.ts';
import { judge } from '../../probe/core/judge.ts';

export function pinnedRun() {
  return inject('pinnedRun');
}

/** One matrix's part of the pinned run (a fresh copy); with `environment`, that block instead of this machine's. */
export function pinnedPart(matrix: Matrix, environment?: Environment): ResultFile {
  const part = structuredClone(resultFor(pinnedRun().result, matrix, new Set(matrix.scenarios.map((s) => s.id))));
  return environment ? { ...part, environment } : part;
}

/** The same observations judged against other expectations (what runMatrix gives for those expectations). */
export function rejudged(result: ResultFile, expectations: Record<string, Expected>): ResultFile {
  const cases = result.cases.map((record) => {
    const expected = expectations[record.id];
    return expected ? { ...record, expected, ...judge(expected, record.observed) } : record;
  });
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  const failed = cases.filter((c) => c.verdict === 'fail').length;
  const unjudged = cases.length - passed - failed;
  return { ...result, cases, summary: unjudged > 0 ? { passed, failed, unjudged } : { passed, failed } };
}
