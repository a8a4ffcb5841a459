// What explore writes and reads: one finding as a replayable sequence file and a Markdown page, the
// known-findings file (results/explore-known.json) and the comparison with it. The file formats are zod
// schemas (files come from users); the comparison and the pages are pure functions.
import { z } from 'zod';
import { markdownCellCode, markdownCode, markdownFence, markdownText, shellCommand } from '../core/escape.ts';
import { SdkLineSchema } from '../core/domain.ts';
import { terminalLine } from '../core/escape.ts';
import { jsonText, sortKeys } from '../io/json-files.ts';
import type { Finding } from './explore.ts';
import type { UserScenario } from '../io/user-scenarios.ts';
import { describeSequence, describeStep, initialState, pageCount, PROPERTIES, resultFor, toJsonSchema, toolDefinition, type PropertyName, type Sequence } from './model.ts';
import { ORACLES, type Violation } from './oracles.ts';
import type { LineTrace } from './trace.ts';

const Property = z.enum(Object.keys(PROPERTIES) as [PropertyName, ...PropertyName[]]);
const ShapeSchema = z
  .object({ properties: z.array(Property).min(1), required: z.array(Property), closed: z.boolean() })
  .strict()
  .refine((s) => s.required.every((p) => s.properties.includes(p)), 'required names a property the schema does not declare');
const Index = z.number().int().nonnegative();
const StepSchema = z.discriminatedUnion('do', [
  z.object({ do: z.literal('list'), how: z.enum(['plain', 'all-pages', 'page']), page: Index.optional(), fail: z.literal(true).optional() }).strict(),
  z.object({ do: z.literal('change'), tool: Index, notify: z.boolean() }).strict(),
  z
    .object({
      do: z.literal('call'),
      tool: Index,
      conforms: z.enum(['current', 'earlier', 'none']),
      isError: z.boolean(),
      structured: z.boolean(),
      definition: z.literal(true).optional(),
    })
    .strict(),
  z.object({ do: z.literal('reconnect') }).strict(),
]);
export const SequenceSchema = z
  .object({
    server: z
      .object({
        pageSize: z.number().int().positive(),
        tools: z.array(z.object({ name: z.string().min(1), versions: z.array(ShapeSchema).min(1) }).strict()).min(1),
      })
      .strict(),
    steps: z.array(StepSchema),
  })
  .strict()
  // The model takes indexes modulo the server's counts (model.ts toolIndex: shrinking may drop tools under
  // a generated step), and explore writes findings normalised (explore.ts normaliseSequence). A file's index
  // past the server's arrays was never written by explore: silently wrapped, it would replay another
  // sequence than the one it names, so it is refused, naming the field (issue 20).
  .superRefine((sequence, context) => {
    const tools = sequence.server.tools.length;
    const pages = Math.ceil(tools / sequence.server.pageSize);
    sequence.steps.forEach((step, i) => {
      if ((step.do === 'call' || step.do === 'change') && step.tool >= tools) {
        context.addIssue({ code: 'custom', path: ['steps', i, 'tool'], message: `tool ${step.tool} is past the server's ${tools} tool${tools === 1 ? '' : 's'} (0 to ${tools - 1})` });
      }
      if (step.do === 'list' && step.page !== undefined) {
        if (step.how !== 'page') context.addIssue({ code: 'custom', path: ['steps', i, 'page'], message: `a page is given only with how "page", not "${step.how}"` });
        else if (step.page >= pages) {
          context.addIssue({ code: 'custom', path: ['steps', i, 'page'], message: `page ${step.page} is past the server's ${pages} page${pages === 1 ? '' : 's'} (0 to ${pages - 1})` });
        }
      }
    });
  }) satisfies z.ZodType<Sequence>;

