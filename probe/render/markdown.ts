// A self-contained Markdown evidence document for a bug report: the table, every case's tool, sent
// result and client outcome in <details>, what the rules say about each result, the comparison with the
// recorded result, the environment and the commands that reproduce it. GitHub-flavoured Markdown.
// Every value from a record, a capture, a file name or the command line goes through one escaping function
// of core/escape.ts (Markdown text, code span, table-cell code, fence; HTML inside <summary>; sh for the
// commands): only the template's own text and HTML are live (issue 20).
import { basename, isAbsolute } from 'node:path';
import type { Comparison } from '../core/compare.ts';
import type { CaseRecord, Finding, ResultFile } from '../core/domain.ts';
import { htmlLine, markdownCellCode, markdownCode, markdownFence, markdownText, shellCommand } from '../core/escape.ts';
import { splitClientPackage } from '../core/release.ts';
import { FIXTURE_PACKAGES } from '../core/fixture.ts';
import {
  COMPARISON_WORDING,
  describeChange,
  describeExpected,
  describeDropped,
  describeFixture,
  describeMismatch,
  describeObservation,
  DISCOVERY_WORDING,
  REJECTED_BY_WORDING,
  SERVER_WORDING,
  TRANSPORT_WORDING,
} from './describe.ts';

export interface EvidenceContext {
  /** The arguments the run was given, to repeat in "Reproduce". */
  readonly argv: readonly string[];
  /** The harness's git commit, when run from a git checkout (never its remote: that can be a local path). */
  readonly git?: { readonly commit: string; readonly dirty: boolean };
  /** The harness's published name and version, and its repository URL when package.json names one. */
  readonly harness: { readonly name: string; readonly version: string; readonly repository?: string };
  readonly recordedPath?: string;
}

const MARK = { pass: '✅', fail: '❌', unjudged: '➖' } as const satisfies Record<CaseRecord['verdict'], string>;

const json = (value: unknown) => JSON.stringify(value, null, 2);

function table(result: ResultFile): string[] {
  const key = (r: CaseRecord) => `${r.client} ${r.discovery}`;
  const columns = [...new Set(result.cases.map(key))];
  const shapes = [...new Set(result.cases.map((r) => r.shape))];
  const byCell = new Map(result.cases.map((r) => [`${r.shape}|${key(r)}`, r]));
  return [
    `| result shape | ${columns.join(' | ')} |`,
    `| --- | ${columns.map(() => '---').join(' | ')} |`,
    ...shapes.map((shape) => {
      const cells = columns.map((column) => {
        const record = byCell.get(`${shape}|${column}`);
        return record ? `${MARK[record.verdict]} ${markdownText(describeObservation(record.observed))}` : '·';
      });
      return `| ${markdownCellCode(shape)} | ${cells.join(' | ')} |`;
    }),
  ];
}

function observedSection(record: CaseRecord): string[] {
  const { observed } = record;
  switch (observed.outcome) {
    case 'returned': {
      const returned: Record<string, unknown> = {};
      if (observed.isError !== undefined) returned.isError = observed.isError;
      if (Object.hasOwn(observed, 'structuredContent')) returned.structuredContent = observed.structuredContent;
      if (observed.content !== undefined) returned.content = observed.content;
      if (observed.otherKeys) Object.assign(returned, observed.otherKeys);
      return ['**What the client did:** `callTool` resolved; it returned:', '', markdownFence('json', json(returned))];
    }
    case 'rejected':
      return [
        `**What the client did:** \`callTool\` threw ${markdownCode(observed.error.name)} with code ${markdownCode(String(observed.error.code ?? 'none'))}:`,
        '',
        markdownFence('text', observed.error.message),
        '',
        `**Rejected by:** ${REJECTED_BY_WORDING[observed.by]}.`,
      ];
    case 'timeout':
      return [`**What the client did:** nothing within ${observed.afterMs} ms (stage: ${observed.stage}); the case was stopped.`];
    case 'crashed':
      return [
        `**What the client did:** the case could not reach the call: during ${observed.stage}, ${markdownCode(observed.error.name)} was thrown:`,
        '',
        markdownFence('text', observed.error.message),
      ];
  }
}

