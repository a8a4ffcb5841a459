// The sweep's data: per release, what every case did; derived from that, change points. Schemas here
// because sweep results are read back from files (merge, baselines).
import { basename, isAbsolute, normalize } from 'node:path';
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
import { CHANGE_KINDS, type ChangeKind } from '../core/compare.ts';
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

// Two kinds of change point (issue 21), the same two as the audit's recorded comparison (core/compare.ts):
// behaviour, what an application can tell apart; identity, what names the failure (the error's class name).
// A sweep's gates fail on behaviour; identity changes are counted apart (`--gate-identity` gates them too).
export type { ChangeKind } from '../core/compare.ts';

/** The fields behaviourOf records; the table below must name each (`satisfies`), so a new one cannot go unclassified. */
type BehaviourField = 'outcome' | 'isError' | 'structuredContent' | 'content' | 'code' | 'name' | 'stage' | 'sent';

/**
 * Which kind of change a difference in each field of a behaviour is. Message wording is not a field: it
 * is never recorded in a behaviour (behaviourOf leaves it out), so a reworded message is no change point.
 */
export const BEHAVIOUR_FIELD_KINDS = {
  /** returned, rejected, timeout, crashed: whether the application gets a result at all. */
  outcome: 'behaviour',
  isError: 'behaviour',
  /** What the application is handed (CallToolResult.structuredContent and content). */
  structuredContent: 'behaviour',
  content: 'behaviour',
  /** The JSON-RPC error code an application branches on (McpError.code). */
  code: 'behaviour',
  /** Where a timeout or crash happened (connect, list, call). */
  stage: 'behaviour',
  /** What the server put on the wire (server sweeps): what the swept server package decides. */
  sent: 'behaviour',
  /**
   * The error's class name. Observed: `ZodError` → `$ZodError` from @modelcontextprotocol/sdk 1.23.0, which
   * moved to zod 4 (results/sweep-baseline-all.json, v1@1.22.0 → v1@1.23.0): the same rejection, code null
   * on both sides, renamed by the dependency.
   */
  name: 'identity',
} as const satisfies Record<BehaviourField, ChangeKind>;

/** The fields in which two behaviours differ, sorted; an absent behaviour (a case that did not run) differs in every field. */
export function differingFields(before: Behaviour | undefined, after: Behaviour | undefined): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  if (before === undefined || after === undefined) return before === after ? [] : keys;
  return keys.filter((key) => !isDeepStrictEqual(before[key], after[key]));
}

/**
 * The kind of change from one behaviour to another, or undefined when they are the same. A case that ran
 * on one side only, or a field the table does not know (a behaviour read from a newer file), is behaviour:
 * when in doubt, a change counts.
 */
export function changeKindOf(before: Behaviour | undefined, after: Behaviour | undefined): ChangeKind | undefined {
  if (before === undefined || after === undefined) return before === after ? undefined : 'behaviour';
  const fields = differingFields(before, after);
  if (fields.length === 0) return undefined;
  const kinds: Readonly<Record<string, ChangeKind>> = BEHAVIOUR_FIELD_KINDS;
  return fields.every((field) => Object.hasOwn(kinds, field) && kinds[field] === 'identity') ? 'identity' : 'behaviour';
}

/** Behaviour changes first, then identity changes, each in its given order (a stable sort). */
export function behaviourFirst<T extends { readonly kind: ChangeKind }>(changes: readonly T[]): T[] {
  return [...changes].sort((a, b) => CHANGE_KINDS.indexOf(a.kind) - CHANGE_KINDS.indexOf(b.kind));
}

/**
 * What a case did. In a server sweep (`side` server) it also holds what the server put on the wire
 * (`sent`, the record's serverSent without error wording), since that is what the swept package decides;
 * in a client sweep the server is the pinned one and the wire is the same for every release.
 */