export const FINDING_FILE_VERSION = 1;
/** A finding as a file: what `explore --replay FILE` runs. */
export const FindingFileSchema = z
  .object({
    schemaVersion: z.literal(FINDING_FILE_VERSION),
    class: z.string(),
    oracle: z.enum(ORACLES),
    clients: z.array(SdkLineSchema).min(1),
    sequence: SequenceSchema,
  })
  .strict();
export type FindingFile = z.infer<typeof FindingFileSchema>;

/** A finding's file name (without extension): its class as a kebab-case slug. */
export function findingSlug(findingClass: string): string {
  return findingClass
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const canonical = (value: unknown) => `${jsonText(sortKeys(value), 2)}\n`;

export function serializeFinding(finding: Finding): string {
  const file: FindingFile = { schemaVersion: FINDING_FILE_VERSION, class: finding.class, oracle: finding.oracle, clients: [...finding.clients], sequence: finding.sequence as FindingFile['sequence'] };
  return canonical(file);
}

/**
 * The finding as a scenario file for `--scenarios DIR`, when its minimal sequence is one the scenario
 * format can say: one tool, then a call either cold or after the plain listing (warm), with no
 * definition handed over. Each client's expectation is what it did here (the scenario records the
 * behaviour; the finding says why it breaks an oracle). Longer sequences have no scenario form: their
 * replay is `explore --replay` of the finding file.
 */
export function scenarioOf(finding: Pick<Finding, 'class' | 'sequence'>, traces: readonly LineTrace[]): UserScenario | undefined {
  const { server, steps } = finding.sequence;
  const call = steps.at(-1);
  if (server.tools.length !== 1 || call?.do !== 'call' || call.definition) return undefined;
  const before = steps.slice(0, -1);
  const discovery = before.length === 0 ? 'cold' : before.length === 1 && before[0]!.do === 'list' && before[0]!.how === 'plain' && !before[0]!.fail ? 'warm' : undefined;
  if (!discovery) return undefined;
  const state = initialState(server);
  const expected: UserScenario['expected'] = {};
  for (const trace of traces) {
    const event = trace.events.find((e) => e.event === 'call');
    if (event?.event !== 'call' || event.settled.outcome === 'stalled') return undefined;
    const { settled } = event;
    expected[`${trace.client}/${discovery}`] =
      settled.outcome === 'returned' ? 'returned' : settled.error.code === null ? 'rejected' : `rejected:${settled.error.code}`;
  }
  return {
    shape: `explore-${findingSlug(finding.class)}`,
    title: `explore finding ${finding.class}: ${describeSequence(finding.sequence)}`,
    tool: toolDefinition(server, state, 0),
    result: resultFor(server, state, call),
    expected,
  };
}

export function serializeScenario(scenario: UserScenario): string {
  return canonical(scenario);
}

export const KNOWN_FILE_VERSION = 1;
export const ExploreSettingsSchema = z
  .object({ seed: z.number().int(), runs: z.number().int().positive(), clients: z.array(SdkLineSchema).min(1), maxSteps: z.number().int().positive() })
  .strict();
export type RecordedSettings = z.infer<typeof ExploreSettingsSchema>;
export const KnownFileSchema = z
  .object({
    schemaVersion: z.literal(KNOWN_FILE_VERSION),
    /** The settings the findings were recorded with: the same settings must find them all again. */
    settings: ExploreSettingsSchema,
    findings: z.array(z.object({ class: z.string(), sequence: z.string(), file: z.string() }).strict()),
  })
  .strict();
export type KnownFile = z.infer<typeof KnownFileSchema>;

export function knownFileOf(settings: RecordedSettings, findings: readonly Finding[]): string {
  const file: KnownFile = {
    schemaVersion: KNOWN_FILE_VERSION,
    settings,
    findings: findings.map((f) => ({ class: f.class, sequence: describeSequence(f.sequence), file: `${findingSlug(f.class)}.json` })),
  };
  return canonical(file);
}

export interface KnownComparison {
  /** Found and known. */
  readonly known: readonly string[];
  /** Found, not in the known-findings file: these fail the run. */
  readonly new: readonly string[];
  /**
   * Known, not found, although this run used the recorded settings (same seed, same sequences): the
   * file is stale and fails the run. With other settings a known finding may simply not come up.
   */
  readonly stale: readonly string[];
  readonly sameSettings: boolean;
}

export function compareWithKnown(known: KnownFile | undefined, found: readonly Finding[], settings: RecordedSettings): KnownComparison {
  const knownClasses = new Set(known?.findings.map((f) => f.class) ?? []);
  const foundClasses = new Set(found.map((f) => f.class));
  const sameSettings = known !== undefined && JSON.stringify(sortKeys(known.settings)) === JSON.stringify(sortKeys(settings));
  return {
    known: [...foundClasses].filter((c) => knownClasses.has(c)),
    new: [...foundClasses].filter((c) => !knownClasses.has(c)),
    stale: sameSettings ? [...knownClasses].filter((c) => !foundClasses.has(c)).sort() : [],
    sameSettings,
  };
}

/** 1 when a finding is new or the known-findings file is stale; 0 otherwise. */
export function exploreExitCode(comparison: KnownComparison, updated: boolean): 0 | 1 {
  if (updated) return 0;
  return comparison.new.length > 0 || comparison.stale.length > 0 ? 1 : 0;
}

/** Why the violation is one, in a sentence. */
export function explainViolation(violation: Violation): string {
  switch (violation.oracle) {
    case 'schema-consistency': {
      const what = {
        'rejected-conforming': 'rejected a result that conforms to the schema it should validate against',
        'returned-nonconforming': 'handed back a result that does not conform to the schema it should validate against',
        'rejected-unlisted': 'rejected a result with its outputSchema check although it was given no schema for the tool on this connection',
      }[violation.kind];
      const from = violation.context === 'definition' ? 'the definition the application handed it' : violation.context === 'unlisted' ? 'no schema' : `the most recent listing that contained the tool (\`${violation.context}\`)`;
      return `At step ${violation.step + 1} the ${violation.client} client ${what}; the schema that applies is ${from}.`;
    }
    case 'differential':
      return `At step ${violation.step + 1} the ${violation.clients[0]} and ${violation.clients[1]} clients settled the same call (a ${violation.sent} result) differently: ${violation.settled[0]} and ${violation.settled[1]}.`;
    case 'no-silent-crash':
      return `At step ${violation.step + 1} the ${violation.client} client did not settle cleanly: ${violation.kind}.`;
  }
}

/** The sequence as numbered steps, each with what the server listed and what each client did, as Markdown. */
function stepLines(sequence: Sequence, traces: readonly LineTrace[]): string[] {
  return sequence.steps.map((step, i) => {
    const seen = traces.map((trace) => {
      const parts: string[] = [];
      for (const event of trace.events) {
        if (!('step' in event) || event.step !== i) continue;
        if (event.event === 'listed') parts.push(`listed [${event.tools.map((t) => t.name).join(', ')}]`);
        if (event.event === 'list-refused') parts.push('listing refused');
        if (event.event === 'call') {
          const s = event.settled;
          parts.push(`sent ${JSON.stringify(event.sent)} → ${s.outcome === 'rejected' ? `rejected by ${s.by} (${s.error.name} ${String(s.error.code)}: ${s.error.message.split('\n')[0]!.slice(0, 160)})` : s.outcome}`);
        }
        if (event.event === 'action-failed') parts.push(event.error ? `threw ${event.error.name}: ${event.error.message.split('\n')[0]!.slice(0, 160)}` : 'did not settle');
        if (event.event === 'uncaught') parts.push(`uncaught ${event.error.name}: ${event.error.message.split('\n')[0]}`);
      }
      // Tool names and error messages are the server's and the clients' words: text, never Markdown.
      return parts.length > 0 ? `\n   - ${trace.client}: ${markdownText(parts.join('; '))}` : '';
    });
    return `${i + 1}. ${markdownCode(describeStep(step))}${seen.join('')}`;
  });
}

export interface FindingPageInput {
  readonly finding: Pick<Finding, 'class' | 'oracle' | 'clients' | 'sequence'>;
  readonly violation?: Violation;
  readonly traces: readonly LineTrace[];
  /** The client packages and versions the traces come from. */
  readonly packages: Readonly<Record<string, string>>;
  /** The finding file as the reader would name it. */
  readonly file: string;
}

/**
 * A finding as Markdown, for a bug report: the minimal sequence, what each client did, how to replay it.
 * A finding file is a stranger's (`--replay FILE`): its class, tool names and path go through
 * core/escape.ts, so only this template is live (issue 20). explainViolation's sentences are the
 * project's own words about enums and step numbers.
 */
export function renderFindingMarkdown(input: FindingPageInput): string {
  const { finding, traces } = input;
  const { server } = finding.sequence;
  const lines = [
    `# explore finding: ${markdownText(finding.class)}`,
    '',
    input.violation ? explainViolation(input.violation) : `Oracle: ${finding.oracle}; clients: ${finding.clients.join(', ')}.`,
    '',
    `Minimal sequence (shrunk by fast-check): ${markdownCode(describeSequence(finding.sequence))}`,
    '',
    `## Server (${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}, ${server.pageSize} per tools/list page, ${pageCount(server)} page${pageCount(server) === 1 ? '' : 's'})`,
    '',
    '| # | name | page | outputSchema versions (the first is listed at the start; a change moves to the next) |',
    '| --- | --- | --- | --- |',
    ...server.tools.map((t, i) => `| ${i} | ${markdownText(t.name)} | ${Math.floor(i / server.pageSize) + 1} | ${t.versions.map((v) => markdownCellCode(JSON.stringify(toJsonSchema(v)))).join(' → ')} |`),
    '',
    'Notation: `{b?,…}` is an object schema with an optional `b` (`b` without `?`: required) that allows other properties (no `…`: `additionalProperties: false`); `/1` is the page size; `call(i):current|earlier|none` sends a result conforming to tool i\'s current schema, its previous one, or none, `no-sc` without structuredContent, `isError` as an error, `def` with the definition handed to v2\'s callTool.',
    '',
    '## Steps, and what each client did',
    '',
    ...stepLines(finding.sequence, traces),
    '',
    '## Replay',
    '',
    // Never `npx <name>`: the harness is not on the npm registry, and a name anyone could register would run
    // a stranger's code (issue 21). The reader gets the harness from the reporter.
    'With the harness (`mcp-sdk-probe`; it is not on the npm registry: ask the reporter for its package tarball or its source, and never install a package of that name from the registry), in the folder holding this finding\'s file:',
    '',
    markdownFence('sh', shellCommand(['node_modules/.bin/mcp-sdk-probe', 'explore', '--replay', input.file])),
    '',
    'Exit 1 while the finding reproduces (git bisect: bad), 0 once it does not (good), 125 when it could not run (skip).',
    '',
    `Clients: ${Object.entries(input.packages)
      .map(([name, version]) => markdownText(`${name}@${version}`))
      .join(', ')}.`,
    '',
  ];
  return lines.join('\n');
}

/** The findings table the run prints: oracle, clients, the minimal sequence in one line, the file, known or new. */
export function renderFindingsTable(findings: readonly Finding[], comparison: KnownComparison, fileOf: (f: Finding) => string): string {
  if (findings.length === 0) return 'no findings\n';
  // Each cell on one line with control characters shown as escapes, before the widths are measured (issue 20).
  const rows = findings.map((f) => [comparison.new.includes(f.class) ? 'NEW' : 'known', f.oracle, f.clients.join('+'), describeSequence(f.sequence), fileOf(f)].map(terminalLine));
  const header = ['', 'oracle', 'clients', 'minimal sequence', 'file'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

