// What differs when a sweep varies the server package instead of the client (`--server-v1`/`--server-v2`):
// which cases a release runs, which are left out and why, and the behaviour compared between releases,
// which then includes what the server put on the wire.
import { SDK_LINES, type ReleaseLine, type SdkLine, type Scenario } from '../core/domain.ts';
import { serverSweepExclusion, type ServerSweepExclusion } from '../core/fixture.ts';
import { sdkLineOf, type ReleaseIdentity } from '../core/release.ts';
import type { SweepResult } from './model.ts';

/** The cases a release runs: a client release its line's cases; a server release the cases whose fixture its package serves. */
export function scenariosFor(scenarios: readonly Scenario[], release: Pick<ReleaseIdentity, 'side' | 'line'>): Scenario[] {
  if (release.side !== 'server') return scenarios.filter((s) => s.client === release.line);
  return scenarios.filter((s) => serverSweepExclusion(s, sdkLineOf(release.line)) === null);
}

type LeftOut = NonNullable<SweepResult['leftOut']>[number];

/**
 * The cases no server release of the swept lines runs, grouped by why, so the sweep can say so in one line
 * (never silently): other packages' fixtures, and the stdio child (a bundled process of the pinned server).
 */
export function leftOutOfServerSweep(scenarios: readonly Scenario[], lines: readonly SdkLine[]): LeftOut[] {
  const byReason = new Map<ServerSweepExclusion, string[]>();
  for (const scenario of scenarios) {
    const reasons = lines.map((line) => serverSweepExclusion(scenario, line));
    if (reasons.some((reason) => reason === null)) continue;
    // stdio-child wins over other-package: the case's package is swept, its process is not.
    const reason = reasons.includes('stdio-child') ? 'stdio-child' : 'other-package';
    byReason.set(reason, [...(byReason.get(reason) ?? []), scenario.id]);
  }
  return (['other-package', 'stdio-child'] as const).filter((r) => byReason.has(r)).map((reason) => ({ reason, caseIds: byReason.get(reason)! }));
}

/**
 * The cases no client release of a client sweep runs: those of the ecosystem's client lines (`ai-sdk`,
 * `langchain`, issue #12). A client sweep varies the SDK's client packages; those lines are other packages,
 * pinned, with no releases of the SDK to sweep, so their cases would otherwise vanish from the sweep
 * without a word. Empty when the matrix has none (the audit, extended). A swept ecosystem line
 * (`--ai-sdk`) runs its own cases, so they are not left out.
 */
export function leftOutOfClientSweep(scenarios: readonly Scenario[], swept: readonly ReleaseLine[] = []): LeftOut[] {
  const sweepable: readonly string[] = [...SDK_LINES, ...swept];
  const caseIds = scenarios.filter((s) => !sweepable.includes(s.client)).map((s) => s.id);
  return caseIds.length > 0 ? [{ reason: 'not-an-sdk-client', caseIds }] : [];
}