function caseDetails(record: CaseRecord): string[] {
  // Inside <summary> Markdown is not parsed (an HTML block, CommonMark §4.6): HTML escapes, on one line.
  const summary = `<code>${htmlLine(record.id)}</code>: ${MARK[record.verdict]} ${htmlLine(describeObservation(record.observed))} (expected: ${htmlLine(describeExpected(record.expected))})`;
  const { serverSent } = record.observed;
  const dropped = record.observed.outcome === 'returned' || record.observed.outcome === 'rejected' ? describeDropped(record.observed.dropped) : '';
  const sent =
    serverSent === 'as-scenario'
      ? 'crossed the wire unchanged'
      : serverSent === 'nothing'
        ? 'was never sent'
        : serverSent === 'unknown'
          ? "may or may not have gone out: the case's thread was stopped before the server's report arrived"
        : 'error' in serverSent
          ? `was not sent: the server answered with JSON-RPC error ${serverSent.error.code} (${markdownText(serverSent.error.message)})`
          : 'was altered on the way out; what went out: ' + markdownText(JSON.stringify(serverSent.altered));
  return [
    '<details>',
    `<summary>${summary}</summary>`,
    '',
    `**Client:** ${markdownCode(record.clientPackage)}, ${record.discovery}: ${DISCOVERY_WORDING[record.discovery]}.`,
    '',
    `**Server:** ${describeFixture(record.fixture, record.transport)}.`,
    '',
    '**Tool definition** (as `tools/list` returned it):',
    '',
    markdownFence('json', json(record.tool)),
    '',
    `**Result the server sent** for \`tools/call\` (it ${sent}):`,
    '',
    markdownFence('json', json(record.result)),
    '',
    ...(dropped ? [`**Keys lost on the way:** ${markdownText(dropped)}.`, ''] : []),
    ...observedSection(record),
    ...(record.mismatches.length > 0 ? ['', '**Why it failed:**', '', ...record.mismatches.map((m) => `- ${markdownText(describeMismatch(m))}`)] : []),
    '',
    '</details>',
    '',
  ];
}

function lintSection(lint: Record<string, Finding[]> | undefined): string[] {
  if (!lint || Object.keys(lint).length === 0) return [];
  const lines = ['## What the rules say about each result', '', 'About the results themselves, whatever a client does with them:', ''];
  for (const [shape, findings] of Object.entries(lint)) {
    lines.push(`- ${markdownCode(shape)}`);
    for (const f of findings) lines.push(`  - **${f.level}** (${markdownCode(f.rule)}): ${markdownText(f.message)}. *Source: ${markdownText(f.source)}.*`);
  }
  return [...lines, ''];
}

function comparisonSection(comparison: Comparison | undefined, recordedPath: string | undefined): string[] {
  if (!comparison || !recordedPath) return [];
  const lines = ['## Compared with the recorded result', ''];
  if (comparison.recorded === 'missing') return [...lines, `No recorded result at ${markdownCode(recordedPath)}.`, ''];
  const counts = (Object.keys(COMPARISON_WORDING) as (keyof typeof COMPARISON_WORDING)[])
    .filter((kind) => comparison.counts[kind] > 0)
    .map((kind) => `${comparison.counts[kind]} ${kind}`)
    .join(', ');
  lines.push(`Against ${markdownCode(recordedPath)}: ${counts}.`, '');
  for (const entry of comparison.entries) {
    // Unchecked cases are ones this run did not select; the count above says how many.
    if (entry.kind === 'matched' || entry.kind === 'unchecked') continue;
    lines.push(`- ${COMPARISON_WORDING[entry.kind]} ${markdownCode(entry.id)}`);
    if (entry.kind === 'changed') for (const change of describeChange(entry)) lines.push(`  - ${markdownText(change)}`);
  }
  return [...lines, ''];
}

