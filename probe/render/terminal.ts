// The terminal report: the audit's table (result shape × client), failure details, the comparison with
// the recorded result, and the summary line. Formatting only; colour is injected.
//
// Every piece that came from data (ids, packages, observations, error messages, rule findings, paths)
// goes through terminalLine before it is padded or painted (issue 20): a control sequence in it is shown
// as an escape, never emitted, while the paint's own colour codes still reach the terminal.
import type { Comparison } from '../core/compare.ts';
import type { CaseRecord, ResultFile, ResultHeader } from '../core/domain.ts';
import { terminalLine } from '../core/escape.ts';
import { comparisonCounts, COMPARISON_WORDING, describeChange, describeExpected, describeMismatch, describeObservation, differencesBehaviourFirst, DISCOVERY_WORDING, identityListHeading, mismatchesBeyondHeadline } from './describe.ts';

export interface Paint {
  readonly pass: (text: string) => string;
  readonly fail: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

const identity = (text: string) => text;
export const NO_COLOUR: Paint = { pass: identity, fail: identity, dim: identity, bold: identity };

/**
 * What the report shows of one case. A long run keeps only this of each case, not its record (issue 10:
 * memory does not grow with the records' payloads); `caseLine` makes it from a record.
 */
export interface CaseLine {
  readonly id: string;
  readonly client: CaseRecord['client'];
  readonly clientPackage: string;
  readonly discovery: CaseRecord['discovery'];
  readonly shape: string;
  readonly family?: string;
  readonly verdict: CaseRecord['verdict'];
  /** The observation as the table words it. */
  readonly observation: string;
  /** A failed case's details: what was expected, and each mismatch its headline does not state, as worded. */
  readonly failure?: { readonly expected: string; readonly mismatches: readonly string[] };
}

export function caseLine(record: CaseRecord): CaseLine {
  return {
    id: record.id,
    client: record.client,
    clientPackage: record.clientPackage,
    discovery: record.discovery,
    shape: record.shape,
    ...(record.family !== undefined && { family: record.family }),
    verdict: record.verdict,
    observation: describeObservation(record.observed),
    ...(record.verdict === 'fail' && { failure: { expected: describeExpected(record.expected), mismatches: mismatchesBeyondHeadline(record.mismatches).map(describeMismatch) } }),
  };
}

/** A result as the report needs it: whole, or its header and a line per case (in case order). */
export type ReportedResult = ResultFile | (ResultHeader & { readonly caseLines: readonly CaseLine[] });

export interface TerminalReportInput {
  readonly result: ReportedResult;
  /** undefined: nothing to compare with (a replay). */
  readonly comparison: Comparison | undefined;
  /** Print what the rules say about each result (the replay's question is about the user's result). */
  readonly showLint?: boolean;
  /** Shown as given: relative paths stay relative so the report is the same on every machine. */
  readonly recordedPath: string;
  readonly updatedRecorded: boolean;
  readonly writtenPath: string | undefined;
  readonly paint?: Paint;
  /** `--gate-identity`: identity changes fail the run too (the report says whether they are gated). */
  readonly gateIdentity?: boolean;
}

const PASS_MARK = '✓';
const FAIL_MARK = '✗';
const UNJUDGED_MARK = '•';
const MARK = { pass: PASS_MARK, fail: FAIL_MARK, unjudged: UNJUDGED_MARK } as const satisfies Record<CaseRecord['verdict'], string>;

/** A case line as the terminal shows it: each of its texts on one line, control characters shown as escapes. */
function shownCaseLine(line: CaseLine): CaseLine {
  return {
    ...line,
    id: terminalLine(line.id),
    clientPackage: terminalLine(line.clientPackage),
    shape: terminalLine(line.shape),
    ...(line.family !== undefined && { family: terminalLine(line.family) }),
    observation: terminalLine(line.observation),
    ...(line.failure && { failure: { expected: terminalLine(line.failure.expected), mismatches: line.failure.mismatches.map(terminalLine) } }),
  };
}

function columnKey(record: CaseLine): string {
  return `${record.client} ${record.discovery}`;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - [...text].length));
}

function renderTable(cases: readonly CaseLine[], paint: Paint): string[] {
  const columns = [...new Set(cases.map(columnKey))];
  const shapes = [...new Set(cases.map((record) => record.shape))];
  const cell = new Map(cases.map((record) => [`${record.shape}|${columnKey(record)}`, record]));
  const text = (record: CaseLine | undefined) => (record ? `${MARK[record.verdict]} ${record.observation}` : '·');
  const shapeWidth = Math.max('result shape'.length, ...shapes.map((shape) => shape.length));
  const widths = columns.map((column) =>
    Math.max(column.length, ...shapes.map((shape) => [...text(cell.get(`${shape}|${column}`))].length)),
  );
  const lines = [paint.bold([pad('result shape', shapeWidth), ...columns.map((c, i) => pad(c, widths[i] ?? 0))].join('  ').trimEnd())];
  for (const shape of shapes) {
    const cells = columns.map((column, i) => {
      const record = cell.get(`${shape}|${column}`);
      const padded = pad(text(record), widths[i] ?? 0);
      if (!record) return paint.dim(padded);
      return record.verdict === 'fail' ? paint.fail(padded) : record.verdict === 'pass' ? paint.pass(padded) : padded;
    });
    lines.push([pad(shape, shapeWidth), ...cells].join('  ').trimEnd());
  }
  return lines;
}

