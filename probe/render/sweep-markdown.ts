// A sweep as Markdown evidence (GitHub-flavoured), for a CI artifact or an issue: the report as the
// terminal prints it, then every change point with the two releases' records side by side (what the
// server was given, what went on the wire, what the client did), and the command that reproduces it.
// Every value from the sweep goes through core/escape.ts: only the template is live (issue 20).
import type { CaseRecord } from '../core/domain.ts';
import { releaseKey } from '../core/release.ts';
import { requestedSpecs, type ReleaseRun, type RequestedSpecs, type SweepResult } from '../sweep/model.ts';
import { htmlLine, markdownCellCode, markdownCode, markdownFence, markdownText, shellArgument, shellCommand } from '../core/escape.ts';
import { describeBehaviour } from '../sweep/model.ts';
import {
  changePointsHeading,
  describeChangePoint,
  describeIdentityGroup,
  describeLeftOut,
  describePinnedSide,
  groupIdentityPoints,
  renderSweepReport,
  shownSpec,
  type SweepReportInput,
} from './sweep.ts';

/** The release flags a sweep was asked with, as typed (`--server-v1 1.23.1..1.24.0`) but a path of this machine by its file name, each value quoted for sh. */
export function requestFlags(request: SweepResult['request']): string {
  const flags: [string, RequestedSpecs | null | undefined][] = [
    ['--v1', request.v1],
    ['--v2', request.v2],
    ['--ai-sdk', request.aiSdk],
    ['--server-v1', request.serverV1],
    ['--server-v2', request.serverV2],
  ];
  // A flag given several times is repeated, each spec its own argument.
  return [...flags.flatMap(([flag, asked]) => requestedSpecs(asked).map((text) => `${flag} ${shellArgument(shownSpec(text))}`)), ...(request.prerelease ? ['--prerelease'] : [])].join(' ');
}

function recordOf(releases: readonly ReleaseRun[], label: string, caseId: string): CaseRecord | undefined {
  for (const run of releases) if (run.status === 'ran' && run.release.label === label) return run.cases.find((c) => c.id === caseId);
  return undefined;
}

function evidence(record: CaseRecord | undefined, label: string): string[] {
  if (!record) return [`(${label}: no record)`];
  return [
    `**${markdownText(label)}** (${markdownText(record.clientPackage)} client, ${record.fixture.server} server)`,
    '',
    // The observation holds what went on the wire (serverSent) and what the client did.
    markdownFence('json', JSON.stringify(record.observed, null, 2)),
  ];
}

