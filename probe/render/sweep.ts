// The sweep report: per client line a case × release table with runs of identical releases compressed,
// then failed releases, change points, the baseline comparison and the newest-vs-pinned gate.
import { isDeepStrictEqual } from 'node:util';
import type { BaselineComparison, BehaviourChange, PinnedComparison } from '../sweep/gates.ts';
import { releaseKey } from '../core/release.ts';
import { behaviourOf, describeBehaviour, type ReleaseRun, type SweepResult } from '../sweep/model.ts';
import { NO_COLOUR, type Paint } from './terminal.ts';

export interface ReleaseColumn {
  /** `1.11.4–1.32.2`, or one label. */
  readonly label: string;
  readonly runs: readonly ReleaseRun[];
}

/** Groups consecutive releases that behaved identically in every case into one column. */
export function compressColumns(runs: readonly ReleaseRun[]): ReleaseColumn[] {
  const signature = (run: ReleaseRun) =>
    run.status === 'ran' ? run.cases.map((c) => [c.id, behaviourOf(c.observed)]) : [`failed:${run.release.label}`];
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
    return record ? describeBehaviour(behaviourOf(record.observed)) : '—';
  };
  const rows = [['case', ...columns.map((c) => c.label)], ...caseIds.map((id) => [id, ...columns.map((c) => cell(c, id))])];
  if (caseIds.length === 0) rows.push(['(no release ran)', ...columns.map((c) => cell(c, ''))]);
  return grid(rows);
}

function describeChangeList(changes: readonly BehaviourChange[]): string[] {
  return changes.map((c) => `      ${c.caseId}: ${describeBehaviour(c.before)} → ${describeBehaviour(c.after)}`);
}

export function describeChangePoint(point: SweepResult['changePoints'][number]): string {
  return `${point.caseId}: ${describeBehaviour(point.before)} ≤ ${point.through} → ${describeBehaviour(point.after)} from ${point.from}`;
}

export interface SweepReportInput {
  readonly result: SweepResult;
  /** undefined: there is no baseline file. */
  readonly baseline: readonly BaselineComparison[] | undefined;
  readonly baselinePath: string;
  readonly updatedBaseline: boolean;
  readonly pinned: readonly PinnedComparison[];
  readonly writtenPath: string | undefined;
  readonly paint?: Paint;
}

export function renderSweepReport(input: SweepReportInput): string {
  const { result, paint = NO_COLOUR } = input;
  const fixture = result.environment.packages['@modelcontextprotocol/sdk'];
  const lines = [
    paint.bold(`${result.environment.harness} · sweep of matrix ${result.matrix.name}: ${result.matrix.title}`),
    paint.dim(`fixture: @modelcontextprotocol/sdk@${fixture} low-level Server · node ${result.environment.node} ${result.environment.platform}/${result.environment.arch}`),
  ];
  if (result.shard) lines.push(paint.dim(`shard ${result.shard.index}/${result.shard.count} of ${result.plan.length} planned releases`));
  for (const line of ['v1', 'v2'] as const) {
    const runs = result.releases.filter((run) => run.release.line === line);
    if (runs.length === 0) continue;
    const span = runs.length === 1 ? runs[0]!.release.label : `${runs[0]!.release.label}–${runs.at(-1)!.release.label}`;
    lines.push('', paint.bold(`${line} · ${runs[0]!.release.packageName} · ${runs.length} release${runs.length === 1 ? '' : 's'} (${span})`));
    lines.push(...renderLineTable(runs));
  }

  const failed = result.releases.filter((run): run is Extract<ReleaseRun, { status: 'failed' }> => run.status === 'failed');
  if (failed.length > 0) {
    lines.push('', paint.bold('Releases that did not run'));
    for (const run of failed) lines.push(paint.fail(`  ${releaseKey(run.release)}: ${run.stage}: ${run.error.name}: ${run.error.message}`));
  }

  lines.push('', paint.bold('Change points'));
  if (result.changePoints.length === 0) lines.push('  none: every case behaved the same in every release that ran');
  for (const point of result.changePoints) lines.push(`  ${describeChangePoint(point)}`);

  lines.push('');
  if (input.updatedBaseline) {
    lines.push(`Sweep baseline updated: ${input.baselinePath} (--update)`);
  } else if (input.baseline === undefined) {
    lines.push(paint.dim(`No sweep baseline at ${input.baselinePath}; record one with --update.`));
  } else {
    const count = (kind: BaselineComparison['kind']) => input.baseline!.filter((e) => e.kind === kind).length;
    const counts = (['matched', 'changed', 'new', 'unchecked'] as const).filter((k) => count(k) > 0).map((k) => `${count(k)} ${k}`);
    lines.push(`Compared with ${input.baselinePath}: ${counts.join(', ') || 'nothing to compare'} release(s)`);
    for (const entry of input.baseline) {
      if (entry.kind === 'new') lines.push(paint.dim(`  new (not in the baseline) ${entry.release}`));
      if (entry.kind !== 'changed') continue;
      lines.push(paint.fail(`  changed ${entry.release}`));
      if (entry.status) lines.push(`      status: ${entry.status.before} → ${entry.status.after}`);
      if (entry.integrity) lines.push(`      integrity: ${entry.integrity.before} → ${entry.integrity.after}`);
      lines.push(...describeChangeList(entry.cases));
    }
  }
  for (const entry of input.pinned) {
    if (entry.kind === 'same') lines.push(paint.pass(`Newest ${entry.line} release ${entry.release} behaves as the pinned ${entry.pinned} in every case`));
    else if (entry.kind === 'did-not-run') lines.push(paint.fail(`Newest ${entry.line} release ${entry.release} did not run, so it cannot be compared with the pinned ${entry.pinned}`));
    else {
      lines.push(paint.fail(`Newest ${entry.line} release ${entry.release} behaves differently from the pinned ${entry.pinned}:`));
      lines.push(...describeChangeList(entry.cases));
    }
  }
  if (input.writtenPath) lines.push(`Sweep result written to ${input.writtenPath}`);
  const { summary } = result;
  lines.push(
    `${summary.releases} release${summary.releases === 1 ? '' : 's'} swept, ${summary.failedReleases} did not run, ` +
      `${result.changePoints.length} change point${result.changePoints.length === 1 ? '' : 's'}`,
  );
  return `${lines.join('\n')}\n`;
}