export function behaviourOf(observed: Observation, side: Side = 'client'): Behaviour {
  const client: Behaviour = clientBehaviourOf(observed);
  const sent: Partial<Record<BehaviourField, JsonValue>> = { sent: sentBehaviour(observed.serverSent) };
  return side === 'server' ? { ...sent, ...client } : client;
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

function clientBehaviourOf(observed: Observation): Partial<Record<BehaviourField, JsonValue>> {
  switch (observed.outcome) {
    case 'returned': {
      const behaviour: Partial<Record<BehaviourField, JsonValue>> = { outcome: 'returned', isError: observed.isError === true };
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

/**
 * A change point as files hold it. Files written before change points were classified (issue 21) have no
 * `kind`/`fields`: they are derived from the point's own before/after, so an old shard, sweep file or NDJSON
 * stream reads with the classification a new one carries, never refused.
 */
export function withChangeKind(point: unknown): unknown {
  if (typeof point !== 'object' || point === null || Array.isArray(point) || Object.hasOwn(point, 'kind') || Object.hasOwn(point, 'fields')) return point;
  const { before, after } = point as { before?: unknown; after?: unknown };
  const parsed = [BehaviourSchema.safeParse(before), BehaviourSchema.safeParse(after)] as const;
  if (!parsed[0].success || !parsed[1].success) return point;
  return { ...point, kind: changeKindOf(parsed[0].data, parsed[1].data) ?? 'behaviour', fields: differingFields(parsed[0].data, parsed[1].data) };
}

export const ChangePointObjectSchema = z
  .object({
    caseId: z.string(),
    /** The last release (label) that behaved the old way, and the first that behaves the new way. */
    through: z.string(),
    from: z.string(),
    before: BehaviourSchema,
    after: BehaviourSchema,
    /** behaviour or identity (BEHAVIOUR_FIELD_KINDS); the result lists behaviour change points first. */
    kind: z.enum(CHANGE_KINDS),
    /** The fields of the behaviour that differ, sorted. */
    fields: z.array(z.string()),
  })
  .strict();
export const ChangePointSchema = z.preprocess(withChangeKind, ChangePointObjectSchema);
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

/**
 * A path the user typed (a release folder or tarball, a --scenarios folder) as a sweep result stores it:
 * as typed when it is relative and stays inside the working folder (a reader recreates it there), else by
 * its file name. The result leaves the machine (the Action uploads it, reports attach it), and a path of
 * this machine would carry its user's folders; the build itself is named by its label and integrity in
 * `releases[]` (issue 21). Every shard computes it the same way, so `merge` and `--resume`, which compare
 * the stored request, accept one build swept from two checkouts. A registry spec is never a path: it is
 * returned as typed.
 */
export function portablePath(given: string): string {
  const leavesWorkingFolder = isAbsolute(given) || normalize(given).split(/[\\/]/)[0] === '..';
  return leavesWorkingFolder ? basename(given) : given;
}

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
        /**
         * `--scenarios DIR`, as portablePath stores it, and `--allow-scenario-code`: the Reproduce command
         * names them (a reader needs that folder); absent unless given, so other sweeps' results stay as they were.
         */
        scenarios: z.string().optional(),
        allowScenarioCode: z.literal(true).optional(),
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
    /** Behaviour change points first, then identity ones; each in the matrix's case order. */
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

/** One release's behaviours, by case id, in its case order: what change points are computed from. */
export interface ReleaseBehaviours {
  readonly label: string;
  readonly behaviours: ReadonlyMap<string, Behaviour>;
}

/** The behaviours of the releases that ran. Releases that failed to load say nothing about a case's behaviour. */
export function releaseBehaviours(releases: readonly ReleaseRun[]): ReleaseBehaviours[] {
  return releases.flatMap((run) =>
    run.status === 'ran' ? [{ label: run.release.label, behaviours: new Map(run.cases.map((c) => [c.id, behaviourOf(c.observed, sideOf(run.release))])) }] : [],
  );
}

/**
 * For each case, the releases at which its behaviour changed, walking the releases in order, each
 * classified (changeKindOf); behaviour change points first, then identity ones, each in case order.
 */
export function changePointsOf(releases: readonly ReleaseBehaviours[]): ChangePoint[] {
  const last = new Map<string, { label: string; behaviour: Behaviour }>();
  const points: ChangePoint[] = [];
  for (const release of releases) {
    for (const [id, behaviour] of release.behaviours) {
      const previous = last.get(id);
      const kind = previous && changeKindOf(previous.behaviour, behaviour);
      if (previous && kind) {
        points.push({ caseId: id, through: previous.label, from: release.label, before: previous.behaviour, after: behaviour, kind, fields: differingFields(previous.behaviour, behaviour) });
      }
      last.set(id, { label: release.label, behaviour });
    }
  }
  const order = new Map<string, number>();
  for (const release of releases) for (const id of release.behaviours.keys()) if (!order.has(id)) order.set(id, order.size);
  return behaviourFirst(points.sort((a, b) => (order.get(a.caseId) ?? 0) - (order.get(b.caseId) ?? 0)));
}

/** changePointsOf the releases that ran. */
export function changePoints(releases: readonly ReleaseRun[]): ChangePoint[] {
  return changePointsOf(releaseBehaviours(releases));
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

/** The change points by kind, counted apart (the NDJSON summary line; reports word them with describeChangePointCounts). */
export function countChangePoints(points: readonly Pick<ChangePoint, 'kind'>[]): { readonly behaviourChangePoints: number; readonly identityChangePoints: number } {
  return { behaviourChangePoints: points.filter((p) => p.kind === 'behaviour').length, identityChangePoints: points.filter((p) => p.kind === 'identity').length };
}
