// The escaping functions, one per medium, against every hostile string, read back by a real parser of
// the medium: marked for Markdown, a POSIX sh for shell arguments, an XML parser for XML.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import {
  htmlLine,
  htmlText,
  longestRun,
  markdownCellCode,
  markdownCode,
  markdownFence,
  markdownText,
  shellArgument,
  shellCommand,
  shellHeredoc,
  terminalLine,
  terminalText,
  xmlText,
} from '../probe/core/escape.ts';
import { controlBytes, HOSTILE_STRINGS, liveElements } from './helpers/hostile.ts';

const HOSTILE = Object.entries(HOSTILE_STRINGS);
const render = (markdown: string) => marked.parse(markdown, { gfm: true, async: false }) as string;
/** What a reader sees of rendered HTML: its text, entities decoded. */
const seen = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();

describe('markdownText', () => {
  it.each(HOSTILE)('%s: no live element, one paragraph, the text shown as it was', (_, text) => {
    const markdown = `Before ${markdownText(text)} after.`;
    expect(liveElements(markdown)).toEqual([]);
    const tokens = marked.lexer(markdown, { gfm: true });
    expect(tokens.map((t) => t.type)).toEqual(['paragraph']);
    expect(seen(render(markdown))).toBe(`Before ${terminalLine(text)} after.`);
  });

  it.each(HOSTILE)('%s: in a table cell, the row keeps its cells and the cell its text', (_, text) => {
    const markdown = `| a | b |\n| --- | --- |\n| ${markdownText(text)} | end |\n`;
    expect(liveElements(markdown)).toEqual([]);
    const [table] = marked.lexer(markdown, { gfm: true });
    expect(table?.type).toBe('table');
    const rows = (table as unknown as { rows: { text: string }[][] }).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveLength(2);
    expect(seen(render(markdown).split('<tbody>')[1]!.split('</td>')[0]!)).toBe(terminalLine(text).trim());
  });

  it('is what makes these strings inert: unescaped, most of them are live', () => {
    const live = HOSTILE.filter(([, text]) => liveElements(`Before ${text} after.`).length > 0).map(([name]) => name);
    expect(live.length).toBeGreaterThan(12);
  });
});

describe('markdownCode and markdownCellCode', () => {
  it.each(HOSTILE)('%s: a code span holding the text literally', (_, text) => {
    const markdown = `Before ${markdownCode(text)} after.`;
    expect(liveElements(markdown)).toEqual([]);
    const html = render(markdown);
    expect(html.match(/<code>/g)).toHaveLength(1);
    expect(seen(html.split('<code>')[1]!.split('</code>')[0]!)).toBe(terminalLine(text).trim());
  });

  it.each(HOSTILE)('%s: in a table cell, the row keeps its cells', (_, text) => {
    const markdown = `| a | b |\n| --- | --- |\n| ${markdownCellCode(text)} | end |\n`;
    expect(liveElements(markdown)).toEqual([]);
    const [table] = marked.lexer(markdown, { gfm: true });
    expect((table as unknown as { rows: unknown[][] }).rows[0]).toHaveLength(2);
  });

  it('keeps edge backticks and spaces', () => {
    expect(seen(render(markdownCode('`x`')))).toBe('`x`');
    expect(markdownCode('')).toBe('` `');
  });
});

describe('markdownFence', () => {
  it.each(HOSTILE)('%s: one code block holding the text, what could act on a terminal shown as escapes', (_, text) => {
    const markdown = `${markdownFence('text', text)}\n\n# after\n`;
    const tokens = marked.lexer(markdown, { gfm: true }).filter((t) => t.type !== 'space');
    expect(tokens.map((t) => t.type)).toEqual(['code', 'heading']);
    expect((tokens[0] as { text: string }).text).toBe(terminalText(text));
    expect(controlBytes(markdown)).toEqual([]);
  });

  it.each(HOSTILE)('%s: in a JSON block, the same JSON value with nothing that acts on a terminal', (_, text) => {
    const json = JSON.stringify({ [text]: text }, null, 2);
    const markdown = markdownFence('json', json);
    const [block] = marked.lexer(markdown, { gfm: true });
    expect(JSON.parse((block as { text: string }).text)).toEqual({ [text]: text });
    expect(controlBytes(markdown)).toEqual([]);
    expect(markdown).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
  });

  it('takes a 600 KB text of many backtick runs (a spread into Math.max threw RangeError)', () => {
    const text = '`a``b'.repeat(120_000);
    expect(() => markdownFence('text', text)).not.toThrow();
    expect(markdownFence('text', text).startsWith('```text\n')).toBe(true);
    expect(longestRun('a```b`````c', '`')).toBe(5);
  });

  it('refuses an info string that is not a language name', () => {
    expect(() => markdownFence('json x', 'x')).toThrow(/not a language name/);
  });
});

