// The sweep report: per client line a case × release table with runs of identical releases compressed,
// then failed releases, change points (behaviour first; identity ones, the error's class name, counted
// apart and grouped: issue 21), the baseline comparison and the newest-vs-pinned gate.
//
// Release labels, case ids, behaviours, error messages and paths are data (a release folder, a shard, a
// registry's answer): each line goes through terminalLine before it is painted, each table cell before
// it is padded (issue 20), so nothing in them acts on the terminal.
import { isDeepStrictEqual } from 'node:util';
import { terminalLine } from '../core/escape.ts';
import { failsGate, sweepSide, type BaselineComparison, type BehaviourChange, type PinnedComparison } from '../sweep/gates.ts';
import { RELEASE_LINES } from '../core/domain.ts';
import { releaseKey, sideOf } from '../core/release.ts';
import { behaviourOf, BEHAVIOUR_FIELD_KINDS, describeBehaviour, portablePath, type ChangePoint, type ReleaseRun, type SweepResult } from '../sweep/model.ts';
import { NO_COLOUR, type Paint } from './terminal.ts';

/**
 * A requested release spec as the evidence (Markdown, HTML) shows it: a folder or tarball given as a path
 * of this machine by its file name only, as the audit's evidence names it (render/markdown.ts); the build
 * itself is named by its integrity in the release label (issue 21). A result the sweep writes now stores
 * it so already (portablePath); this keeps a result written before that from showing its path.
 */
export function shownSpec(spec: string): string {
  return portablePath(spec);
}

export interface ReleaseColumn {
  /** `1.11.4–1.32.2`, or one label. */
  readonly label: string;
  readonly runs: readonly ReleaseRun[];
}

/** Groups consecutive releases that behaved identically in every case into one column. */
export function compressColumns(runs: readonly ReleaseRun[]): ReleaseColumn[] {
  const signature = (run: ReleaseRun) =>
    run.status === 'ran' ? run.cases.map((c) => [c.id, behaviourOf(c.observed, sideOf(run.release))]) : [`failed:${run.release.label}`];
  const groups: ReleaseRun[][] = [];
  for (const run of runs) {
    const current = groups.at(-1);
    if (current && current[0]!.status === 'ran' && run.status === 'ran' && isDeepStrictEqual(signature(current[0]!), signature(run))) current.push(run);
    else groups.push([run]);
  }
  return groups.map((group) => ({
    label: group.length === 1 ? group[0]!.release.label : `${group[0]!.release.label}–${group.at(-1)!.release.label}`,
    runs: group,
  }));
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - [...text].length));
}

function grid(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => [...(row[i] ?? '')].length)));
  return rows.map((row) => row.map((cell, i) => pad(cell, widths[i]!)).join('  ').trimEnd());
}

export function renderLineTable(runs: readonly ReleaseRun[]): string[] {
  const columns = compressColumns(runs);
  const caseIds = [...new Set(runs.flatMap((run) => (run.status === 'ran' ? run.cases.map((c) => c.id) : [])))];
  const cell = (column: ReleaseColumn, id: string) => {
    const run = column.runs[0]!;
    if (run.status === 'failed') return `failed (${run.stage})`;
    const record = run.cases.find((c) => c.id === id);
    return record ? describeBehaviour(behaviourOf(record.observed, sideOf(run.release))) : '—';
  };
  const rows = [['case', ...columns.map((c) => c.label)], ...caseIds.map((id) => [id, ...columns.map((c) => cell(c, id))])];
  if (caseIds.length === 0) rows.push(['(no release ran)', ...columns.map((c) => cell(c, ''))]);
  return grid(rows.map((row) => row.map(terminalLine)));
}