function environmentSection(result: ResultFile, context: EvidenceContext): string[] {
  const { environment } = result;
  const git = context.git ? ` (commit ${markdownCellCode(context.git.commit)}${context.git.dirty ? ', with uncommitted changes' : ''})` : '';
  const lines = [
    '## Environment',
    '',
    '| | |',
    '| --- | --- |',
    `| Node.js | ${markdownCellCode(environment.node)} |`,
    `| OS / architecture | ${markdownText(environment.platform)} / ${markdownText(environment.arch)} |`,
    `| harness | ${markdownCellCode(environment.harness)}${git} |`,
    ...[...new Set(result.cases.map((c) => c.fixture.server))].map((server) => {
      const pkg = FIXTURE_PACKAGES[server];
      return `| fixture server | ${SERVER_WORDING[server]}, from ${markdownCellCode(`${pkg}@${environment.packages[pkg] ?? '?'}`)} |`;
    }),
    ...[...new Set(result.cases.map((c) => c.transport))].map((transport) => `| transport | ${TRANSPORT_WORDING[transport]} |`),
    '',
    '| package | installed version | integrity |',
    '| --- | --- | --- |',
  ];
  for (const [name, version] of Object.entries(environment.packages)) {
    lines.push(`| ${markdownCellCode(name)} | ${markdownCellCode(version)} | ${environment.integrity?.[name] ? markdownCellCode(environment.integrity[name]) : 'unknown'} |`);
  }
  for (const { packageName, label } of [...new Set(result.cases.map((c) => c.clientPackage))].map(splitClientPackage)) {
    if (environment.packages[packageName] !== label) lines.push(`| ${markdownCellCode(packageName)} (client under test) | ${markdownCellCode(label)} | see the release cache |`);
  }
  return [...lines, ''];
}

function reproduceSection(result: ResultFile, context: EvidenceContext): string[] {
  let args = context.argv.filter((a, i, all) => !['--format', '--out'].includes(a) && !['--format', '--out'].includes(all[i - 1] ?? ''));
  const replayed = result.matrix.name === 'replay' && args[0] === 'replay' ? result.cases[0] : undefined;
  // A replay's capture is the user's own file: the document carries it, so the command names a copy.
  if (replayed) args = ['replay', 'capture.json', ...args.slice(2)];
  // A path of this machine means nothing to the reader: name the file only.
  args = args.map((a) => (isAbsolute(a) ? basename(a) : a));
  const capture = replayed
    ? ['Save the replayed tool and result as `capture.json`:', '', markdownFence('json', json({ tool: replayed.tool, result: replayed.result, ...(replayed.arguments !== undefined && { arguments: replayed.arguments }) })), '', 'then:', '']
    : [];
  // Every argument quoted for sh: pasted, the command runs with exactly these arguments (an unquoted
  // `--scenarios 'scen>pwned'` was a redirect).
  const rerun = [...args, '--format', 'markdown'];
  // A stranger reproduces with the published package at this version; a clone of the repository (when
  // package.json names one) at the recorded commit is the other way. Never a path of this machine.
  const command = shellCommand(['npx', '--yes', `${context.harness.name}@${context.harness.version}`, ...rerun]);
  const clone = context.harness.repository
    ? [
        '',
        'or from the source:',
        '',
        markdownFence(
          'sh',
          [
            `${shellCommand(['git', 'clone', context.harness.repository, context.harness.name])} && ${shellCommand(['cd', context.harness.name])}`,
            ...(context.git ? [shellCommand(['git', 'checkout', context.git.commit])] : []),
            'npm ci --ignore-scripts',
            shellCommand(['npx', context.harness.name, ...rerun]),
          ].join('\n'),
        ),
      ]
    : [];
  return ['## Reproduce', '', ...capture, markdownFence('sh', command), ...clone, ''];
}

