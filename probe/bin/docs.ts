// Docs that cannot drift from the code (issue 23): docs/cli.md written from the command definitions and
// the exit-code tables, and every sample block in README.md and docs/**/*.md written from a real run of
// the CLI in-process (main(), colour off, machine details normalised). `npm run docs` (write-docs.ts)
// writes them; test/docs-cli.test.ts and test/docs-samples.test.ts fail when a file differs from a fresh run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { commandNames, main, type CliIo } from '../commands/cli.ts';
import { InputError, oneLine } from '../core/errors.ts';
import { markdownFence } from '../core/escape.ts';
import { EXIT, EXIT_MEANING, REPRO_EXIT, REPRO_EXIT_MEANING } from '../core/exit-code.ts';
import { HARNESS } from '../core/harness.ts';
import { writeFileAtomic } from '../io/files.ts';
import { PROJECT_ROOT } from '../io/project.ts';

export interface Sample {
  /** The CLI's arguments, as after `mcp-sdk-probe` (relative paths from the project folder). */
  readonly argv: readonly string[];
  /** What the docs should say was run to get it. */
  readonly command: string;
  /** Only the first this many lines of stdout (the rest of a long output is the page's prose to describe). */
  readonly firstLines?: number;
  /** With firstLines: also the last this many lines, after a `...` line standing for what is left out. */
  readonly lastLines?: number;
  /**
   * Needs the npm registry (it resolves or installs published releases): written by `npm run docs` and
   * checked by `npm run test:releases`, never by the offline `npm test`. Its marker says so too
   * (`<!-- sample: NAME registry -->`), so a reader of the Markdown knows which blocks need the network.
   */
  readonly registry?: boolean;
}

const PINNED_SDK_FOLDER = './node_modules/@modelcontextprotocol/sdk';
/** A scenario folder whose one scenario states an expectation the pinned v1 client does not meet. */
export const FAILING_SCENARIOS = 'test/fixtures/failing-expectation';

/** Every sample a doc may show, by the name its marker uses. */
export const SAMPLES = {
  'audit-table': { argv: [], command: 'npm run probe' },
  'audit-failing': { argv: ['--scenarios', FAILING_SCENARIOS], command: `npm run probe -- --scenarios ${FAILING_SCENARIOS}` },
  'replay-table': {
    argv: ['replay', 'scenarios/captures/error-with-structured-content.json'],
    command: 'npm run probe -- replay scenarios/captures/error-with-structured-content.json',
  },
  // The installed pinned SDK as a folder release: the same path as an unreleased build's, offline.
  // Only the two SDK lines, as a bug report about the official clients would replay it.
  'replay-capture-sdk': {
    argv: ['replay', 'scenarios/captures/error-with-structured-content.json', '--clients', 'v1,v2'],
    command: 'npm run probe -- replay scenarios/captures/error-with-structured-content.json --clients v1,v2',
  },
  // The header and the first family's table, then the comparison and the count: the page describes the other families.
  'ecosystem-table': { argv: ['--matrix', 'ecosystem'], command: 'npm run probe -- --matrix ecosystem', firstLines: 12, lastLines: 3 },
  'v1-folder-release': { argv: ['--v1', PINNED_SDK_FOLDER], command: `npm run probe -- --v1 ${PINNED_SDK_FOLDER}` },
  'sweep-folder': { argv: ['sweep', '--v1', PINNED_SDK_FOLDER], command: `npm run probe -- sweep --v1 ${PINNED_SDK_FOLDER}` },
  'explore-small': { argv: ['explore', '--runs', '40'], command: 'npm run probe -- explore --runs 40' },
  help: { argv: ['--help'], command: 'npm run probe -- --help' },
  // The two releases around v1's change point (1.11.4 started checking structuredContent against outputSchema:
  // results/sweep-baseline.json), as test/releases/sweep.test.ts sweeps them; a closed range of exact versions.
  'sweep-v1-range': { argv: ['sweep', '--v1', '1.11.3..1.11.4'], command: 'npm run probe -- sweep --v1 1.11.3..1.11.4', registry: true },
} as const satisfies Record<string, Sample>;

export type SampleName = keyof typeof SAMPLES;

const isSampleName = (name: string): name is SampleName => Object.hasOwn(SAMPLES, name);

