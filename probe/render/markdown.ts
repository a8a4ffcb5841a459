// A self-contained Markdown evidence document for a bug report: the table, every case's tool, sent
// result and client outcome in <details>, what the rules say about each result, the comparison with the
// recorded result, the environment and the commands that reproduce it. GitHub-flavoured Markdown.
// Every value from a record, a capture, a file name or the command line goes through one escaping function
// of core/escape.ts (Markdown text, code span, table-cell code, fence; HTML inside <summary>; sh for the
// commands): only the template's own text and HTML are live (issue 20).
import { basename, isAbsolute } from 'node:path';
import type { Comparison } from '../core/compare.ts';
import type { CaseRecord, Finding, ResultFile } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import { htmlLine, markdownCellCode, markdownCode, markdownFence, markdownText, shellArgument, shellCommand, shellHeredoc } from '../core/escape.ts';
import { REPRO_EXIT } from '../core/exit-code.ts';
import { buildsOf, renderReproFolder, REPRO_EXIT_LINE, REPRO_SEVERAL_LINE, reproBuildLines, reproUnsupported, type ReproBuild, type ReproInput } from './repro.ts';
import { splitClientPackage } from '../core/release.ts';
import { FIXTURE_PACKAGES } from '../core/fixture.ts';
import {
  comparisonCounts,
  COMPARISON_WORDING,
  describeChange,
  describeExpected,
  describeDropped,
  describeFixture,
  describeMismatch,
  describeObservation,
  differencesBehaviourFirst,
  DISCOVERY_WORDING,
  identityListHeading,
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
  /**
   * What a standalone reproduction of each case needs (its scenario, record, packages, and the release
   * identities that ran): the Reproduce section writes one in a shell block. Absent: only the harness.
   */
  readonly reproduction?: readonly ReproInput[];
  /** `--gate-identity`: identity changes fail the run too (the comparison says whether they are gated). */
  readonly gateIdentity?: boolean;
}

/**
 * The bound of the Reproduce block: at most this many cases, and no more text than this in the files
 * it writes (one case's files are about 8 KiB), so an evidence document of a whole matrix stays readable;
 * failed and changed cases go first, and every case left out is named with the command that makes it.
 */
export const REPRO_BLOCK_CASES = 3;
export const REPRO_BLOCK_BYTES = 48 * 1024;

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

function comparisonSection(comparison: Comparison | undefined, recordedPath: string | undefined, gateIdentity: boolean): string[] {
  if (!comparison || !recordedPath) return [];
  const lines = ['## Compared with the recorded result', ''];
  if (comparison.recorded === 'missing') return [...lines, `No recorded result at ${markdownCode(recordedPath)}.`, ''];
  lines.push(`Against ${markdownCode(recordedPath)}: ${comparisonCounts(comparison, gateIdentity)}.`, '');
  return [...lines, ...differenceList(comparison, gateIdentity), ''];
}

/**
 * The differing cases as a Markdown list: behaviour first, then the identity-only changes under their
 * own item (issue 21 item 5). Unchecked cases are ones this run did not select; the counts say how many.
 */
