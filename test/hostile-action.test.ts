// The GitHub Action (action/run.mjs, run as action.yml runs it) given captures a stranger wrote: one
// capture it cannot replay never stops the others or the report, and nothing in a file name or in what the
// probe printed becomes live Markdown in the job summary. And the limits they meet: a capture at exactly
// the capture reader's depth limit replays, and what the probe writes of it reads back everywhere.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marked } from 'marked';
import { afterAll, describe, expect, it } from 'vitest';
import { parseResultText, writeCaptureFile, type ToolDefinition, type ToolResult } from '../probe/api/index.ts';
import { InputError } from '../probe/core/errors.ts';
import { readCapture } from '../probe/io/capture.ts';
import { CASE_FIELD_LEVEL, prettyJsonBytes, sortKeys } from '../probe/io/json-files.ts';
import { MAX_INPUT_BYTES, MAX_JSON_DEPTH, MAX_WRITTEN_JSON_DEPTH, nestsDeeperThan, writeFileAtomic, WRITTEN_FILE } from '../probe/io/files.ts';
import { runAction } from './helpers/action.ts';
import { ROOT, runCli } from './helpers/cli.ts';
import { HOSTILE_STRINGS, liveElements } from './helpers/hostile.ts';

const base = mkdtempSync(join(tmpdir(), 'probe-hostile-action-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A `{ tool, result }` capture whose objects nest exactly `depth` levels (the file's root is level 1). */
function deepCapture(depth: number): string {
  // root (1) > result (2) > structuredContent (3) > ...: the structuredContent holds depth - 2 levels.
  const levels = depth - 2;
  const structured = `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;
  return `{"tool":{"name":"deep","inputSchema":{"type":"object"}},"result":{"content":[],"structuredContent":${structured}}}`;
}

/** A stack trace's frame line, as Node prints an uncaught error. */
const STACK_FRAME = /^\s+at .+[:(]/m;

/** The job summary's sections, by heading (`### …`), in order. */
function sections(summary: string): string[] {
  return summary.split(/^(?=### )/m).slice(1);
}

describe('the action given a capture it cannot replay among others', () => {
  it('reports every capture in its own section, runs the ones after it, renders the deep-but-accepted one, exit 2, no stack trace', async () => {
    const run = await runAction(base, { mode: 'replay', captures: 'c*.json' }, {
      'c1-first.json': join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json'),
      'c2-deep.json': { text: deepCapture(MAX_JSON_DEPTH) },
      'c3-too-deep.json': { text: deepCapture(MAX_JSON_DEPTH + 1) },
      'c4-not-json.json': { text: '{"tool": {"name": "t", ' },
      'c5-not-a-capture.json': { text: '{"hello": "world"}\n' },
      'c6-last.json': join(ROOT, 'scenarios', 'captures', 'logged-jsonrpc-messages.json'),
    });
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.code).toBe(2);
    expect(run.outputs['exit-code']).toBe('2');
    expect(run.summary).toMatch(/^## mcp-sdk-probe replay: failed \(exit 2\)\n/);
    const found = sections(run.summary);
    // The headings as read (escapes are renderSummaryMarkdown's or the action's own).
    expect(found.map((s) => s.split('\n')[0]!.replaceAll('\\', ''))).toEqual([
      '### replay of c1-first.json',
      '### replay of c2-deep.json',
      '### replay of c3-too-deep.json',
      '### replay of c4-not-json.json',
      '### replay of c5-not-a-capture.json',
      '### replay of c6-last.json',
    ]);
    // The ones that ran show their table; the deep one too (its result JSON is two levels deeper than it).
    for (const index of [0, 1, 5]) expect(found[index]).toMatch(/\n\*\*\d+ passed, 0 failed, \d+ unjudged/);
    expect(found[1]).toMatch(/\n\*\*0 passed, 0 failed, 9 unjudged/); // every line, every discovery mode
    // The ones that did not run: the probe's one-line error, exit 2.
    expect(found[2]).toContain('Did not run (exit 2):\n\n```text\nmcp-sdk-probe: c3-too-deep.json: JSON nested more than 256 levels deep (the probe\'s limit)\n```');
    expect(found[3]).toMatch(/Did not run \(exit 2\):\n\n```text\nmcp-sdk-probe: c4-not-json\.json: not valid JSON \([^\n]*\)\n```/);
    expect(found[4]).toMatch(/Did not run \(exit 2\):\n\n```text\nmcp-sdk-probe: c5-not-a-capture\.json: not a valid replay capture: [^\n]*\n```/);
    const reports = readdirSync(join(run.workspace, 'mcp-sdk-probe-reports')).sort();
    expect(reports).toEqual(['replay-c1-first.json', 'replay-c1-first.junit.xml', 'replay-c2-deep.json', 'replay-c2-deep.junit.xml', 'replay-c6-last.json', 'replay-c6-last.junit.xml']);
  });
  it('a capture the command refuses is reported as not run even when an earlier run left its report there', async () => {
    const run = await runAction(base, { mode: 'replay', captures: 'bad.json' }, {
      'bad.json': { text: '[' },
      'mcp-sdk-probe-reports/replay-bad.json': join(ROOT, 'results', 'recorded.json'),
    });
    expect(run.code).toBe(2);
    expect(sections(run.summary)).toEqual([expect.stringMatching(/^### replay of bad\\\.json\n\nDid not run \(exit 2\):\n\n```text\nmcp-sdk-probe: bad\.json: not valid JSON/)]);
    expect(run.outputs).toEqual({ 'exit-code': '2', passed: '0', failed: '0', reports: 'mcp-sdk-probe-reports' });
  });

  it('a report the action cannot write (a folder where its JUnit file goes): that capture\'s section says why in one line, the next still reports, exit 2', async () => {
    const run = await runAction(base, { mode: 'replay', captures: '*.json', args: '--clients v1,v2' }, {
      'a.json': join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json'),
      'b.json': join(ROOT, 'scenarios', 'captures', 'logged-jsonrpc-messages.json'),
      'mcp-sdk-probe-reports/replay-a.junit.xml/in-the-way': { text: '' },
    });
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.stderr).toContain('mcp-sdk-probe action: replay of a.json: mcp-sdk-probe-reports/replay-a.junit.xml: is a folder; outputs go only to regular files or new paths\n');
    expect(run.code).toBe(2);
    expect(run.outputs['exit-code']).toBe('2');
    const [a, b] = sections(run.summary);
    expect(a).toBe('### replay of a\\.json\n\nThe command ran (exit 0); its report could not be made (exit 2):\n\n```text\nmcp-sdk-probe-reports/replay-a.junit.xml: is a folder; outputs go only to regular files or new paths\n```\n\n');
    expect(b).toMatch(/\n\*\*0 passed, 0 failed, 4 unjudged/);
    expect(readFileSync(join(run.workspace, 'mcp-sdk-probe-reports', 'replay-b.junit.xml'), 'utf8')).toMatch(/^<\?xml/);
  });
});

describe('the action\'s own Markdown with hostile file names', () => {
  // Every hostile string a file name can hold (no `/`, no NUL), as the name of a capture that is not JSON:
  // its whole section, heading and the probe's error, is the action's own writing.
  const names = Object.entries(HOSTILE_STRINGS).filter(([, text]) => !text.includes('/') && !text.includes('\u0000'));

  it('headings, the did-not-run sections and the fenced command output have no live element', async () => {
    const files = Object.fromEntries(names.map(([, text], index) => [`bad-${String(index).padStart(2, '0')}-${text}.json`, { text: '{"not json' }]));
    const run = await runAction(base, { mode: 'replay', captures: 'bad-*.json' }, files);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.code).toBe(2);
    const live = liveElements(run.summary);
    // The template's headings only: the run's, then one per capture, each with its name as text.
    expect(live.filter((element) => element.kind !== 'heading')).toEqual([]);
    expect(live).toHaveLength(1 + names.length);
    // Each capture's section is its heading, the words and one fenced block holding the probe's error.
    const tokens = marked.lexer(run.summary, { gfm: true }).filter((token) => token.type !== 'space');
    const perCapture = tokens.slice(1, 1 + 3 * names.length);
    expect(perCapture.map((token) => token.type)).toEqual(names.flatMap(() => ['heading', 'paragraph', 'code']));
    for (const token of perCapture.filter((t) => t.type === 'code')) expect((token as { text: string }).text).toMatch(/^mcp-sdk-probe: bad-\d\d-[^]*\.json: not valid JSON \([^\n]*\)$/);
  });
});

describe('a capture at the depth limit: what the probe writes of it reads back', () => {
  it('replays through every line; its result JSON, deeper than the capture, reads back in the action, the API and the CLI; one level more is one line, exit 2', async () => {
    const run = await runAction(base, { mode: 'replay', captures: 'at-limit.json over-limit.json' }, {
      'at-limit.json': { text: deepCapture(MAX_JSON_DEPTH) },
      'over-limit.json': { text: deepCapture(MAX_JSON_DEPTH + 1) },
    });
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.code).toBe(2);
    const path = join(run.workspace, 'mcp-sdk-probe-reports', 'replay-at-limit.json');
    const json = readFileSync(path, 'utf8');
    // What the result adds around the capture (LangChain's ToolMessage, +6) takes it past the capture's limit.
    expect(nestsDeeperThan(JSON.parse(json), MAX_JSON_DEPTH + 5)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(json), MAX_WRITTEN_JSON_DEPTH)).toBe(false);
    const result = parseResultText(json, 'replay-at-limit.json');
    // Each record's result is in the file as prettyJsonBytes counts it at CASE_FIELD_LEVEL (replay's up-front size check).
    const recorded = JSON.stringify(sortKeys(result.cases[0]!.result), null, 2).replaceAll('\n', `\n${'  '.repeat(CASE_FIELD_LEVEL)}`);
    expect(json).toContain(`\n${'  '.repeat(CASE_FIELD_LEVEL)}"result": ${recorded}`);
    expect(prettyJsonBytes(result.cases[0]!.result, CASE_FIELD_LEVEL)).toBe(Buffer.byteLength(recorded));
    expect(new Set(result.cases.map((c) => c.client))).toEqual(new Set(['v1', 'v2', 'ai-sdk', 'langchain']));
    expect(sections(run.summary)[0]).toMatch(/\n\*\*0 passed, 0 failed, 9 unjudged/);
    expect(readFileSync(join(run.workspace, 'mcp-sdk-probe-reports', 'replay-at-limit.junit.xml'), 'utf8')).toMatch(/^<\?xml/);
    expect(sections(run.summary)[1]).toContain('mcp-sdk-probe: over-limit.json: JSON nested more than 256 levels deep');
    // The CLI reads it back as a recorded result (it differs from the audit's, so exit 1: read, not refused).
    const cli = await runCli(['--recorded', path, '--case', 'v1/warm/*', '--out', join(run.workspace, 'audit.json')]);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(1);
  });
});

describe('a writer refuses what its reader would not take back', () => {
  const folder = mkdtempSync(join(base, 'writers-'));
  const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it.each([
    ['a result file one level past the limit', WRITTEN_FILE('result file'), [deepJson(MAX_WRITTEN_JSON_DEPTH + 1)], `would nest more than ${MAX_WRITTEN_JSON_DEPTH} levels deep`],
    // Brackets inside strings are text, even after an escaped quote; the depth counts only the real ones.
    ['a capture one level past the capture limit', { what: 'replay capture', maxDepth: MAX_JSON_DEPTH }, [deepJson(MAX_JSON_DEPTH + 1)], `would nest more than ${MAX_JSON_DEPTH} levels deep`],
    ['a result file over 64 MiB, in pieces', WRITTEN_FILE('result file'), ['[', ...Array.from({ length: 65 }, (_, i) => `${i ? ',' : ''}"${'x'.repeat(1024 * 1024)}"`), ']'], `would be over ${MAX_INPUT_BYTES} bytes (64 MiB)`],
  ])('%s: one line naming the file, the old file left as it was', (_, readBack, pieces, reason) => {
    const path = join(folder, 'out.json');
    writeFileSync(path, 'before\n');
    expect(() => writeFileAtomic(path, pieces, '--out out.json', readBack)).toThrow(new InputError(`--out out.json: not written: the ${readBack.what} ${reason}, more than the probe reads back`));
    expect(readFileSync(path, 'utf8')).toBe('before\n');
    expect(readdirSync(folder)).toEqual(['out.json']);
  });

  it('a piece past V8\'s longest string (a result indented into gigabytes) is the size refusal, not a RangeError', () => {
    const path = join(folder, 'out.json');
    function* pieces() {
      yield '[';
      yield 'x'.repeat(2 ** 29); // V8: RangeError: Invalid string length
    }
    expect(() => writeFileAtomic(path, pieces(), '--out out.json', WRITTEN_FILE('result file'))).toThrow(
      new InputError(`--out out.json: not written: the result file would be over ${MAX_INPUT_BYTES} bytes (64 MiB), more than the probe reads back`),
    );
    expect(readdirSync(folder).filter((name) => name.startsWith('.out.json'))).toEqual([]);
  });

  it.each([[1], ['x'], [null], [{}], [[]], [{ a: 1, b: [1, 2, { c: 'é' }], d: {} }], [[[[]]]], [{ 'k"ey': [true, false, null, 1.5e300] }], [{ a: undefined, b: 1 }]])(
    'prettyJsonBytes(%j) is what JSON.stringify(value, null, 2) writes at each level',
    (value) => {
      for (const level of [0, 1, CASE_FIELD_LEVEL]) {
        expect(prettyJsonBytes(value, level)).toBe(Buffer.byteLength(JSON.stringify(value, null, 2).replaceAll('\n', `\n${'  '.repeat(level)}`)));
      }
    },
  );

  it('replay: a small capture whose result, indented in each case, is past the limit is refused before its cases run', async () => {
    // 1,000 arrays nested 250 deep: 0.5 MB as the capture has it, 131 MB as each case record indents it.
    const wide = `[${Array.from({ length: 1000 }, () => `${'['.repeat(249)}${']'.repeat(249)}`).join(',')}]`;
    const capture = `{"tool":{"name":"wide","inputSchema":{"type":"object"}},"result":{"content":[],"structuredContent":{"x":${wide}}}}`;
    const path = join(folder, 'wide.json');
    writeFileSync(path, capture);
    const run = await runCli(['replay', path, '--clients', 'v1', '--out', join(folder, 'wide-result.json')]);
    expect(run.stderr).toMatch(new RegExp(`^mcp-sdk-probe: (.*/)?wide\\.json: its result file would be over ${MAX_INPUT_BYTES} bytes \\(64 MiB\\), more than the probe reads back: each of its 2 cases records this result, \\d+ bytes as the file indents it\\n$`));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(existsSync(join(folder, 'wide-result.json'))).toBe(false);
  });

  it('takes JSON at exactly the limit; brackets in a string, one cut across two pieces, are text', () => {
    const path = join(folder, 'at-limit.json');
    // The string is `"[[[…[\` (an escaped quote, brackets, an escaped backslash): none of it nests.
    const pieces = ['["\\"' + '['.repeat(200), '['.repeat(200) + '\\\\", ', deepJson(MAX_WRITTEN_JSON_DEPTH - 1), ']'];
    writeFileAtomic(path, pieces, path, WRITTEN_FILE('result file'));
    const written = JSON.parse(readFileSync(path, 'utf8')) as unknown[];
    expect(written[0]).toBe(`"${'['.repeat(400)}\\`);
    expect(nestsDeeperThan(written, MAX_WRITTEN_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(written, MAX_WRITTEN_JSON_DEPTH - 1)).toBe(true);
  });

  it('writeCaptureFile (what captureTool captured) writes a capture at the capture limit that replay reads; one level more is refused', () => {
    const capture = JSON.parse(deepCapture(MAX_JSON_DEPTH)) as { tool: ToolDefinition; result: ToolResult };
    const path = join(folder, 'captured.json');
    writeCaptureFile(path, { name: 'deep', ...capture });
    expect(readCapture(path).shape).toBe('deep');
    const deeper = JSON.parse(deepCapture(MAX_JSON_DEPTH + 1)) as { tool: ToolDefinition; result: ToolResult };
    expect(() => writeCaptureFile(join(folder, 'deeper.json'), { name: 'deeper', ...deeper })).toThrow(/deeper\.json: not written: the replay capture would nest more than 256 levels deep/);
    expect(existsSync(join(folder, 'deeper.json'))).toBe(false);
    // Far past the stack's depth (a server's result can be anything): the same one line, no RangeError.
    let far: unknown = {};
    for (let level = 0; level < 100_000; level += 1) far = { a: far };
    expect(() => writeCaptureFile(join(folder, 'far.json'), { name: 'far', tool: capture.tool, result: { content: [], structuredContent: far } as ToolResult })).toThrow(
      new InputError(`${join(folder, 'far.json')}: not written: the replay capture would nest more than 256 levels deep, more than the probe reads back`),
    );
  });
});

describe('the action\'s sweep mode with a scenario at the depth limit', () => {
  it('the sweep JSON, deeper than the scenario, reads back: its section and its HTML page; a bad scenario file is one line, exit 2', async () => {
    const scenario = (depth: number) => deepCapture(depth).replace(/^\{/, '{"shape":"deep-one","expected":{"v1/warm":"returned"},');
    const run = await runAction(base, { mode: 'sweep', v1: '1.32.2', args: '--scenarios scenarios --case v1/warm/*' }, { 'scenarios/deep.json': { text: scenario(MAX_JSON_DEPTH) } });
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.code).toBe(0);
    // As read: the action escapes the title and the command's last line (markdownText).
    expect(sections(run.summary)[0]!.replaceAll('\\', '')).toMatch(/^### sweep of MCP isError Results Meet Different Client Checks \+ user scenarios\n\n\*\*1 release swept, 0 did not run, 0 change points\*\* \(exit 0\)/);
    expect(sections(run.summary)[0]).toContain('v1/warm/deep-one                    returned');
    expect(readFileSync(join(run.workspace, 'mcp-sdk-probe-reports', 'sweep.html'), 'utf8')).toMatch(/^<!doctype html>/i);

    const bad = await runAction(base, { mode: 'sweep', v1: '1.32.2', args: '--scenarios scenarios --case v1/warm/*' }, { 'scenarios/deep.json': { text: scenario(MAX_JSON_DEPTH + 1) } });
    expect(bad.stderr).not.toMatch(STACK_FRAME);
    expect(bad.code).toBe(2);
    expect(bad.summary).toContain('Did not run (exit 2):\n\n```text\nmcp-sdk-probe: scenarios/deep.json: JSON nested more than 256 levels deep');

    // The HTML page cannot be written (a folder in the way): the sweep's section says why, exit 2.
    const blocked = await runAction(base, { mode: 'sweep', v1: '1.32.2', args: '--case v1/warm/*' }, { 'mcp-sdk-probe-reports/sweep.html/in-the-way': { text: '' } });
    expect(blocked.stderr).not.toMatch(STACK_FRAME);
    expect(blocked.code).toBe(2);
    expect(sections(blocked.summary)[0]).toContain('its report could not be made (exit 2):\n\n```text\nmcp-sdk-probe-reports/sweep.html: is a folder');
  });
});