/** What a sample shows instead of this machine's details; docs/cli.md lists them. */
export const PLACEHOLDERS = {
  '<node-version>': 'the Node.js version (process.version)',
  '<platform>/<arch>': 'the operating system and CPU (process.platform/process.arch)',
  '<project>': 'the absolute path of the project folder',
  '<tmp>': 'the absolute path of the temporary folder',
  '<hash>': "the label of a local build (a folder's is a hash of its absolute path: releases/cache.ts)",
  '<duration>': 'a time taken (ms, s)',
  '<time>': 'a date and time',
  '<commit>': 'a git commit',
} as const;

/** The normalisation of one run's output; the folders are those the run saw as its own. */
export function normaliseOutput(text: string, folders: { readonly project: string; readonly cwd: string }): string {
  const paths: [string, string][] = [
    [folders.cwd, '<project>'],
    [folders.project, '<project>'],
    [tmpdir(), '<tmp>'],
  ];
  let shown = text;
  // Longest first, so a project inside the temporary folder (the tests' copy) is <project>, not <tmp>/….
  for (const [path, placeholder] of paths.sort((a, b) => b[0].length - a[0].length)) shown = shown.split(path).join(placeholder);
  return shown
    .split(process.version)
    .join('<node-version>')
    .split(`${process.platform}/${process.arch}`)
    .join('<platform>/<arch>')
    .replace(/\+local\.[0-9a-f]{8}\b/g, '+local.<hash>')
    .replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?/g, '<time>')
    .replace(/\b[0-9a-f]{40}\b/g, '<commit>')
    .replace(/\b\d+(?:\.\d+)? ?(?:ms|s)\b/g, '<duration>');
}

export interface DocsRun {
  /** The working folder the CLI runs in: the project (npm run docs) or a stand-in laid out like it (tests). */
  readonly cwd: string;
}

async function runCli(argv: readonly string[], { cwd }: DocsRun): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    // Not a terminal, no colour (https://no-color.org), not CI: what a person sees piped through `cat`.
    env: { ...process.env, CI: '', NO_COLOR: '1' },
    cwd,
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

/** One sample's block body: the command as a prompt line, then stdout of a real run, normalised and cut as the table says. */
export async function renderSample(name: SampleName, run: DocsRun): Promise<string> {
  const sample: Sample = SAMPLES[name];
  const { code, stdout, stderr } = await runCli(sample.argv, run);
  // A sample is a run that went as the docs describe it (0 or 1: a failing case is a result); a usage
  // error or a crash would put its message into the docs.
  if (code !== EXIT.ok && code !== EXIT.failed) throw new Error(`sample ${name} (${sample.command}) exited ${code}: ${stderr.trim()}`);
  const lines = normaliseOutput(stdout, { project: PROJECT_ROOT, cwd: run.cwd }).replace(/\n+$/, '').split('\n');
  const shown =
    sample.firstLines === undefined || lines.length <= sample.firstLines + (sample.lastLines ?? 0)
      ? lines
      : [...lines.slice(0, sample.firstLines), ...(sample.lastLines ? ['...', ...lines.slice(-sample.lastLines)] : [])];
  return [`$ ${sample.command}`, ...shown].join('\n');
}

// ------------------------------------------------------------------------------------------- CLI reference

