// The sweep's regression gates, as pure functions: (1) every release against the recorded sweep baseline,
// (2) the newest release of a line against the pinned client's recorded audit result.
import semver from 'semver';
import { z } from 'zod';
import type { ReleaseLine, ResultFile } from '../core/domain.ts';
import { exitCode } from '../core/exit-code.ts';
import { compareReleases } from '../releases/order.ts';
import { clientPackageOf, parseReleaseKey, releaseKey, sdkLineOf, SERVER_PACKAGES, SIDES, sideOf, type Side } from '../core/release.ts';
import { gatedKinds } from '../core/compare.ts';
import { BehaviourSchema, behaviourFirst, behaviourOf, changeKindOf, type Behaviour, type ChangeKind, type ReleaseRun, type SweepResult } from './model.ts';

export const SweepBaselineSchema = z
  .object({
    schemaVersion: z.literal(1),
    kind: z.literal('sweep-baseline'),
    matrix: z.string(),
    /** Which side the recorded sweep varied; a file without it is a client sweep's (recorded before server sweeps). */
    side: z.enum(SIDES).default('client'),
    releases: z.array(
      z
        .object({
          release: z.string(),
          integrity: z.string().nullable(),
          status: z.enum(['ran', 'failed']),
          behaviours: z.record(z.string(), BehaviourSchema),
        })
        .strict(),
    ),
  })
  .strict();
export type SweepBaseline = z.infer<typeof SweepBaselineSchema>;
type BaselineEntry = SweepBaseline['releases'][number];

function baselineEntry(run: ReleaseRun): BaselineEntry {
  return {
    release: releaseKey(run.release),
    integrity: run.release.integrity,
    status: run.status,
    behaviours: run.status === 'ran' ? Object.fromEntries(run.cases.map((c) => [c.id, behaviourOf(c.observed, sideOf(run.release))])) : {},
  };
}

/** Which side a sweep varied: a server sweep asks for server ranges (its releases then all are server releases). */
export function sweepSide(result: Pick<SweepResult, 'request'>): Side {
  return result.request.serverV1 != null || result.request.serverV2 != null ? 'server' : 'client';
}

/** The baseline a sweep records: per release, what each case did (error wording left out). */
export function toBaseline(result: SweepResult): SweepBaseline {
  return { schemaVersion: 1, kind: 'sweep-baseline', matrix: result.matrix.name, side: sweepSide(result), releases: result.releases.map(baselineEntry) };
}

/** `--update` on a partial sweep keeps the baseline's other releases: a sweep records what it ran. */
export function mergeIntoBaseline(previous: SweepBaseline | undefined, result: SweepResult): SweepBaseline {
  const entries = new Map((previous?.releases ?? []).map((entry) => [entry.release, entry]));
  for (const run of result.releases) entries.set(releaseKey(run.release), baselineEntry(run));
  const order = (key: string) => {
    const release = parseReleaseKey(key);
    return { ...release, version: semver.valid(release.version) ?? '0.0.0' };
  };
  const sorted = [...entries.values()].sort((a, b) => compareReleases(order(a.release), order(b.release)));
  return { ...toBaseline(result), releases: sorted };
}

export interface BehaviourChange {
  readonly caseId: string;
  readonly before: Behaviour | undefined;
  readonly after: Behaviour | undefined;
  /** behaviour or identity (model.ts BEHAVIOUR_FIELD_KINDS): only behaviour fails a gate by default. */
  readonly kind: ChangeKind;
}

export type BaselineComparison =
  | {
      readonly kind: 'matched';
      readonly release: string;
      /** One side's integrity is unknown (null: no lockfile where it ran), so it was not compared. */
      readonly integrityUnknown?: true;
    }
  | {
      readonly kind: 'changed';
      readonly release: string;
      readonly status?: { readonly before: string; readonly after: string };
      /** Both known and different: another build under the same version (re-published, or built locally). */
      readonly integrity?: { readonly before: string; readonly after: string };
      readonly integrityUnknown?: true;
      /** Behaviour changes first, then identity changes. */
      readonly cases: readonly BehaviourChange[];
    }
  | { readonly kind: 'new'; readonly release: string }
  | { readonly kind: 'unchecked'; readonly release: string };

function behaviourChanges(before: Record<string, Behaviour>, after: Record<string, Behaviour>): BehaviourChange[] {
  const ids = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  return behaviourFirst(
    ids.flatMap((caseId) => {
      const kind = changeKindOf(before[caseId], after[caseId]);
      return kind ? [{ caseId, before: before[caseId], after: after[caseId], kind }] : [];
    }),
  );
}

/**
 * Integrity as provenance: a hash known on both sides and different is another build of the version (a
 * change); null on either side is unknown, not a difference. It is null where the probe runs without a
 * lockfile (an installed package has none of its own: issue 21), for a package folder, and in a baseline
 * recorded so; what ran is then judged by its behaviour alone.
 */
function compareIntegrity(before: string | null, after: string | null): { changed?: { before: string; after: string }; unknown: boolean } {
  if (before === null || after === null) return { unknown: before !== after };
  return before === after ? { unknown: false } : { changed: { before, after }, unknown: false };
}

