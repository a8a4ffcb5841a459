// The suite's one run of the pinned clients (audit + extended matrix, made by test/global-setup.ts), and
// one matrix's part of it.
import { inject } from 'vitest';
import type { Environment, Expected, Matrix, ResultFile } from '../../probe/core/domain.ts';
import { judge } from '../../probe/core/judge.ts';

export function pinnedRun() {
  return inject('pinnedRun');
}

/** One built-in matrix's result from the pinned run (a fresh copy); with `environment`, that block instead of this machine's. */
export function pinnedPart(matrix: Matrix, environment?: Environment): ResultFile {
  const { results } = pinnedRun();
  const result = matrix.name === 'audit' ? results.audit : matrix.name === 'extended' ? results.extended : undefined;
  if (!result) throw new Error(`pinnedPart: the pinned run has no matrix ${matrix.name}`);
  return structuredClone(environment ? { ...result, environment } : result);
}

function summary(cases: ResultFile['cases']): ResultFile['summary'] {
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  const failed = cases.filter((c) => c.verdict === 'fail').length;
  const unjudged = cases.length - passed - failed;
  return unjudged > 0 ? { passed, failed, unjudged } : { passed, failed };
}

/** The same observations judged against other expectations (what runMatrix gives for those expectations). */
export function rejudged(result: ResultFile, expectations: Record<string, Expected>): ResultFile {
  const cases = result.cases.map((record) => {
    const expected = expectations[record.id];
    return expected ? { ...record, expected, ...judge(expected, record.observed) } : record;
  });
  return { ...result, cases, summary: summary(cases) };
}
