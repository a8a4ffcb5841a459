// Issue 20: the JUnit document for a result whose every data field carries a hostile string (and lone
// surrogates, NUL, `]]>`, line breaks): a real XML parser (libxml2 as xmllint-wasm) finds it well-formed
// and valid against the JUnit schema, reads each value back as the data was (only what XML 1.0 cannot
// hold replaced by U+FFFD), and the document itself carries no control byte, so printed to a terminal
// (`--format junit` without --out) nothing in it acts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import type { ResultFile } from '../probe/core/domain.ts';
import { xmlAttribute, xmlText } from '../probe/core/escape.ts';
import { describeObservationInFull } from '../probe/render/describe.ts';
import { renderJunit } from '../probe/render/junit.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { FIXED_ENVIRONMENT } from './fixtures.ts';
import { controlBytes, HOSTILE_STRINGS } from './helpers/hostile.ts';
import { pinnedPart, rejudged } from './helpers/pinned-run.ts';

const JUNIT_XSD = readFileSync(join(import.meta.dirname, 'fixtures', 'junit.xsd'), 'utf8');

const TEXTS: [string, string][] = [
  ...Object.entries(HOSTILE_STRINGS),
  ['lone high surrogate', 'a\ud800b'],
  ['lone low surrogate', '\udc00x'],
  ['NUL and other C0', '\u0000\u0001\u001f'],
  ['CDATA end', ']]> <![CDATA[ x ]]>'],
  ['CR LF and tab', 'one\r\ntwo\tthree'],
  ['not characters', '\ufffe\uffff'],
  ['astral', 'ok \u{1F600}'],
];

/** What a parser should read back: the text with what XML 1.0 cannot hold (§2.2 Char) replaced. */
const readable = (text: string) => text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');

/** The pinned audit with one case failing and every data field the document shows replaced by `text`. */
function hostileResult(text: string): ResultFile {
  const result = rejudged(pinnedPart(auditMatrix, FIXED_ENVIRONMENT), { 'v1/warm/off-schema-success': { outcome: 'returned', isError: false } });
  return {
    ...result,
    matrix: { ...result.matrix, name: text },
    cases: result.cases.map((record) => ({
      ...record,
      clientPackage: `pkg ${text}`,
      ...(record.observed.outcome === 'rejected' && { observed: { ...record.observed, error: { ...record.observed.error, name: text, message: text } } }),
    })),
  };
}

/** A value as C14N writes it (W3C XML C14N 1.0 §2.3): references for what it must escape, decoded. */
const decode = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|#xD|#xA|#x9);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#xD': '\r', '#xA': '\n', '#x9': '\t' })[name]!);

async function parse(xml: string) {
  return validateXML({ xml: [{ fileName: 'probe.xml', contents: xml }], schema: [JUNIT_XSD], normalization: 'c14n' });
}

describe('JUnit for hostile data, read by a real XML parser', () => {
  it.each(TEXTS)('%s: well-formed, valid, every value read back as it was, no control byte in the document', async (_, text) => {
    const result = hostileResult(text);
    const xml = renderJunit(result);
    const parsed = await parse(xml);
    expect(parsed.errors.map((e) => e.message)).toEqual([]);
    expect(parsed.valid).toBe(true);
    expect(controlBytes(xml)).toEqual([]);
    expect(xml).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);

    // Attribute values: the suite's name, each line's package list; element content: the failure's body.
    const canonical = parsed.normalized;
    // C14N writes attributes in name order (§2.2), so each is found by name.
    const suites = /<testsuites [^>]*\bname="([^"]*)"/.exec(canonical)![1]!;
    expect(decode(suites)).toBe(readable(`mcp-sdk-probe ${text}`));
    const suite = /<testsuite [^>]*\bname="([^"]*)"/.exec(canonical)![1]!;
    expect(decode(suite)).toBe(readable(`v1 (pkg ${text})`));
    const failed = result.cases.find((c) => c.id === 'v1/warm/off-schema-success')!;
    const body = /<failure message="([^"]*)" type="mismatch">([^<]*)<\/failure>/.exec(canonical)!;
    expect(decode(body[1]!)).toContain(readable(describeObservationInFull(failed.observed)));
    expect(decode(body[2]!)).toContain(readable(describeObservationInFull(failed.observed)));
  });
});

describe('xmlText and xmlAttribute', () => {
  it('write what acts on a terminal or reorders text as character references, which parse back to the same character', () => {
    expect(xmlText('a\rb\u009bc\u007f\u202e')).toBe('a&#xd;b&#x9b;c&#x7f;&#x202e;');
    expect(xmlText('keeps\nlines\tand tabs')).toBe('keeps\nlines\tand tabs');
    expect(xmlAttribute('a\nb\tc\rd')).toBe('a&#xa;b&#x9;c&#xd;d');
  });
});