export function compareWithBaseline(baseline: SweepBaseline | undefined, result: SweepResult): BaselineComparison[] {
  const recorded = new Map((baseline?.releases ?? []).map((entry) => [entry.release, entry]));
  const entries: BaselineComparison[] = [];
  for (const run of result.releases) {
    const now = baselineEntry(run);
    const before = recorded.get(now.release);
    recorded.delete(now.release);
    if (!before) {
      entries.push({ kind: 'new', release: now.release });
      continue;
    }
    const cases = behaviourChanges(before.behaviours, now.behaviours);
    const status = before.status !== now.status ? { before: before.status, after: now.status } : undefined;
    const { changed: integrity, unknown } = compareIntegrity(before.integrity, now.integrity);
    const provenance = unknown ? { integrityUnknown: true as const } : {};
    if (cases.length === 0 && !status && !integrity) entries.push({ kind: 'matched', release: now.release, ...provenance });
    else entries.push({ kind: 'changed', release: now.release, cases, ...(status && { status }), ...(integrity && { integrity }), ...provenance });
  }
  for (const release of recorded.keys()) entries.push({ kind: 'unchecked', release });
  return entries;
}

export type PinnedComparison =
  | { readonly line: ReleaseLine; readonly kind: 'same'; readonly release: string; readonly pinned: string }
  | { readonly line: ReleaseLine; readonly kind: 'differs'; readonly release: string; readonly pinned: string; readonly cases: readonly BehaviourChange[] }
  | { readonly line: ReleaseLine; readonly kind: 'did-not-run'; readonly release: string; readonly pinned: string };

/**
 * The newest release of each gated line against the pinned client's recorded audit result: "does the
 * newest release treat these results differently from the one we pinned?" In a server sweep the lines are
 * server packages and the question is the same about the newest server release (the clients are pinned in
 * both), over the cases that release ran, comparing what went on the wire too.
 */
export function compareNewestWithPinned(
  recorded: ResultFile,
  result: SweepResult,
  lines: readonly ReleaseLine[],
  /** The case ids the gate covers (a --case subset, without user scenarios); all when absent. */
  only?: ReadonlySet<string>,
): PinnedComparison[] {
  const side = sweepSide(result);
  const covered = (id: string) => only === undefined || only.has(id);
  return lines.flatMap((line): PinnedComparison[] => {
    const runs = result.releases.filter((run) => run.release.line === line && sideOf(run.release) === side);
    const newest = runs.at(-1);
    if (!newest) return [];
    const swept = newest.status === 'ran' ? new Set(newest.cases.map((c) => c.id)) : new Set<string>();
    const pinnedCases = recorded.cases.filter((c) => (side === 'server' ? swept.has(c.id) : c.client === line) && covered(c.id));
    const serverPackage = side === 'server' ? SERVER_PACKAGES[sdkLineOf(line)] : '';
    const serverVersion = recorded.environment.packages[serverPackage];
    const pinned =
      side === 'server'
        ? serverVersion === undefined
          ? `${serverPackage} (not in the recorded result)`
          : clientPackageOf(serverPackage, serverVersion)
        : (pinnedCases[0]?.clientPackage ?? `${line} (not in the recorded result)`);
    const release = releaseKey(newest.release);
    if (newest.status !== 'ran') return [{ line, kind: 'did-not-run', release, pinned }];
    const before = Object.fromEntries(pinnedCases.map((c) => [c.id, behaviourOf(c.observed, side)]));
    const after = Object.fromEntries(newest.cases.filter((c) => covered(c.id)).map((c) => [c.id, behaviourOf(c.observed, side)]));
    const cases = behaviourChanges(before, after);
    return [cases.length === 0 ? { line, kind: 'same', release, pinned } : { line, kind: 'differs', release, pinned, cases }];
  });
}

export interface SweepExitInput {
  readonly baseline: readonly BaselineComparison[];
  readonly pinned: readonly PinnedComparison[];
  /** `--update` just recorded this sweep as the baseline. */
  readonly updatedBaseline: boolean;
  /** `--gate-identity`: identity changes (the error's class name) fail the gates too. */
  readonly gateIdentity?: boolean;
}

/** Whether a baseline or newest-vs-pinned entry fails its gate: a status or build change, a case change of a gated kind, a newest release that did not run. */
export function failsGate(entry: BaselineComparison | PinnedComparison, gateIdentity = false): boolean {
  const gated = gatedKinds(gateIdentity);
  switch (entry.kind) {
    case 'changed':
      return entry.status !== undefined || entry.integrity !== undefined || entry.cases.some((c) => gated.includes(c.kind));
    case 'differs':
      return entry.cases.some((c) => gated.includes(c.kind));
    case 'did-not-run':
      return true;
    default:
      return false;
  }
}

export function sweepExitCode({ baseline, pinned, updatedBaseline, gateIdentity = false }: SweepExitInput): 0 | 1 {
  // A sweep judges releases by what they did, not by the pinned expectations (old releases differ on
  // purpose), so only differences count: from the baseline (which --update accepts), and the newest
  // release against the pinned one (which it does not); of those, behaviour (and identity when asked).
  const fromBaseline = updatedBaseline ? 0 : baseline.filter((entry) => failsGate(entry, gateIdentity)).length;
  return exitCode({ failedCases: 0, unacceptedDifferences: fromBaseline + pinned.filter((entry) => failsGate(entry, gateIdentity)).length });
}
