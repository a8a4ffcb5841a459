// The sweep's data: per release, what every case did; derived from that, change points. Schemas here
// because sweep results are read back from files (merge, baselines).
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import {
  CaseRecordSchema,
  EnvironmentSchema,
  ErrorInfoSchema,
  JsonValueSchema,
  type JsonValue,
  type Observation,
  type ServerSent,
} from '../core/domain.ts';
import { ReleaseIdentitySchema, sideOf, type Side } from '../core/release.ts';

export const ReleaseRunSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('ran'), release: ReleaseIdentitySchema, cases: z.array(CaseRecordSchema) }).strict(),
  z
    .object({
      status: z.literal('failed'),
      release: ReleaseIdentitySchema,
      // load: the client module would not load; run: the cases threw outside any case; timeout: the
      // release's worker did not finish in time and was stopped.
      stage: z.enum(['load', 'run', 'timeout']),
      error: ErrorInfoSchema,
    })
    .strict(),
]);
export type ReleaseRun = z.infer<typeof ReleaseRunSchema>;

/** What a case did, without the wording of error messages (which changes between releases). */
export const BehaviourSchema = z.record(z.string(), JsonValueSchema);
export type Behaviour = z.infer<typeof BehaviourSchema>;

/**
 * What a case did. In a server sweep (`side` server) it also holds what the server put on the wire
 * (`sent`, the record's serverSent without error wording), since that is what the swept package decides;
 * in a client sweep the server is the pinned one and the wire is the same for every release.
 */
export function behaviourOf(observed: Observation, side: Side = 'client'): Behaviour {
  const client = clientBehaviourOf(observed);
  return side === 'server' ? { sent: sentBehaviour(observed.serverSent), ...client } : client;
}

function sentBehaviour(sent: ServerSent): JsonValue {
  if (typeof sent === 'string') return sent;
  if ('error' in sent) return { error: { code: sent.error.code } };
  return sent;
}

function describeSent(sent: JsonValue | undefined): string {
  if (typeof sent === 'string') return sent === 'as-scenario' ? 'sent as given' : `sent ${sent}`;
  if (sent && typeof sent === 'object' && 'error' in sent) return `sent error ${String((sent.error as { code?: number }).code)}`;
  return 'sent altered';
}

function clientBehaviourOf(observed: Observation): Behaviour {
  switch (observed.outcome) {
    case 'returned': {
      const behaviour: Behaviour = { outcome: 'returned', isError: observed.isError === true };
      if (Object.hasOwn(observed, 'structuredContent')) behaviour.structuredContent = observed.structuredContent as JsonValue;
      if (observed.content !== undefined) behaviour.content = observed.content;
      return behaviour;
    }
    case 'rejected':
      return { outcome: 'rejected', code: observed.error.code, name: observed.error.name };
    case 'timeout':
      return { outcome: 'timeout', stage: observed.stage };
    case 'crashed':
      return { outcome: 'crashed', stage: observed.stage, name: observed.error.name, code: observed.error.code };
  }
}

export function describeBehaviour(behaviour: Behaviour | undefined): string {
  if (!behaviour) return '—';
  // A server sweep's behaviour: what the server sent, then what the client made of it.
  if ('sent' in behaviour) return `${describeSent(behaviour.sent)} → ${describeClientBehaviour(behaviour)}`;
  return describeClientBehaviour(behaviour);
}

function describeClientBehaviour(behaviour: Behaviour): string {
  switch (behaviour.outcome) {
    case 'returned':
      return behaviour.isError ? 'returned isError' : 'returned';
    case 'rejected':
      return `rejected ${behaviour.code ?? behaviour.name}`;
    default:
      return `${String(behaviour.outcome)} (${String(behaviour.stage)})`;
  }
}

export const ChangePointSchema = z
  .object({
    caseId: z.string(),
    /** The last release (label) that behaved the old way, and the first that behaves the new way. */
    through: z.string(),
    from: z.string(),
    before: BehaviourSchema,
    after: BehaviourSchema,
  })
  .strict();
export type ChangePoint = z.infer<typeof ChangePointSchema>;

// 2: its case records are result-file version 2 records (transport, fixture, who rejected).
export const SWEEP_SCHEMA_VERSION = 2;