function describeChangeList(changes: readonly BehaviourChange[]): string[] {
  return changes.map((c) => terminalLine(`      ${c.caseId}: ${describeBehaviour(c.before)} → ${describeBehaviour(c.after)}${c.kind === 'identity' ? ' (identity)' : ''}`));
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** What an identity change is, in words: the fields the table calls identity (today the error's class name). */
const IDENTITY_WORDING = 'the error class name only';

/** `3 behaviour change points, 14 identity change points (the error class name only)`; `0 change points` when none. */
export function describeChangePointCounts(points: readonly Pick<ChangePoint, 'kind'>[]): string {
  const identity = points.filter((p) => p.kind === 'identity').length;
  if (points.length === 0) return '0 change points';
  return `${plural(points.length - identity, 'behaviour change point')}${identity > 0 ? `, ${plural(identity, 'identity change point')} (${IDENTITY_WORDING})` : ''}`;
}

/** `Change points: 3 behaviour change points, …`, or `Change points` alone when there are none (a line below says so). */
export function changePointsHeading(points: readonly Pick<ChangePoint, 'kind'>[]): string {
  return points.length === 0 ? 'Change points' : `Change points: ${describeChangePointCounts(points)}`;
}

/** Identity change points of the same releases and the same rename, as one group (a dependency's rename touches many cases at once). */
export interface IdentityGroup {
  readonly through: string;
  readonly from: string;
  /** `name: ZodError → $ZodError` */
  readonly change: string;
  readonly caseIds: readonly string[];
}

export function groupIdentityPoints(points: readonly ChangePoint[]): IdentityGroup[] {
  const groups = new Map<string, { through: string; from: string; change: string; caseIds: string[] }>();
  for (const point of points) {
    if (point.kind !== 'identity') continue;
    const change = point.fields
      .filter((field) => Object.hasOwn(BEHAVIOUR_FIELD_KINDS, field))
      .map((field) => `${field}: ${String(point.before[field])} → ${String(point.after[field])}`)
      .join(', ');
    const key = JSON.stringify([point.through, point.from, change]);
    if (!groups.has(key)) groups.set(key, { through: point.through, from: point.from, change, caseIds: [] });
    groups.get(key)!.caseIds.push(point.caseId);
  }
  return [...groups.values()];
}

/** One line per identity group: `name: ZodError → $ZodError ≤ 1.22.0 → from 1.23.0, 14 cases: a, b, …`. */
export function describeIdentityGroup(group: IdentityGroup): string {
  return `${group.change} (≤ ${group.through} → from ${group.from}), ${plural(group.caseIds.length, 'case')}: ${group.caseIds.join(', ')}`;
}

export function describeChangePoint(point: SweepResult['changePoints'][number]): string {
  return `${point.caseId}: ${describeChange(point)}`;
}

/** A change point without its case id: `rejected -32602 ≤ 1.1.0 → returned from 1.3.0`. */
export function describeChange(point: SweepResult['changePoints'][number]): string {
  const [before, after] = [describeBehaviour(point.before), describeBehaviour(point.after)];
  // The one-line wording leaves payloads out; when it reads the same on both sides, name what changed.
  const keys = [...new Set([...Object.keys(point.before), ...Object.keys(point.after)])];
  const differs = before === after ? ` (${keys.filter((key) => !isDeepStrictEqual(point.before[key], point.after[key])).join(', ')} differ)` : '';
  return `${before} ≤ ${point.through} → ${after} from ${point.from}${differs}`;
}

export interface SweepReportInput {
  readonly result: SweepResult;
  /** undefined: there is no baseline file. */
  readonly baseline: readonly BaselineComparison[] | undefined;
  readonly baselinePath: string;
  readonly updatedBaseline: boolean;
  readonly pinned: readonly PinnedComparison[];
  readonly writtenPath: string | undefined;
  /** `--gate-identity`: identity changes fail the gates too (the report says which changes are gated). */
  readonly gateIdentity?: boolean;
  readonly paint?: Paint;
}

/**
 * What stayed pinned: the fixture's server in a client sweep; the clients in a server sweep, whose swept
 * server packages each table names.
 */
export function describePinnedSide(result: SweepResult): string {
  if (sweepSide(result) === 'server') {
    // The clients as the case records name them (the pinned ones in a server sweep).
    const clients = [...new Set(result.releases.flatMap((run) => (run.status === 'ran' ? run.cases.map((c) => c.clientPackage) : [])))].sort();
    return `server sweep: each release's server package runs the fixtures; clients pinned: ${clients.join(', ') || '(no case ran)'}`;
  }
  return `fixture: @modelcontextprotocol/sdk@${result.environment.packages['@modelcontextprotocol/sdk']} low-level Server`;
}

const LEFT_OUT_WORDING = {
  'other-package': 'their fixture comes from a server package this sweep does not vary',
  'stdio-child': 'the stdio fixture is a separate bundled process that always runs the pinned server',
  // Names the lines actually left out (a case id starts with its line): an --ai-sdk sweep leaves out langchain only.
  'not-an-sdk-client': (lines: string) => `their client is an ecosystem line (${lines}) this sweep has no releases of; the pinned ones run in audit and replay`,
} as const satisfies Record<NonNullable<SweepResult['leftOut']>[number]['reason'], string | ((lines: string) => string)>;

/** One line per reason a sweep left cases out (never silently). */
export function describeLeftOut(result: Pick<SweepResult, 'leftOut'>): string[] {
  return (result.leftOut ?? []).map((group) => {
    const wording = LEFT_OUT_WORDING[group.reason];
    const why = typeof wording === 'string' ? wording : wording([...new Set(group.caseIds.map((id) => id.split('/')[0]!))].join(', '));
    return `${group.caseIds.length} case${group.caseIds.length === 1 ? '' : 's'} of the matrix not run: ${why} (${group.caseIds[0]}${group.caseIds.length > 1 ? ', …' : ''})`;
  });
}

/** A table's heading: `v1 · @modelcontextprotocol/client …`, or `server v2 · @modelcontextprotocol/server …` in a server sweep. */
export function describeLineRuns(runs: readonly ReleaseRun[]): string {
  const first = runs[0]!.release;
  const span = runs.length === 1 ? first.label : `${first.label}–${runs.at(-1)!.release.label}`;
  return `${first.side === 'server' ? 'server ' : ''}${first.line} · ${first.packageName} · ${runs.length} release${runs.length === 1 ? '' : 's'} (${span})`;
}

export function renderSweepReport(input: SweepReportInput): string {
  const { result, paint = NO_COLOUR } = input;
  const lines = [
    paint.bold(terminalLine(`${result.environment.harness} · sweep of matrix ${result.matrix.name}: ${result.matrix.title}`)),
    paint.dim(terminalLine(`${describePinnedSide(result)} · node ${result.environment.node} ${result.environment.platform}/${result.environment.arch}`)),
  ];
  if (result.shard) lines.push(paint.dim(`shard ${result.shard.index}/${result.shard.count} of ${result.plan.length} planned releases`));
  for (const text of describeLeftOut(result)) lines.push(paint.dim(terminalLine(text)));
  for (const line of RELEASE_LINES) {
    const runs = result.releases.filter((run) => run.release.line === line);
    if (runs.length === 0) continue;
    lines.push('', paint.bold(terminalLine(describeLineRuns(runs))));
    lines.push(...renderLineTable(runs));
  }

  const failed = result.releases.filter((run): run is Extract<ReleaseRun, { status: 'failed' }> => run.status === 'failed');
  if (failed.length > 0) {
    lines.push('', paint.bold('Releases that did not run'));
    for (const run of failed) lines.push(paint.fail(terminalLine(`  ${releaseKey(run.release)}: ${run.stage}: ${run.error.name}: ${run.error.message}`)));
  }

  const gateIdentity = input.gateIdentity === true;
  lines.push('', paint.bold(changePointsHeading(result.changePoints)));
  if (result.changePoints.length === 0) lines.push('  none: every case behaved the same in every release that ran');
  for (const point of result.changePoints) if (point.kind === 'behaviour') lines.push(terminalLine(`  ${describeChangePoint(point)}`));
  const identity = groupIdentityPoints(result.changePoints);
  if (identity.length > 0) {
    lines.push(paint.dim(`  identity only (${IDENTITY_WORDING}: what names the failure, not what the application gets)${gateIdentity ? '' : '; --gate-identity gates them'}:`));
    for (const group of identity) lines.push(paint.dim(terminalLine(`    ${describeIdentityGroup(group)}`)));
  }

  lines.push('');
  const baselinePath = terminalLine(input.baselinePath);
  if (input.updatedBaseline) {
    lines.push(`Sweep baseline updated: ${baselinePath} (--update)`);
  } else if (input.baseline === undefined) {
    lines.push(paint.dim(`No sweep baseline at ${baselinePath}; record one with --update.`));
  } else {
    const count = (kind: BaselineComparison['kind']) => input.baseline!.filter((e) => e.kind === kind).length;
    const counts = (['matched', 'changed', 'new', 'unchecked'] as const).filter((k) => count(k) > 0).map((k) => `${count(k)} ${k}`);
    lines.push(`Compared with ${baselinePath}: ${counts.join(', ') || 'nothing to compare'} release(s)`);
    const unknown = input.baseline.filter((e) => (e.kind === 'matched' || e.kind === 'changed') && e.integrityUnknown).length;
    if (unknown > 0) {
      lines.push(paint.dim(`  ${unknown === 1 ? "1 release's" : `${unknown} releases'`} integrity unknown on one side (no lockfile where it ran): not compared, judged by behaviour alone`));
    }
    for (const entry of input.baseline) {
      if (entry.kind === 'new') lines.push(paint.dim(terminalLine(`  new (not in the baseline) ${entry.release}`)));
      if (entry.kind !== 'changed') continue;
      if (failsGate(entry, gateIdentity)) lines.push(paint.fail(terminalLine(`  changed ${entry.release}`)));
      else lines.push(paint.dim(terminalLine(`  changed ${entry.release}: identity only, not gated (--gate-identity gates it)`)));
      if (entry.status) lines.push(terminalLine(`      status: ${entry.status.before} → ${entry.status.after}`));
      if (entry.integrity) lines.push(terminalLine(`      integrity: ${entry.integrity.before} → ${entry.integrity.after}`));
      lines.push(...describeChangeList(entry.cases));
    }
  }
  const side = sweepSide(result) === 'server' ? 'server ' : '';
  for (const entry of input.pinned) {
    if (entry.kind === 'same') lines.push(paint.pass(terminalLine(`Newest ${side}${entry.line} release ${entry.release} behaves as the pinned ${entry.pinned} in every case`)));
    else if (entry.kind === 'did-not-run') lines.push(paint.fail(terminalLine(`Newest ${side}${entry.line} release ${entry.release} did not run, so it cannot be compared with the pinned ${entry.pinned}`)));
    else if (!failsGate(entry, gateIdentity)) {
      lines.push(paint.pass(terminalLine(`Newest ${side}${entry.line} release ${entry.release} behaves as the pinned ${entry.pinned} in every case; identity differences only (not gated, --gate-identity gates them):`)));
      lines.push(...describeChangeList(entry.cases));
    } else {
      lines.push(paint.fail(terminalLine(`Newest ${side}${entry.line} release ${entry.release} behaves differently from the pinned ${entry.pinned}:`)));
      lines.push(...describeChangeList(entry.cases));
    }
  }
  if (input.writtenPath) lines.push(terminalLine(`Sweep result written to ${input.writtenPath}`));
  const { summary } = result;
  lines.push(
    `${summary.releases} release${summary.releases === 1 ? '' : 's'} swept, ${summary.failedReleases} did not run, ${describeChangePointCounts(result.changePoints)}`,
  );
  return `${lines.join('\n')}\n`;
}
