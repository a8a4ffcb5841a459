// The suite's one run of the pinned clients (audit + extended matrix, made by test/global-setup.ts), and
// one matrix's part of it.
import { inject } from 'vitest';
import type { Environment, Expected, Matrix, ResultFile } from '../../probe/core/domain.ts';
import { judge } from '../../probe/core/judge.ts';

export function pinnedRun() {
  return inject('pinnedRun');
}

/**
 * One matrix's part of the pinned run (a fresh copy): its name, its cases, their summary and the lint
 * findings of their shapes (a shape both matrices use is linted as the audit states it); with
 * `environment`, that block instead of this machine's.
 */
export function pinnedPart(matrix: Matrix, environment?: Environment): ResultFile {
  const run = pinnedRun().result;
  const ids = new Set(matrix.scenarios.map((s) => s.id));
  const cases = run.cases.filter((c) => ids.has(c.id));
  const shapes = new Set(cases.map((c) => c.shape));
  const part: ResultFile = {
    ...run,
    matrix: { name: matrix.name, title: matrix.title, source: matrix.source },
    ...(environment && { environment }),
    cases,
    summary: summary(cases),
    ...(run.lint && { lint: Object.fromEntries(Object.entries(run.lint).filter(([shape]) => shapes.has(shape))) }),
  };
  return structuredClone(part);
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
