// Sweep outputs: the result JSON (canonical, like the audit's), NDJSON (one record per release × case,
// then the change points, behaviour first, and a summary counting each kind), and the baseline file.
import { z } from 'zod';
import { CaseRecordSchema } from '../core/domain.ts';
import { ReleaseIdentitySchema } from '../core/release.ts';
import { inSchemaOrder, jsonText, orderCaseRecord, orderEnvironment, sortKeys } from '../io/json-files.ts';
import type { SweepBaseline } from './gates.ts';
import { ChangePointObjectSchema, countChangePoints, ReleaseRunSchema, SweepResultSchema, type ReleaseRun, type SweepResult, withChangeKind } from './model.ts';

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
  return `${jsonText(ordered, 2)}\n`;
}

const FailedRunSchema = ReleaseRunSchema.options[1];
const NdjsonCaseSchema = z.object({ type: z.literal('case'), release: ReleaseIdentitySchema, case: CaseRecordSchema }).strict();
const NdjsonFailedSchema = z
  .object({ type: z.literal('release-failed'), release: ReleaseIdentitySchema, stage: FailedRunSchema.shape.stage, error: FailedRunSchema.shape.error })
  .strict();
const NdjsonChangePointSchema = z.object({ type: z.literal('change-point'), ...ChangePointObjectSchema.shape }).strict();
const NdjsonSummarySchema = z
  .object({
    type: z.literal('summary'),
    request: SweepResultSchema.shape.request,
    environment: SweepResultSchema.shape.environment,
    ...SweepResultSchema.shape.summary.shape,
    /** The change points by kind (issue 21): behaviour first, identity (the error's class name) apart. */
    behaviourChangePoints: z.number().int().nonnegative(),
    identityChangePoints: z.number().int().nonnegative(),
  })
  .strict();

/**
 * `sweep --ndjson`, one JSON object a line: per release, a `case` line per case it ran (the release's
 * identity and the case record, as in the result JSON) or one `release-failed` line; then a `change-point`
 * line per change point and one `summary` line. Each line's keys are in its schema's order.
 */
// A change-point line of a stream written before change points were classified gets its kind (withChangeKind).
export const SweepNdjsonLineSchema = z.preprocess(
  (line) => (typeof line === 'object' && line !== null && (line as { type?: unknown }).type === 'change-point' ? withChangeKind(line) : line),
  z.discriminatedUnion('type', [NdjsonCaseSchema, NdjsonFailedSchema, NdjsonChangePointSchema, NdjsonSummarySchema]),
);

const line = (schema: z.ZodObject, value: object, field?: (key: string, value: unknown) => unknown) => `${jsonText(inSchemaOrder(schema, value, field))}\n`;

/** The NDJSON lines of one release (printed as the sweep goes, in plan order). */
export function ndjsonReleaseLines(run: ReleaseRun): string {
  if (run.status === 'failed') {
    return line(NdjsonFailedSchema, { type: 'release-failed', release: run.release, stage: run.stage, error: run.error } satisfies z.infer<typeof NdjsonFailedSchema>);
  }
  return run.cases
    .map((record) =>
      line(NdjsonCaseSchema, { type: 'case', release: run.release, case: record } satisfies z.infer<typeof NdjsonCaseSchema>, (key, value) =>
        key === 'case' ? orderCaseRecord(record) : key === 'release' ? inSchemaOrder(ReleaseIdentitySchema, run.release) : value,
      ),
    )
    .join('');
}

/** The NDJSON lines after the releases: the change points and the summary. */
export function ndjsonTail(result: SweepResult): string {
  const points = result.changePoints.map((point) =>
    line(NdjsonChangePointSchema, { type: 'change-point', ...point } satisfies z.infer<typeof NdjsonChangePointSchema>, (key, value) =>
      key === 'before' || key === 'after' ? sortKeys(value) : value,
    ),
  );
  const summary = line(NdjsonSummarySchema, { type: 'summary', request: result.request, environment: result.environment, ...result.summary, ...countChangePoints(result.changePoints) } satisfies z.infer<typeof NdjsonSummarySchema>, (key, value) =>
    key === 'environment' ? orderEnvironment(result.environment) : key === 'request' ? inSchemaOrder(SweepResultSchema.shape.request, result.request) : value,
  );
  return [...points, summary].join('');
}

export function sweepToNdjson(result: SweepResult): string {
  return result.releases.map(ndjsonReleaseLines).join('') + ndjsonTail(result);
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
  return `${jsonText(ordered, 2)}\n`;
}