export function renderSweepMarkdown(input: SweepReportInput): string {
  const { result } = input;
  const env = result.environment;
  const matrixName = result.matrix.name.replace(/\+scenarios$/, '');
  const matrixFlag = matrixName === 'audit' ? '' : ` ${shellCommand(['--matrix', matrixName])}`;
  // The user's cases are part of the sweep: the command names their folder as the result stores it
  // (portablePath: never a path of the reporter's machine), and its trust flag (issue 21).
  const { scenarios } = result.request;
  const scenarioFlags = scenarios === undefined ? '' : ` ${shellCommand(['--scenarios', scenarios, ...(result.request.allowScenarioCode ? ['--allow-scenario-code'] : [])])}`;
  const lines = [
    `# Sweep of matrix ${markdownText(result.matrix.name)}: ${markdownText(result.matrix.title)}`,
    '',
    `${markdownText(env.harness)} · node ${markdownText(env.node)} ${markdownText(env.platform)}/${markdownText(env.arch)} · ${markdownText(describePinnedSide(result))}`,
    '',
    ...describeLeftOut(result).flatMap((text) => [markdownText(text), '']),
    `## ${markdownText(changePointsHeading(result.changePoints))}`,
    '',
  ];
  // Behaviour first, with the evidence; identity changes (the error's class name) counted apart, grouped (issue 21).
  const behaviour = result.changePoints.filter((point) => point.kind === 'behaviour');
  const identity = groupIdentityPoints(result.changePoints);
  if (result.changePoints.length === 0) lines.push('None: every case behaved the same in every release that ran.', '');
  else if (behaviour.length === 0) lines.push('No behaviour change point: every case behaved the same in every release that ran, but for the identity changes below.', '');
  if (behaviour.length > 0) {
    lines.push('| case | before (through) | after (from) |', '| --- | --- | --- |');
    for (const point of behaviour) {
      lines.push(
        `| ${markdownCellCode(point.caseId)} | ${markdownText(describeBehaviour(point.before))} (≤ ${markdownText(point.through)}) | ${markdownText(describeBehaviour(point.after))} (from ${markdownText(point.from)}) |`,
      );
    }
    lines.push('');
    for (const point of behaviour) {
      const given = recordOf(result.releases, point.from, point.caseId)?.result;
      lines.push(
        `<details><summary>${htmlLine(describeChangePoint(point))}</summary>`,
        '',
        'Result the server was given:',
        '',
        markdownFence('json', JSON.stringify(given ?? null, null, 2)),
        '',
        ...evidence(recordOf(result.releases, point.through, point.caseId), point.through),
        '',
        ...evidence(recordOf(result.releases, point.from, point.caseId), point.from),
        '',
        '</details>',
        '',
      );
    }
  }
  if (identity.length > 0) {
    lines.push(
      `### Identity only: ${identity.reduce((sum, group) => sum + group.caseIds.length, 0)} change points`,
      '',
      `What names the failure changed, not what the application gets; the gates fail on these only with ${markdownCode('--gate-identity')}.`,
      '',
      ...identity.map((group) => `- ${markdownText(describeIdentityGroup(group))}`),
      '',
    );
  }
  const failed = result.releases.filter((run) => run.status === 'failed');
  lines.push(
    '## Report',
    '',
    markdownFence('text', renderSweepReport({ ...input, paint: undefined }).trimEnd()),
    '',
    '## Reproduce',
    '',
    // Never `npx <name>`: the harness is not on the npm registry, and a name anyone could register would
    // run a stranger's code (issue 21). The reader gets the harness the sweep names from its reporter.
    `Re-running the sweep needs the harness it names, ${markdownCode(env.harness)}, which is not on the npm registry: ask the reporter for its package tarball (${markdownCode('npm pack')} in its checkout) or its source, and never install a package of that name from the registry. With the tarball installed (${markdownCode('npm install --ignore-scripts ./<tarball>.tgz')}; in its checkout, ${markdownCode('npm run probe --')} instead):`,
    '',
    markdownFence('sh', `${shellCommand(['node_modules/.bin/mcp-sdk-probe', 'sweep'])} ${requestFlags(result.request)}${matrixFlag}${scenarioFlags}`),
    '',
  );
  if (scenarios !== undefined) {
    lines.push(
      `The sweep ran the scenario files of its ${markdownCode('--scenarios')} folder beside the matrix: the command needs the folder ${markdownCode(scenarios)}, with those files, in the folder it runs from; ask the reporter for it.` +
        (result.request.allowScenarioCode ? ` With ${markdownCode('--allow-scenario-code')} its TypeScript scenario modules run as code on your machine: read them first.` : ''),
      '',
    );
  } else if (result.matrix.name.endsWith('+scenarios')) {
    // A result written before the request named the folder: the command cannot name it.
    lines.push(`The sweep also ran scenario files of a ${markdownCode('--scenarios')} folder this result does not name: ask the reporter for it and add ${markdownCode('--scenarios <folder>')}.`, '');
  }
  if (failed.length > 0) lines.splice(lines.indexOf('## Report'), 0, `${failed.length} release(s) did not run: ${failed.map((run) => markdownCode(releaseKey(run.release))).join(', ')}`, '');
  return `${lines.join('\n')}\n`;
}