export function renderMarkdown(result: ResultFile, comparison: Comparison | undefined, context: EvidenceContext): string {
  const clients = [...new Map(result.cases.map((r) => [r.client, r.clientPackage])).entries()].map(([line, pkg]) => `${line} = ${markdownCode(pkg)}`);
  const { passed, failed, unjudged } = result.summary;
  const lines = [
    `# How MCP TypeScript SDK clients treat these tool results: ${markdownText(result.matrix.title)}`,
    '',
    'For each result a server sends back from `tools/call`, what does each client\'s `callTool` do: hand it to the ' +
      'application (and with which `isError`, `structuredContent` and `content`), or throw (which error, which code)?',
    '',
    `Matrix ${markdownCode(result.matrix.name)} (${markdownText(result.matrix.source)}). Clients: ${clients.join(', ')}. Columns by what the client knew when it called:`,
    '',
    ...[...new Set(result.cases.map((c) => c.discovery))].map((mode) => `- ${markdownCode(mode)}: ${DISCOVERY_WORDING[mode]}`),
    '',
    `**${passed} passed, ${failed} failed${unjudged ? `, ${unjudged} unjudged (no expectation stated)` : ''}** against the expected outcomes.`,
    '',
    ...table(result),
    '',
    ...lintSection(result.lint),
    '## Cases',
    '',
    ...result.cases.flatMap(caseDetails),
    ...comparisonSection(comparison, context.recordedPath),
    ...environmentSection(result, context),
    ...reproduceSection(result, context),
    `<sub>Generated by ${markdownCode(result.environment.harness)}.</sub>`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * A short Markdown report for a CI job summary (`$GITHUB_STEP_SUMMARY`): the headline, the case × client
 * table, each failure with why, and the comparison in one line. The evidence document (`renderMarkdown`)
 * is the long form; a summary shows many runs on one page, so it has no per-case details.
 */
export function renderSummaryMarkdown(result: ResultFile, comparison: Comparison | undefined, heading: string = result.matrix.title): string {
  const clients = [...new Map(result.cases.map((r) => [r.client, r.clientPackage])).entries()].map(([line, pkg]) => `${line} = ${markdownCode(pkg)}`);
  const { passed, failed, unjudged } = result.summary;
  const failures = result.cases.filter((c) => c.verdict === 'fail');
  const counts =
    comparison && comparison.recorded !== 'missing'
      ? (Object.keys(COMPARISON_WORDING) as (keyof typeof COMPARISON_WORDING)[])
          .filter((kind) => comparison.counts[kind] > 0)
          .map((kind) => `${comparison.counts[kind]} ${kind}`)
          .join(', ')
      : undefined;
  const differing = comparison?.entries.filter((e) => e.kind !== 'matched' && e.kind !== 'unchecked') ?? [];
  const lines = [
    `### ${markdownText(heading)}`,
    '',
    `**${passed} passed, ${failed} failed${unjudged ? `, ${unjudged} unjudged (no expectation stated)` : ''}** · ${clients.join(' · ')}`,
    '',
    ...table(result),
    '',
    ...(failures.length > 0
      ? [
          '**Failed:**',
          '',
          ...failures.map((c) => `- ${MARK.fail} ${markdownCode(c.id)}: ${markdownText(c.mismatches.map(describeMismatch).join('; '))}`),
          '',
        ]
      : []),
    ...(comparison?.recorded === 'missing' ? ['No recorded result to compare with.', ''] : []),
    ...(counts !== undefined ? [`Compared with the recorded result: ${counts}.`, ''] : []),
    ...differing.flatMap((entry) => [
      `- ${COMPARISON_WORDING[entry.kind]} ${markdownCode(entry.id)}`,
      ...(entry.kind === 'changed' ? describeChange(entry).map((change) => `  - ${markdownText(change)}`) : []),
    ]),
    ...(differing.length > 0 ? [''] : []),
  ];
  return `${lines.join('\n')}\n`;
}