describe('terminalText and terminalLine', () => {
  it.each(HOSTILE)('%s: no control byte is emitted', (_, text) => {
    expect(controlBytes(terminalText(text))).toEqual([]);
    expect(controlBytes(terminalLine(text))).toEqual([]);
    expect(terminalLine(text)).not.toMatch(/[\n\t\u202e]/);
  });

  it('shows each as an escape a reader can name, and keeps lines in terminalText', () => {
    expect(terminalText('a\u001b[2J\r\u0007\u009b\u202e\n\tb')).toBe('a\\e[2J\\r\\x07\\x9b\\u{202e}\n\tb');
    expect(terminalLine('a\nb')).toBe('a\\nb');
    expect(controlBytes('\u001b[2J')).toHaveLength(1);
  });
});

describe('htmlText and xmlText', () => {
  it.each(HOSTILE)('%s: no markup survives', (_, text) => {
    expect(htmlText(text)).not.toMatch(/[<>"']/);
    expect(xmlText(text)).not.toMatch(/[<>"']/);
  });

  it('replaces what XML 1.0 cannot hold', () => {
    expect(xmlText('a\u0000b\u001bc\ud800')).toBe('a\uFFFDb\uFFFDc\uFFFD');
  });
});

describe('htmlLine', () => {
  it.each(HOSTILE)('%s: inside <summary>, the HTML block keeps the line and nothing of its own is live', (_, text) => {
    const markdown = `<details>\n<summary>${htmlLine(text)}</summary>\n\nbody\n\n</details>\n`;
    expect(liveElements(markdown)).toEqual([
      { kind: 'html', text: `<details>\n<summary>${htmlLine(text)}</summary>` },
      { kind: 'html', text: '</details>' },
    ]);
    expect(seen(render(markdown).split('<summary>')[1]!.split('</summary>')[0]!)).toBe(terminalLine(text).trim());
  });

  it('is needed there: with htmlText alone a blank line ends the HTML block and a heading follows', () => {
    const markdown = `<details>\n<summary>${htmlText('x\n\n# ALL PASSED')}</summary>\n`;
    expect(liveElements(markdown).map((e) => e.kind)).toContain('heading');
  });
});

describe('shellArgument', () => {
  const arguments_ = [
    ...['plain', 'scen>pwned', "it's", '$(touch pwned)', '`id`', 'a b', '', '*', '~', 'x;y', 'a\nb', '-v', '--v1', '@scope/pkg@1.2.3', 'a"b\\c', '!', '#x'],
    // What would act on a terminal when the command is shown or pasted: printf makes it when sh runs it.
    ...['find<img>\u001b]0;T\u0007.json', 'a\rb', "it's\u001b[2J'", 'x\u009by', 'abc\u202edcba', '\u001b', 'tab\tand\nline\n'],
  ];

  it('sh reads every argument back exactly', () => {
    const script = `for a in ${shellCommand(arguments_)}; do printf '%s\\0' "$a"; done`;
    const out = execFileSync('/bin/sh', ['-c', script], { encoding: 'utf8' });
    expect(out.split('\0').slice(0, -1)).toEqual(arguments_);
  });

  it('writes no character that acts on a terminal or reorders the line', () => {
    const command = shellCommand(arguments_);
    expect(controlBytes(command)).toEqual([]);
    expect(command).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u009b]/);
  });

  it('leaves plain arguments bare, so commands stay readable', () => {
    expect(shellCommand(['npx', 'mcp-sdk-probe', '--v1', '1.32.2', '--out', 'results/x.json'])).toBe('npx mcp-sdk-probe --v1 1.32.2 --out results/x.json');
    expect(shellArgument('scen>pwned')).toBe("'scen>pwned'");
  });
});

describe('shellHeredoc', () => {
  const written = (command: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-heredoc-'));
    execFileSync('/bin/sh', ['-c', command], { cwd: dir });
    expect(readdirSync(dir)).toEqual(['out file']);
    return readFileSync(join(dir, 'out file'), 'utf8');
  };
  it.each([
    ['plain text', 'a\nb\n'],
    ['expansions sh would make unquoted', '$HOME `touch pwned` $(touch pwned2) \\n \\\n\'"\n'],
    ['a line equal to the delimiter', 'x\nMCP_SDK_PROBE_EOF\nMCP_SDK_PROBE_EOF_1\ny\n'],
    ['the delimiter with spaces or tabs around it (not equal: still text)', ' MCP_SDK_PROBE_EOF\n\tMCP_SDK_PROBE_EOF\n'],
    ['tabs and an empty last line', '\tindented\n\n'],
  ])('writes %s byte for byte', (_name, text) => {
    const command = shellHeredoc('out file', text);
    expect(written(command)).toBe(text);
  });
  it('picks a delimiter no line equals', () => {
    expect(shellHeredoc('f', 'MCP_SDK_PROBE_EOF\nMCP_SDK_PROBE_EOF_1\n')).toMatch(/<<'MCP_SDK_PROBE_EOF_2'\n/);
  });
  it.each([
    ['no trailing line feed', 'x', /must end with a line feed/],
    ['a control character', 'a\u001b[2Jb\n', /control character U\+001b/],
    ['a carriage return', 'a\r\n', /control character U\+000d/],
    ['a bidi override', 'abc\u202edcba\n', /control character U\+202e/],
  ])('refuses %s', (_name, text, message) => {
    expect(() => shellHeredoc('f', text)).toThrow(message);
  });
});