/**
 * What one release flag asked for, as typed: one spec (`1.10.0..latest`), or the specs of a flag given
 * several times (`--v1 1.20.0..1.22.0 --v1 ./my-build.tgz`), in the order typed. One spec stays a string,
 * so a sweep of one spec per flag writes the file it always wrote.
 */
export const RequestedSpecsSchema = z.union([z.string(), z.array(z.string()).min(2)]);
export type RequestedSpecs = z.infer<typeof RequestedSpecsSchema>;

/** The specs of one flag as a list (none for a flag not given). */
export function requestedSpecs(asked: RequestedSpecs | null | undefined): readonly string[] {
  return asked == null ? [] : typeof asked === 'string' ? [asked] : asked;
}

/** A sweep result; the key order is the file's reading order (files.ts derives the file from it). */
export const SweepResultSchema = z
  .object({
    schemaVersion: z.literal(SWEEP_SCHEMA_VERSION),
    kind: z.literal('sweep'),
    matrix: z.object({ name: z.string(), title: z.string(), source: z.string() }).strict(),
    environment: EnvironmentSchema,
    /** The releases asked for, as typed, and every release they resolved to (`line@label`), in order. */
    request: z
      .object({
        v1: RequestedSpecsSchema.nullable(),
        v2: RequestedSpecsSchema.nullable(),
        /** `--ai-sdk`: `@ai-sdk/mcp` releases; absent unless asked for (older results have none). */
        aiSdk: RequestedSpecsSchema.optional(),
        /** A server sweep's ranges (`--server-v1`, `--server-v2`); absent in a client sweep. */
        serverV1: RequestedSpecsSchema.nullable().optional(),
        serverV2: RequestedSpecsSchema.nullable().optional(),
        prerelease: z.boolean(),
      })
      .strict(),
    plan: z.array(z.string()),
    /** Present only in a shard's output; `merge` removes it. */
    shard: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).strict().optional(),
    summary: z
      .object({
        releases: z.number().int().nonnegative(),
        failedReleases: z.number().int().nonnegative(),
        cases: z.number().int().nonnegative(),
        passed: z.number().int().nonnegative(),
        failed: z.number().int().nonnegative(),
      })
      .strict(),
    changePoints: z.array(ChangePointSchema),
    /**
     * The matrix's cases no swept release runs, by reason. A server sweep: those no swept server package
     * serves (another package's fixture, or the stdio child, which is a bundled process of the pinned
     * server). A client sweep: those of the ecosystem's client lines (not SDK releases); absent when none.
     */
    leftOut: z.array(z.object({ reason: z.enum(['other-package', 'stdio-child', 'not-an-sdk-client']), caseIds: z.array(z.string()) }).strict()).optional(),
    releases: z.array(ReleaseRunSchema),
  })
  .strict();
export type SweepResult = z.infer<typeof SweepResultSchema>;

/**
 * For each case, the releases at which its behaviour changed, walking the releases that ran in order.
 * Releases that failed to load are skipped: they say nothing about a case's behaviour.
 */
export function changePoints(releases: readonly ReleaseRun[]): ChangePoint[] {
  const last = new Map<string, { label: string; behaviour: Behaviour }>();
  const points: ChangePoint[] = [];
  for (const run of releases) {
    if (run.status !== 'ran') continue;
    for (const record of run.cases) {
      const behaviour = behaviourOf(record.observed, sideOf(run.release));
      const previous = last.get(record.id);
      if (previous && !isDeepStrictEqual(previous.behaviour, behaviour)) {
        points.push({ caseId: record.id, through: previous.label, from: run.release.label, before: previous.behaviour, after: behaviour });
      }
      last.set(record.id, { label: run.release.label, behaviour });
    }
  }
  const order = new Map<string, number>();
  for (const run of releases) if (run.status === 'ran') for (const c of run.cases) if (!order.has(c.id)) order.set(c.id, order.size);
  return points.sort((a, b) => (order.get(a.caseId) ?? 0) - (order.get(b.caseId) ?? 0));
}

export function summarize(releases: readonly ReleaseRun[]): SweepResult['summary'] {
  const cases = releases.flatMap((run) => (run.status === 'ran' ? run.cases : []));
  const passed = cases.filter((c) => c.verdict === 'pass').length;
  return {
    releases: releases.length,
    failedReleases: releases.filter((run) => run.status === 'failed').length,
    cases: cases.length,
    passed,
    failed: cases.length - passed,
  };
}
