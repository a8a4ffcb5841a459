// Comparison of a run with the recorded result, as a pure function with a closed set of entry kinds
// (vitest snapshot semantics: matched, changed, new, and recorded entries nothing checked).
import { isDeepStrictEqual } from 'node:util';
import type { CaseRecord, ErrorInfo, Observation, ResultFile } from './domain.ts';

/** Case fields whose change means "this case is not what was recorded". Verdicts follow from these. */
export const COMPARED_FIELDS = ['observed', 'expected', 'result', 'tool', 'clientPackage'] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

/**
 * Two kinds of change (issue 21 item 5): `behaviour`, what an application or a user of the client can tell
 * apart (the outcome, the error code, isError, what the application is handed, what the server sent), and
 * `identity`, what names the failure without changing it (the error's class name, its message wording).
 * Gates fail on behaviour; identity changes are counted apart (`--gate-identity` gates them too). The
 * sweep's change points use the same two kinds (sweep/model.ts).
 */
export const CHANGE_KINDS = ['behaviour', 'identity'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** The kinds a gate fails on: behaviour, and identity too when asked (`--gate-identity`). */
export function gatedKinds(gateIdentity = false): readonly ChangeKind[] {
  return gateIdentity ? ['behaviour', 'identity'] : ['behaviour'];
}

type KeysOfUnion<T> = T extends unknown ? keyof T : never;

/**
 * Which kind of change a difference in each field of an observation is; `error` is classified by its own
 * fields (OBSERVED_ERROR_FIELD_KINDS). `satisfies` names every field of every outcome, so a field added
 * to ObservationSchema does not compile until it is classified here.
 */
export const OBSERVATION_FIELD_KINDS = {
  /** returned, rejected, timeout, crashed: whether the application gets a result at all. */
  outcome: 'behaviour',
  isError: 'behaviour',
  /** What the application is handed (CallToolResult.structuredContent, content, any other key such as _meta). */
  structuredContent: 'behaviour',
  content: 'behaviour',
  otherKeys: 'behaviour',
  /** Who rejected the call (client or server): where the fix belongs. */
  by: 'behaviour',
  /** What the server put on the wire, its error's message included: what went out, not how a client names it. */
  serverSent: 'behaviour',
  /** Keys the server or the client dropped from the result. */
  dropped: 'behaviour',
  /** Where a timeout or crash happened (connect, list, call), and after how long a timeout gave up. */
  stage: 'behaviour',
  afterMs: 'behaviour',
  error: 'by its fields',
} as const satisfies Record<KeysOfUnion<Observation>, ChangeKind | 'by its fields'>;

/**
 * Which kind of change a difference in each field of the thrown error is. The message's wording changes
 * between releases (the v1 client's ajv text "data must have required property" in 1.32.2 against "data
 * should NOT have additional properties" in 1.20.0, same code -32602, results/recorded.json
 * v1/warm/off-schema-success) and between Node versions (a JSON.parse error's text): neither is what an
 * application branches on. The class name: `ZodError` → `$ZodError` from sdk 1.23.0 (zod 4).
 */
export const OBSERVED_ERROR_FIELD_KINDS = {
  /** The JSON-RPC error code an application branches on (McpError.code). */
  code: 'behaviour',
  name: 'identity',
  message: 'identity',
} as const satisfies Record<keyof ErrorInfo, ChangeKind>;

/**
 * The kind of a change between two observations that differ. Identity only when every differing field is
 * the error's identity (its name and/or message); anything else, or a field the tables do not know (an
 * observation read from a newer file), is behaviour: when in doubt, a change counts.
 */
export function observationChangeKind(before: Observation, after: Observation): ChangeKind {
  const kinds: Readonly<Record<string, ChangeKind | 'by its fields'>> = OBSERVATION_FIELD_KINDS;
  const errorKinds: Readonly<Record<string, ChangeKind>> = OBSERVED_ERROR_FIELD_KINDS;
  const identityOnly = (fieldKinds: Readonly<Record<string, string>>, a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) =>
    differingKeys(a, b).every((key) => Object.hasOwn(fieldKinds, key) && fieldKinds[key] === 'identity');
  const a = before as Readonly<Record<string, unknown>>;
  const b = after as Readonly<Record<string, unknown>>;
  return differingKeys(a, b).every((key) => {
    if (!Object.hasOwn(kinds, key)) return false;
    if (kinds[key] !== 'by its fields') return kinds[key] === 'identity';
    const [errorA, errorB] = [a[key], b[key]];
    return isRecord(errorA) && isRecord(errorB) && identityOnly(errorKinds, errorA, errorB);
  })
    ? 'identity'
    : 'behaviour';
}

/** The kind of a changed case: identity only when the observation alone changed, and only in identity. */
export function caseChangeKind(fields: readonly ComparedField[], before: CaseRecord, after: CaseRecord): ChangeKind {
  return fields.length > 0 && fields.every((field) => field === 'observed') ? observationChangeKind(before.observed, after.observed) : 'behaviour';
}

function differingKeys(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !isDeepStrictEqual(a[key], b[key]));
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type CaseComparison =
  | { readonly kind: 'matched'; readonly id: string }
  | {
      readonly kind: 'changed';
      readonly id: string;
      readonly fields: readonly ComparedField[];
      /** behaviour or identity (caseChangeKind): only behaviour fails the run unless `gateIdentity`. */
      readonly changeKind: ChangeKind;
      readonly before: CaseRecord;
      readonly after: CaseRecord;
    }
  /** Ran now, absent from the recorded result. */
  | { readonly kind: 'new'; readonly id: string }
  /** Recorded, but the whole matrix ran and no case has this id any more: the record is stale. */
  | { readonly kind: 'stale'; readonly id: string }
  /** Recorded, not selected by this run's `--case` filter: nothing checked it, nothing is wrong. */
  | { readonly kind: 'unchecked'; readonly id: string };

export type ComparisonKind = CaseComparison['kind'];

export interface Comparison {
  readonly recorded: 'found' | 'missing';
  readonly entries: readonly CaseComparison[];
  readonly counts: Readonly<Record<ComparisonKind, number>>;
  /** The `changed` entries by their kind (their sum is `counts.changed`). */
  readonly changedByKind: Readonly<Record<ChangeKind, number>>;
}

export interface CompareOptions {
  /** Whether this run selected every case of its matrix (no `--case` filter). */
  readonly fullMatrix: boolean;
  /** Fields not to compare (the client package, when another release runs on purpose). */
  readonly ignore?: readonly ComparedField[];
}

export function compareWithRecorded(recorded: ResultFile | undefined, current: ResultFile, options: CompareOptions): Comparison {
  const comparer = startComparison(recorded, options);
  return comparer.finish(current.cases.map((after) => comparer.compare(after)));
}

/**
 * compareWithRecorded one case at a time, for a run that does not keep its records: `compare` each case
 * as it is over (in any order), then `finish` with the entries in the run's case order.
 */
export function startComparison(recorded: ResultFile | undefined, options: CompareOptions): {
  compare(after: CaseRecord): CaseComparison;
  finish(entries: readonly CaseComparison[]): Comparison;
} {
  const before = new Map((recorded?.cases ?? []).map((record) => [record.id, record]));
  const seen = new Set<string>();
  return {
    compare(after) {
      seen.add(after.id);
      const previous = before.get(after.id);
      if (!previous) return { kind: 'new', id: after.id };
      const fields = COMPARED_FIELDS.filter(
        (field) => !options.ignore?.includes(field) && !isDeepStrictEqual(previous[field], after[field]),
      );
      if (fields.length === 0) return { kind: 'matched', id: after.id };
      return { kind: 'changed', id: after.id, fields, changeKind: caseChangeKind(fields, previous, after), before: previous, after };
    },
    finish(ran) {
      const entries = [...ran];
      for (const id of before.keys()) if (!seen.has(id)) entries.push({ kind: options.fullMatrix ? 'stale' : 'unchecked', id });
      const counts: Record<ComparisonKind, number> = { matched: 0, changed: 0, new: 0, stale: 0, unchecked: 0 };
      const changedByKind: Record<ChangeKind, number> = { behaviour: 0, identity: 0 };
      for (const entry of entries) {
        counts[entry.kind] += 1;
        if (entry.kind === 'changed') changedByKind[entry.changeKind] += 1;
      }
      return { recorded: recorded ? 'found' : 'missing', entries, counts, changedByKind };
    },
  };
}

export interface GateOptions {
  /** `--gate-identity`: a case whose error's class name or message alone changed fails the run too. */
  readonly gateIdentity?: boolean;
}

/**
 * Whether the run disagrees with the recorded result in a way that must fail it: a behaviour change, a new
 * case or a stale record; an identity change only with `gateIdentity` (issue 21 item 5).
 */
export function differsFromRecorded(comparison: Comparison, { gateIdentity = false }: GateOptions = {}): boolean {
  const { new: added, stale } = comparison.counts;
  const gatedChanges = gatedKinds(gateIdentity).reduce((sum, kind) => sum + comparison.changedByKind[kind], 0);
  return gatedChanges + added + stale > 0;
}

/** One comparison out of several (each matrix against its own recorded result). */
export function combineComparisons(comparisons: readonly Comparison[]): Comparison {
  const counts: Record<ComparisonKind, number> = { matched: 0, changed: 0, new: 0, stale: 0, unchecked: 0 };
  const changedByKind: Record<ChangeKind, number> = { behaviour: 0, identity: 0 };
  for (const comparison of comparisons) {
    for (const kind of Object.keys(counts) as ComparisonKind[]) counts[kind] += comparison.counts[kind];
    for (const kind of CHANGE_KINDS) changedByKind[kind] += comparison.changedByKind[kind];
  }
  if (comparisons.length === 1) return comparisons[0]!;
  return {
    recorded: comparisons.every((c) => c.recorded === 'missing') ? 'missing' : 'found',
    entries: comparisons.flatMap((c) => c.entries),
    counts,
    changedByKind,
  };
}