function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** docs/cli.md: every command's --help verbatim, the exit codes and the samples' placeholders. */
export async function renderCliReference(run: DocsRun): Promise<string> {
  const names = commandNames({ stdout: () => {}, stderr: () => {}, env: {}, cwd: run.cwd, stdoutIsTty: false, stderrIsTty: false });
  const help = async (argv: readonly string[]) => {
    const { code, stdout, stderr } = await runCli(argv, run);
    if (code !== EXIT.ok) throw new Error(`${argv.join(' ')} exited ${code}: ${stderr.trim()}`);
    return markdownFence('', stdout.replace(/\n+$/, ''));
  };
  const sections = [`## ${HARNESS.name}\n\nThe audit (no command).\n\n${await help(['--help'])}`];
  for (const name of names) sections.push(`## ${HARNESS.name} ${name}\n\n${await help([name, '--help'])}`);
  const exitRows = (Object.keys(EXIT) as (keyof typeof EXIT)[]).map((key) => [`${EXIT[key]}`, EXIT_MEANING[key]]);
  const reproRows = (Object.keys(REPRO_EXIT) as (keyof typeof REPRO_EXIT)[]).map((key) => [`${REPRO_EXIT[key]}`, REPRO_EXIT_MEANING[key]]);
  const placeholderRows = Object.entries(PLACEHOLDERS).map(([placeholder, meaning]) => [`\`${placeholder}\``, meaning]);
  return [
    '# CLI reference',
    '',
    '<!-- Generated by `npm run docs` (probe/bin/docs.ts) from the command definitions (probe/commands/cli.ts)',
    'and the exit-code tables (probe/core/exit-code.ts); test/docs-cli.test.ts fails when it differs. Do not edit. -->',
    '',
    `Every command's \`--help\` as \`${HARNESS.name}\` prints it when its output is not a terminal (wrapped at 80`,
    'columns; default paths as they show from the project folder).',
    '',
    '## Exit codes',
    '',
    `\`${HARNESS.name}\` and its commands (${names.map((name) => `\`${name}\``).join(', ')}) exit with:`,
    '',
    markdownTable(['code', 'meaning'], exitRows),
    '',
    'except the answers to "does it still reproduce" (a `--format repro` folder\'s `repro.mjs`, the evidence\'s',
    'Reproduce block, `explore --replay`), which exit so that `git bisect run` needs no wrapper (`repro.mjs',
    '--until-fixed` swaps 0 and 1, to find where a behaviour went away):',
    '',
    markdownTable(['code', 'meaning'], reproRows),
    '',
    '## Samples in these docs',
    '',
    'Every output sample in README.md and docs/ is a real run of the command it names (`npm run docs` writes',
    'them; test/docs-samples.test.ts fails when one differs from a fresh run), with colour off and these',
    "placeholders for the details of the machine that ran it:",
    '',
    markdownTable(['placeholder', 'stands for'], placeholderRows),
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------ Markers

export interface Marker {
  readonly name: SampleName;
  /** 1-based line of the marker comment. */
  readonly line: number;
  readonly registry: boolean;
  /** 0-based line indexes of the opening and closing fence. */
  readonly open: number;
  readonly close: number;
  readonly indent: string;
  readonly language: string;
  /** The block's body as it stands (indent removed). */
  readonly body: string;
}

const MARKER = /^(\s*)<!--\s*sample:\s*(\S+?)(\s+registry)?\s*-->\s*$/;
const MARKER_START = /^\s*<!--\s*sample:/;

/** The sample markers of one Markdown file; a malformed or unknown one is an InputError naming file:line. */
export function findMarkers(text: string, file: string): Marker[] {
  const lines = text.split('\n');
  const markers: Marker[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!MARKER_START.test(lines[i]!)) continue;
    const where = `${file}:${i + 1}`;
    const match = MARKER.exec(lines[i]!);
    if (!match) throw new InputError(`${where}: a sample marker is <!-- sample: NAME --> or <!-- sample: NAME registry -->`);
    const [, indent = '', name = '', registryWord] = match;
    if (!isSampleName(name)) throw new InputError(`${where}: unknown sample '${name}': the samples are ${Object.keys(SAMPLES).join(', ')} (probe/bin/docs.ts)`);
    const registry = registryWord !== undefined;
    const needsRegistry = (SAMPLES[name] as Sample).registry === true;
    if (registry !== needsRegistry) {
      throw new InputError(`${where}: sample '${name}' ${needsRegistry ? 'needs the npm registry: mark it <!-- sample: ' + name + ' registry -->' : 'runs offline: drop the word registry'}`);
    }
    let open = i + 1;
    while (open < lines.length && lines[open]!.trim() === '') open++;
    const fence = /^(\s*)(`{3,}|~{3,})([a-z0-9-]*)\s*$/.exec(lines[open] ?? '');
    if (!fence || fence[1] !== indent) throw new InputError(`${where}: sample '${name}' is not followed by a fenced block (\`\`\`) at its indentation`);
    const [, , ticks = '', language = ''] = fence;
    let close = open + 1;
    const closing = new RegExp(`^${indent}${ticks[0] === '`' ? '`' : '~'}{${ticks.length},}\\s*$`);
    while (close < lines.length && !closing.test(lines[close]!)) close++;
    if (close >= lines.length) throw new InputError(`${where}: sample '${name}': its fenced block is never closed`);
    const body = lines
      .slice(open + 1, close)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    markers.push({ name, line: i + 1, registry, open, close, indent, language, body });
    i = close;
  }
  return markers;
}