function differenceList(comparison: Comparison, gateIdentity: boolean): string[] {
  const { behaviour, identity } = differencesBehaviourFirst(comparison);
  const item = (entry: (typeof behaviour)[number], indent: string) => [
    `${indent}- ${COMPARISON_WORDING[entry.kind]} ${markdownCode(entry.id)}`,
    ...(entry.kind === 'changed' ? describeChange(entry).map((change) => `${indent}  - ${markdownText(change)}`) : []),
  ];
  return [
    ...behaviour.flatMap((entry) => item(entry, '')),
    ...(identity.length > 0 ? [`- ${identityListHeading(gateIdentity)}:`, ...identity.flatMap((entry) => item(entry, '  '))] : []),
  ];
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

/**
 * The shell block that writes `files` into the current folder, installs them and runs repro.mjs: a quoted
 * here-document per file (shellHeredoc), then npm install (scripts off); a local build not yet where the
 * folder expects it, or an install that fails, is "could not run", 125, set as the block's status without
 * `exit`, which would close the shell it is pasted into.
 */
export function reproBlock(files: Record<string, string>, builds: readonly ReproBuild[] = []): string {
  const folders = [...new Set(Object.keys(files).filter((name) => name.includes('/')).map((name) => name.slice(0, name.lastIndexOf('/'))))];
  const couldNotRun = (why: string) => `echo ${shellArgument(`could not run: ${why}`)} >&2; (exit ${REPRO_EXIT.couldNotRun})`;
  const missing = builds.map((build) => `[ ! -${build.source === 'tarball' ? 'f' : 'd'} ${shellArgument(build.path)} ]`);
  return [
    ...(folders.length > 0 ? [shellCommand(['mkdir', '-p', ...folders])] : []),
    ...Object.entries(files).map(([name, text]) => shellHeredoc(name, text)),
    ...(missing.length > 0
      ? [`if ${missing.join(' || ')}; then ${couldNotRun(`put the build${builds.length > 1 ? 's' : ''} at ${builds.map((build) => build.path).join(', ')} first (see above)`)}`, 'elif']
      : ['if']),
  ]
    .join('\n')
    .concat(` npm install --ignore-scripts --no-audit --no-fund; then node repro.mjs; else ${couldNotRun('npm install failed')}; fi`);
}

const fileBytes = (files: Record<string, string>): number => Object.values(files).reduce((sum, text) => sum + Buffer.byteLength(text), 0);

interface BlockPlan {
  readonly files?: Record<string, string>;
  readonly inputs: readonly ReproInput[];
  readonly included: readonly string[];
  readonly leftOut: readonly string[];
  readonly unsupported: readonly { readonly id: string; readonly reason: string }[];
}

/** Which cases the block reproduces: failed, then changed, then the rest, within the bound. */
function planBlock(inputs: readonly ReproInput[], comparison: Comparison | undefined): BlockPlan {
  const changed = new Set(comparison?.entries.filter((entry) => entry.kind === 'changed').map((entry) => entry.id) ?? []);
  const rank = (input: ReproInput) => (input.record.verdict === 'fail' ? 0 : changed.has(input.record.id) ? 1 : 2);
  const ordered = inputs.map((input, index) => ({ input, index })).sort((a, b) => rank(a.input) - rank(b.input) || a.index - b.index).map(({ input }) => input);
  const unsupported: { id: string; reason: string }[] = [];
  const chosen: ReproInput[] = [];
  const leftOut: string[] = [];
  let files: Record<string, string> | undefined;
  for (const input of ordered) {
    const reason = reproUnsupported(input.scenario);
    if (reason) {
      unsupported.push({ id: input.scenario.id, reason });
      continue;
    }
    if (chosen.length >= REPRO_BLOCK_CASES) {
      leftOut.push(input.scenario.id);
      continue;
    }
    try {
      const candidate = renderReproFolder([...chosen, input]);
      if (chosen.length > 0 && fileBytes(candidate) > REPRO_BLOCK_BYTES) {
        leftOut.push(input.scenario.id);
        continue;
      }
      chosen.push(input);
      files = candidate;
    } catch (error) {
      // A release no package.json can name (say, a local build whose identity the run lost), or two
      // releases of one package the chosen cases cannot share: said, and the case is left to the harness.
      if (!(error instanceof InputError)) throw error;
      unsupported.push({ id: input.scenario.id, reason: error.message.replace(/^--format repro: /, '') });
    }
  }
  return { ...(files && { files }), inputs: chosen, included: chosen.map((input) => input.scenario.id), leftOut, unsupported };
}

function reproduceSection(result: ResultFile, comparison: Comparison | undefined, context: EvidenceContext): string[] {
  let args = context.argv.filter((a, i, all) => !['--format', '--out'].includes(a) && !['--format', '--out'].includes(all[i - 1] ?? ''));
  const replayed = result.matrix.name === 'replay' && args[0] === 'replay' ? result.cases[0] : undefined;
  // A replay's capture is the user's own file: the document carries it, so the command names a copy.
  if (replayed) args = ['replay', 'capture.json', ...args.slice(2)];
  // A path of this machine means nothing to the reader: name the file only.
  args = args.map((a) => (isAbsolute(a) ? basename(a) : a));
  const capture = replayed
    ? ['Save the replayed tool and result as `capture.json`:', '', markdownFence('json', json({ tool: replayed.tool, result: replayed.result, ...(replayed.arguments !== undefined && { arguments: replayed.arguments }) })), '', 'then:', '']
    : [];
  // The harness is not on the npm registry, and `npx --yes <name>` of a name anyone could register would
  // run a stranger's code (issue 21): the reader gets it from the reporter, by name, version and commit.
  const { harness } = context;
  const bin = shellCommand(['node_modules/.bin/mcp-sdk-probe']);
  const withoutCase = args.filter((a, i, all) => a !== '--case' && all[i - 1] !== '--case');
  const harnessCommand = (argv: readonly string[]) => `${bin} ${shellCommand(argv)}`.trimEnd();
  const identity = `${markdownCode(`${harness.name}@${harness.version}`)}${context.git ? `, commit ${markdownCode(context.git.commit)}${context.git.dirty ? ' with uncommitted changes' : ''}` : ''}`;
  const obtain = [
    `The harness is ${identity}. It is not on the npm registry: ask the reporter for its package tarball (${markdownCode('npm pack')} in its checkout) or its source${harness.repository ? ` (${markdownText(harness.repository)})` : ''}, and never install a package of that name from the registry. With the tarball installed in an empty folder (${markdownCode(`npm install --ignore-scripts ./${harness.name}-${harness.version}.tgz`)}; in its checkout, ${markdownCode('npm ci --ignore-scripts')} and ${markdownCode('npm run probe --')} instead):`,
    '',
  ];
  const rerun = ['### With the harness', '', ...obtain, ...capture, markdownFence('sh', harnessCommand([...args, '--format', 'markdown'])), ''];
  if (!context.reproduction) return ['## Reproduce', '', ...rerun];
  const plan = planBlock(context.reproduction, comparison);
  const list = (ids: readonly string[]) => ids.map((id) => markdownCode(id)).join(', ');
  const standalone = plan.files
    ? [
        `Paste this into an empty folder on a machine with only Node.js and npm: it writes a standalone reproduction of ${plan.included.length === 1 ? 'case' : `${plan.included.length} cases:`} ${list(plan.included)} (exact pins${Object.values(JSON.parse(plan.files['package.json']!).dependencies as Record<string, string>).some((spec) => spec.startsWith('npm:')) ? ', npm aliases where two releases of one package meet' : ''}), installs it with scripts off, runs it and prints ${markdownCode('reproduced: …')} or ${markdownCode('not reproduced: …')} with what the client did. Nothing of the harness is needed.`,
        '',
        REPRO_EXIT_LINE,
        ...(plan.included.length > 1 ? ['', REPRO_SEVERAL_LINE] : []),
        '',
        ...reproBuildLines(plan.inputs),
        markdownFence('sh', reproBlock(plan.files, buildsOf(plan.inputs))),
        '',
      ]
    : ['No case of this run can be reproduced without the harness.', ''];
  const leftOut =
    plan.leftOut.length > 0
      ? [
          `Left out of the block (it holds at most ${REPRO_BLOCK_CASES} cases, ${REPRO_BLOCK_BYTES / 1024} KiB; failed and changed cases first): ${list(plan.leftOut)}. With the harness ${replayed ? `and ${markdownCode('capture.json')} (above)` : '(below)'}, the standalone folder of one of them:`,
          '',
          markdownFence('sh', harnessCommand([...withoutCase, '--case', plan.leftOut[0]!, '--format', 'repro', '--out', 'repro'])),
          '',
          'and the same with each other case id after `--case`.',
          '',
        ]
      : [];
  const unsupported =
    plan.unsupported.length > 0
      ? ['Not reproducible without the harness:', '', ...plan.unsupported.map(({ id, reason }) => `- ${markdownCode(id)}: ${markdownText(reason)}`), '']
      : [];
  // A replay's left-out hint runs `replay capture.json`: it follows the harness section, which says how to
  // get the harness and to save capture.json, so each command's inputs come before it (issue 21).
  if (replayed) return ['## Reproduce', '', ...standalone, ...unsupported, ...rerun, ...leftOut];
  return ['## Reproduce', '', ...standalone, ...leftOut, ...unsupported, ...rerun];
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
    ...comparisonSection(comparison, context.recordedPath, context.gateIdentity === true),
    ...environmentSection(result, context),
    ...reproduceSection(result, comparison, context),
    `<sub>Generated by ${markdownCode(result.environment.harness)}.</sub>`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * A short Markdown report for a CI job summary (`$GITHUB_STEP_SUMMARY`): the headline, the case × client
 * table, each failure with why, and the comparison in one line. The evidence document (`renderMarkdown`)
 * is the long form; a summary shows many runs on one page, so it has no per-case details.
 */
export function renderSummaryMarkdown(
  result: ResultFile,
  comparison: Comparison | undefined,
  heading: string = result.matrix.title,
  options: { readonly gateIdentity?: boolean } = {},
): string {
  const clients = [...new Map(result.cases.map((r) => [r.client, r.clientPackage])).entries()].map(([line, pkg]) => `${line} = ${markdownCode(pkg)}`);
  const { passed, failed, unjudged } = result.summary;
  const failures = result.cases.filter((c) => c.verdict === 'fail');
  const gateIdentity = options.gateIdentity === true;
  const counts = comparison && comparison.recorded !== 'missing' ? comparisonCounts(comparison, gateIdentity) : undefined;
  const differing = comparison ? differenceList(comparison, gateIdentity) : [];
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
    ...differing,
    ...(differing.length > 0 ? [''] : []),
  ];
  return `${lines.join('\n')}\n`;
}
