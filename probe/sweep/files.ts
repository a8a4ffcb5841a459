// Sweep outputs: the result JSON (canonical, like the audit's), NDJSON (one record per release × case,
// then the change points), and the baseline file.
import { inSchemaOrder, orderCaseRecord, orderEnvironment, sortKeys } from '../io/json-files.ts';
import type { SweepBaseline } from './gates.ts';
import { SweepResultSchema, type ReleaseRun, type SweepResult } from './model.ts';

function orderRelease(run: ReleaseRun): unknown {
  return run.status === 'ran'
    ? { status: run.status, release: run.release, cases: run.cases.map(orderCaseRecord) }
    : { status: run.status, release: run.release, stage: run.stage, error: run.error };
}

export function serializeSweep(result: SweepResult): string {
  const ordered = inSchemaOrder(SweepResultSchema, result, (key, value) => {
    if (key === 'environment') return orderEnvironment(result.environment);
    if (key === 'changePoints') return sortKeys(value);
    if (key === 'releases') return result.releases.map(orderRelease);
    return value;
  });
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export function sweepToNdjson(result: SweepResult): string {
  const lines: unknown[] = [];
  for (const run of result.releases) {
    if (run.status === 'ran') for (const record of run.cases) lines.push({ type: 'case', release: run.release, case: orderCaseRecord(record) });
    else lines.push({ type: 'release-failed', release: run.release, stage: run.stage, error: run.error });
  }
  for (const point of result.changePoints) lines.push({ type: 'change-point', ...(sortKeys(point) as object) });
  lines.push({ type: 'summary', request: result.request, environment: result.environment, ...result.summary });
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

export function serializeBaseline(baseline: SweepBaseline): string {
  const ordered: { [K in keyof SweepBaseline]: unknown } = {
    schemaVersion: baseline.schemaVersion,
    kind: baseline.kind,
    matrix: baseline.matrix,
    side: baseline.side,
    releases: baseline.releases.map((entry) => ({
      release: entry.release,
      integrity: entry.integrity,
      status: entry.status,
      behaviours: sortKeys(entry.behaviours),
    })),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