/**
 * The audit's cases (no family) form one table; extended cases get a table per family, headed by the
 * family's name, so a reader sees discovery, edge values, schemas, server side and faults apart.
 */
function groupedTables(cases: readonly CaseLine[], paint: Paint): string[] {
  const families = [...new Set(cases.map((c) => c.family ?? ''))];
  return families.flatMap((family) => [
    '',
    ...(family ? [paint.bold(`family: ${family}`)] : []),
    ...renderTable(
      cases.filter((c) => (c.family ?? '') === family),
      paint,
    ),
  ]);
}

export function renderTerminalReport(input: TerminalReportInput): string {
  const { result, comparison, paint = NO_COLOUR } = input;
  const cases = ('caseLines' in result ? result.caseLines : result.cases.map(caseLine)).map(shownCaseLine);
  const clients = [...new Map(cases.map((record) => [record.client, record.clientPackage])).entries()]
    .map(([line, pkg]) => `${line} = ${pkg}`)
    .join(' · ');
  const { environment } = result;
  const lines = [
    paint.bold(terminalLine(`${environment.harness} · matrix ${result.matrix.name}: ${result.matrix.title}`)),
    paint.dim(terminalLine(`${clients} · node ${environment.node} ${environment.platform}/${environment.arch}`)),
    ...groupedTables(cases, paint),
    '',
    ...[...new Set(cases.map((c) => c.discovery))].map((mode) => paint.dim(`${mode}: ${DISCOVERY_WORDING[mode]}`)),
  ];

  const failures = cases.filter((record) => record.verdict === 'fail');
  if (failures.length > 0) {
    lines.push('', paint.bold('Failed cases'));
    for (const record of failures) {
      lines.push(paint.fail(`${FAIL_MARK} ${record.id}: expected ${record.failure?.expected}, observed ${record.observation}`));
      for (const mismatch of record.failure?.mismatches ?? []) lines.push(`    ${mismatch}`);
    }
  }

  if (input.showLint && result.lint) {
    lines.push('', paint.bold('What the rules say about the result'));
    for (const [shape, findings] of Object.entries(result.lint)) {
      for (const f of findings) {
        const text = terminalLine(`  ${shape}: ${f.level}: ${f.message} [${f.rule}]`);
        lines.push(f.level === 'error' ? paint.fail(text) : f.level === 'warning' ? text : paint.dim(text));
      }
    }
  }

  lines.push('');
  if (comparison) lines.push(...comparisonLines(comparison, input, paint));
  if (input.writtenPath) lines.push(terminalLine(`Result written to ${input.writtenPath}`));
  const { passed, failed, unjudged } = result.summary;
  const summary = `${passed} passed, ${failed} failed${unjudged ? `, ${unjudged} unjudged (no expectation stated)` : ''}`;
  lines.push((failed > 0 ? paint.fail : paint.pass)(summary));
  return `${lines.join('\n')}\n`;
}

function comparisonLines(comparison: Comparison, input: TerminalReportInput, paint: Paint): string[] {
  const lines: string[] = [];
  const recordedPath = terminalLine(input.recordedPath);
  const gateIdentity = input.gateIdentity === true;
  const counts = comparisonCounts(comparison, gateIdentity);
  if (comparison.recorded === 'missing') {
    lines.push(
      input.updatedRecorded
        ? `Recorded result created: ${recordedPath} (--update)`
        : paint.fail(`No recorded result at ${recordedPath}: every case is new. Record one with --update.`),
    );
  } else {
    lines.push(
      input.updatedRecorded
        ? `Recorded result rewritten: ${recordedPath} (--update; before it: ${counts})`
        : `Compared with ${recordedPath}: ${counts || 'nothing to compare'}`,
    );
    // Behaviour first; identity-only changes apart, failing the run only with --gate-identity (issue 21 item 5).
    const { behaviour, identity } = differencesBehaviourFirst(comparison);
    const entryLines = (entry: (typeof behaviour)[number], indent: string, gated: boolean) => {
      const headline = terminalLine(`${indent}${COMPARISON_WORDING[entry.kind]} ${entry.id}`);
      lines.push(input.updatedRecorded ? paint.dim(headline) : gated ? paint.fail(headline) : paint.dim(headline));
      if (entry.kind === 'changed') for (const change of describeChange(entry)) lines.push(terminalLine(`${indent}    ${change}`));
    };
    for (const entry of behaviour) entryLines(entry, '  ', true);
    if (identity.length > 0) {
      lines.push(paint.dim(`  ${identityListHeading(gateIdentity)}:`));
      for (const entry of identity) entryLines(entry, '    ', gateIdentity);
    }
    // Unchecked cases are the ones --case left out: one summary line, not a line each (~150 for extended).
    if (comparison.counts.unchecked > 0) lines.push(paint.dim(`  ${comparison.counts.unchecked} ${COMPARISON_WORDING.unchecked}`));
  }
  return lines;
}
