// JUnit XML for CI systems: one testsuite per client line, one testcase per case; a failed case carries
// the expectation and the observation. No timestamps or durations, so the report is deterministic.
// Every value goes through the core's xmlText (element content) or xmlAttribute (attribute values), so
// the document is well-formed for any data and a parser reads each value back as it was (issue 20).
import type { CaseRecord, ResultFile } from '../core/domain.ts';
import { xmlAttribute, xmlText } from '../core/escape.ts';
import { describeExpected, describeFixture, describeMismatch, describeObservationInFull, DISCOVERY_WORDING, mismatchesBeyondHeadline } from './describe.ts';

function testcase(record: CaseRecord): string[] {
  const open = `    <testcase name="${xmlAttribute(record.id)}" classname="${xmlAttribute(`mcp-sdk-probe.${record.client}.${record.discovery}`)}"`;
  const observed = `observed: ${describeObservationInFull(record.observed)}`;
  // The same one-line accounts of discovery and server as the terminal and Markdown outputs.
  const context = xmlText(
    [`discovery: ${record.discovery}: ${DISCOVERY_WORDING[record.discovery]}`, `server: ${describeFixture(record.fixture, record.transport)}`].join('\n'),
  );
  if (record.verdict === 'unjudged') {
    return [`${open}>`, `      <skipped message="no expectation stated; ${xmlAttribute(observed)}"/>`, `      <system-out>${context}</system-out>`, '    </testcase>'];
  }
  if (record.verdict === 'pass') return [`${open}>`, `      <system-out>${xmlText(observed)}\n${context}</system-out>`, '    </testcase>'];
  const message = `expected ${describeExpected(record.expected)}, ${observed}`;
  // Only what the expected and observed lines do not already say (issue 21: each fact once).
  const body = [`expected: ${describeExpected(record.expected)}`, observed, ...mismatchesBeyondHeadline(record.mismatches).map(describeMismatch)].join('\n');
  return [
    `${open}>`,
    `      <failure message="${xmlAttribute(message)}" type="mismatch">${xmlText(body)}</failure>`,
    `      <system-out>${context}</system-out>`,
    '    </testcase>',
  ];
}

export function renderJunit(result: ResultFile): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const count = (cases: readonly CaseRecord[], verdict: CaseRecord['verdict']) => cases.filter((c) => c.verdict === verdict).length;
  const all = result.cases;
  lines.push(
    `<testsuites name="${xmlAttribute(`mcp-sdk-probe ${result.matrix.name}`)}" tests="${all.length}" failures="${count(all, 'fail')}" errors="0" skipped="${count(all, 'unjudged')}">`,
  );
  for (const line of [...new Set(all.map((c) => c.client))]) {
    const cases = all.filter((c) => c.client === line);
    const packages = [...new Set(cases.map((c) => c.clientPackage))].join(', ');
    lines.push(
      `  <testsuite name="${xmlAttribute(`${line} (${packages})`)}" tests="${cases.length}" failures="${count(cases, 'fail')}" errors="0" skipped="${count(cases, 'unjudged')}">`,
    );
    for (const record of cases) lines.push(...testcase(record));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
