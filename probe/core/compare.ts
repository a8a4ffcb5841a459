// Comparison of a run with the recorded result, as a pure function with a closed set of entry kinds
// (vitest snapshot semantics: matched, changed, new, and recorded entries nothing checked).
import { isDeepStrictEqual } from 'node:util';
import type { CaseRecord, ResultFile } from './domain.ts';

/** Case fields whose change means "this case is not what was recorded". Verdicts follow from these. */
export const COMPARED_FIELDS = ['observed', 'expected', 'result', 'tool', 'clientPackage'] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

export type CaseComparison =
  | { readonly kind: 'matched'; readonly id: string }
  | {
      readonly kind: 'changed';
      readonly id: string;
      readonly fields: readonly ComparedField[];
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
      return fields.length === 0 ? { kind: 'matched', id: after.id } : { kind: 'changed', id: after.id, fields, before: previous, after };
    },
    finish(ran) {
      const entries = [...ran];
      for (const id of before.keys()) if (!seen.has(id)) entries.push({ kind: options.fullMatrix ? 'stale' : 'unchecked', id });
      const counts: Record<ComparisonKind, number> = { matched: 0, changed: 0, new: 0, stale: 0, unchecked: 0 };
      for (const entry of entries) counts[entry.kind] += 1;
      return { recorded: recorded ? 'found' : 'missing', entries, counts };
    },
  };
}

/** Whether the run disagrees with the recorded result in a way that must fail it. */
export function differsFromRecorded(comparison: Comparison): boolean {
  const { changed, new: added, stale } = comparison.counts;
  return changed + added + stale > 0;
}

/** One comparison out of several (each matrix against its own recorded result). */
export function combineComparisons(comparisons: readonly Comparison[]): Comparison {
  const counts: Record<ComparisonKind, number> = { matched: 0, changed: 0, new: 0, stale: 0, unchecked: 0 };
  for (const comparison of comparisons) for (const kind of Object.keys(counts) as ComparisonKind[]) counts[kind] += comparison.counts[kind];
  if (comparisons.length === 1) return comparisons[0]!;
  return {
    recorded: comparisons.every((c) => c.recorded === 'missing') ? 'missing' : 'found',
    entries: comparisons.flatMap((c) => c.entries),
    counts,
  };
}