/** The file with every marked block's body replaced by its sample (each name's rendering given). */
export function replaceSamples(text: string, markers: readonly Marker[], rendered: ReadonlyMap<SampleName, string>): string {
  const lines = text.split('\n');
  for (const marker of [...markers].reverse()) {
    const body = rendered.get(marker.name);
    if (body === undefined) continue;
    const block = markdownFence(marker.language, body)
      .split('\n')
      .map((line) => (line === '' ? line : `${marker.indent}${line}`));
    lines.splice(marker.open, marker.close - marker.open + 1, ...block);
  }
  return lines.join('\n');
}

/** README.md and every docs/**\/*.md, as paths relative to the project (docs/cli.md is generated whole). */
export function markdownFiles(root: string = PROJECT_ROOT): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return walk(path);
      return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs')].map((path) => path.split(sep).join('/')).filter((path) => path !== CLI_REFERENCE);
}

export const CLI_REFERENCE = 'docs/cli.md';

/** Every marker of every doc, read from the project. */
export function allMarkers(root: string = PROJECT_ROOT): { file: string; text: string; markers: Marker[] }[] {
  return markdownFiles(root).map((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return { file, text, markers: findMarkers(text, file) };
  });
}

/** A marked block whose body is not what its sample renders now. */
export interface StaleSample {
  readonly file: string;
  readonly line: number;
  readonly name: SampleName;
}

/** The marked blocks that differ from their samples (a name missing from `rendered` is not checked). */
export function staleSamples(docs: ReturnType<typeof allMarkers>, rendered: ReadonlyMap<SampleName, string>): StaleSample[] {
  return docs.flatMap(({ file, markers }) =>
    markers.filter((marker) => rendered.has(marker.name) && rendered.get(marker.name) !== marker.body).map(({ line, name }) => ({ file, line, name })),
  );
}

export interface WriteDocsOptions {
  /** The folder whose README.md, docs/**\/*.md and docs/cli.md are read and written. */
  readonly root: string;
  /** Where the CLI runs (see DocsRun). */
  readonly run: DocsRun;
  /** Leave the samples that need the npm registry as they are. */
  readonly offline: boolean;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/**
 * `npm run docs`: every marked sample and docs/cli.md rendered, then each file that changed written
 * atomically. Exit 2 on a bad marker (named by file and line), before anything runs or is written; every
 * sample is rendered before the first write, so a sample that fails leaves every file as it was.
 */
export async function writeDocs({ root, run, offline, stdout, stderr }: WriteDocsOptions): Promise<number> {
  let docs: ReturnType<typeof allMarkers>;
  try {
    docs = allMarkers(root);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    stderr(`npm run docs: ${oneLine(error.message)}\n`);
    return EXIT.usage;
  }
  const wanted = [...new Set(docs.flatMap(({ markers }) => markers.map((marker) => marker.name)))];
  const rendered = new Map<SampleName, string>();
  // Each sample runs once however many docs show it.
  for (const name of wanted) {
    if (offline && (SAMPLES[name] as Sample).registry) continue;
    rendered.set(name, await renderSample(name, run));
  }
  const referencePath = join(root, CLI_REFERENCE);
  const outputs = docs.map(({ file, text, markers }) => ({ file, before: text, after: replaceSamples(text, markers, rendered) }));
  outputs.push({ file: CLI_REFERENCE, before: existsSync(referencePath) ? readFileSync(referencePath, 'utf8') : '', after: await renderCliReference(run) });
  for (const { file, before, after } of outputs) {
    if (before === after) continue;
    writeFileAtomic(join(root, file), after, file);
    stdout(`wrote ${file}\n`);
  }
  const skipped = wanted.filter((name) => !rendered.has(name));
  stdout(`${outputs.length} files checked, ${rendered.size} samples run${skipped.length ? `; left as they are (they need the npm registry): ${skipped.join(', ')}` : ''}\n`);
  return EXIT.ok;
}
