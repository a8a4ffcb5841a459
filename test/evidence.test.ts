// The evidence renderers: golden files for the audit (fixed environment and git context, so nothing
// machine-specific), the Markdown checked with a Markdown parser, the JUnit XML validated against the
// JUnit schema CI systems read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { compareWithRecorded } from '../probe/core/compare.ts';
import type { ResultFile } from '../probe/core/domain.ts';
import { FIXED_ENVIRONMENT } from './fixtures.ts';
import { renderJunit } from '../probe/render/junit.ts';
import { xmlText } from '../probe/core/escape.ts';
import { renderMarkdown } from '../probe/render/markdown.ts';
import { reproInputs } from '../probe/commands/repro.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { pinnedPart, rejudged } from './helpers/pinned-run.ts';

const environment = FIXED_ENVIRONMENT;
const context = {
  argv: ['--format', 'markdown'],
  git: { commit: '0123456789abcdef', dirty: false },
  harness: { name: 'mcp-sdk-probe', version: '0.0.0' },
  recordedPath: 'results/recorded.json',
};
const JUNIT_XSD = readFileSync(join(import.meta.dirname, 'fixtures', 'junit.xsd'), 'utf8');

async function validJunit(xml: string): Promise<{ valid: boolean; errors: string[] }> {
  const result = await validateXML({ xml: [{ fileName: 'probe.xml', contents: xml }], schema: [JUNIT_XSD] });
  return { valid: result.valid, errors: result.errors.map((e) => e.message) };
}

// The suite's one run of the audit (test/global-setup.ts), with a fixed environment block.
const passing: ResultFile = pinnedPart(auditMatrix, environment);
// What a user sees when v2 starts validating isError results the way v1 does.
const failing: ResultFile = rejudged(passing, { 'v2/warm/error-off-schema': { outcome: 'rejected', code: -32602 } });

describe('Markdown evidence', () => {
  it('matches the golden file for the audit', async () => {
    // The Reproduce block pins the versions the fixed environment names (and zod, the v1 SDK's peer).
    const pinned = { ...passing, environment: { ...environment, packages: { ...environment.packages, zod: '4.6.7' } } };
    const reproduction = reproInputs(auditMatrix.scenarios, pinned, 5000);
    const markdown = renderMarkdown(passing, compareWithRecorded(passing, passing, { fullMatrix: true }), { ...context, reproduction });
    await expect(markdown).toMatchFileSnapshot('golden/audit-evidence.md');
  });

  it('renders on GitHub: one table with a row per shape, and a <details> per case with its JSON inside', () => {
    const html = marked.parse(renderMarkdown(failing, undefined, context), { gfm: true, async: false });
    const tables = html.match(/<table>[\s\S]*?<\/table>/g) ?? [];
    expect(tables.length).toBeGreaterThanOrEqual(1);
    const results = tables[0]!;
    expect(results.match(/<tr>/g)).toHaveLength(1 + 6);
    expect(results).toContain('<th>v1 warm</th>');
    expect(results).toContain('❌ returned isError');
    const details = html.match(/<details>[\s\S]*?<\/details>/g) ?? [];
    expect(details).toHaveLength(13);
    // The Markdown inside each <details> was parsed as Markdown, not left as text.
    for (const block of details) expect(block).toMatch(/<pre><code class="language-json">/);
    expect(details.find((d) => d.includes('v2/warm/error-off-schema'))).toContain('expected rejected, observed returned');
  });

  it('keeps a backtick run in a payload from closing its code block', () => {
    const sneaky = structuredClone(passing);
    sneaky.cases[0]!.result = { content: [{ type: 'text', text: 'a ``` b' }] };
    const html = marked.parse(renderMarkdown(sneaky, undefined, context), { gfm: true, async: false });
    expect(html).toContain('a ``` b');
    expect(html.match(/<details>/g)).toHaveLength(13);
  });
});

describe('JUnit XML', () => {
  it('matches the golden file for the audit', async () => {
    await expect(renderJunit(failing)).toMatchFileSnapshot('golden/audit-junit.xml');
  });

  it('is valid against the JUnit schema, passing and failing', async () => {
    for (const result of [passing, failing]) {
      const { valid, errors } = await validJunit(renderJunit(result));
      expect(errors).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it('the schema check can fail: a testcase without a classname is rejected', async () => {
    const broken = renderJunit(passing).replace(/ classname="[^"]*"/, '');
    expect((await validJunit(broken)).valid).toBe(false);
  });

  it('has one testsuite per client and a failure carrying expected and observed', () => {
    const xml = renderJunit(failing);
    expect(xml.match(/<testsuite /g)).toHaveLength(2);
    expect(xml).toContain('<testsuites name="mcp-sdk-probe audit" tests="13" failures="1" errors="0" skipped="0">');
    expect(xml).toMatch(/<testcase name="v2\/warm\/error-off-schema"[^>]*>\s*<failure message="expected rejected -32602, observed: returned isError/);
  });

  it('escapes what XML cannot carry', () => {
    expect(xmlText(`<a href="x">&'\u0001`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;\uFFFD');
  });
});
