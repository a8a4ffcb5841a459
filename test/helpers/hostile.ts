// What a hostile server author or bug reporter puts in a string the probe renders: one entry per attempt,
// shared by every test of a medium's escaping. Each names what it tries, so a failure says which route opened.
import { marked, type Token } from 'marked';

export const HOSTILE_STRINGS: Readonly<Record<string, string>> = {
  'html image (tracking pixel)': '<img src="https://tracker.example/p.png">',
  'html with handler': '<img src=x onerror=alert(1)>',
  'script element': '<script>alert(1)</script>',
  'closing details, opening another': '</details><details open><summary>all fine</summary>',
  'html comment hiding what follows': '<!-- ',
  'heading after a line break': 'ok\n# ALL PASSED',
  'heading at the start': '# ALL PASSED',
  'setext heading': 'ALL PASSED\n===',
  'javascript link': '[click here](javascript:alert(1))',
  'image': '![x](https://tracker.example/p.png)',
  'reference link definition': '[x]: https://evil.example',
  'autolink in angle brackets': '<https://evil.example>',
  'bare url (GFM autolink)': 'https://evil.example/x',
  'www autolink': 'www.evil.example',
  'email autolink': 'mallory@evil.example',
  'emphasis and strike': '*bold* _em_ ~~gone~~',
  'code span breaking out': '` </details> `',
  'fence breaking out': '```\n# ALL PASSED\n```',
  'long backtick run': '`'.repeat(40),
  'table cell break': 'a | b | c',
  'backslash before pipe': 'a \\| b',
  'entity': '&lt;script&gt; &#60;',
  'list and quote': '- item\n> quoted\n1. one',
  'blank line then heading': 'x\n\n## Verdict: passed',
  'clear screen': '\u001b[2J\u001b[H',
  'window title (OSC 0)': '\u001b]0;owned\u0007',
  'hyperlink (OSC 8)': '\u001b]8;;https://evil.example\u001b\\click\u001b]8;;\u001b\\',
  'carriage return overwrite': 'x\r13 passed, 0 failed',
  'bell': 'ring\u0007',
  'C1 CSI': 'x\u009b2J',
  'bidi override': 'abc\u202edcba',
  'NUL': 'a\u0000b',
};

/** A live element in rendered Markdown: HTML, a heading, a link or an image, with its text. */
export interface LiveElement {
  readonly kind: 'html' | 'heading' | 'link' | 'image' | 'definition';
  readonly text: string;
}

/**
 * The live elements of a Markdown document as a real GFM parser (marked) reads it. Tests compare them
 * with the ones the probe's template puts there: anything more came from data.
 */
export function liveElements(markdown: string): LiveElement[] {
  const found: LiveElement[] = [];
  const walk = (tokens: readonly Token[] | undefined) => {
    for (const token of tokens ?? []) {
      if (token.type === 'html') found.push({ kind: 'html', text: token.raw.trim() });
      else if (token.type === 'heading') found.push({ kind: 'heading', text: token.text });
      else if (token.type === 'link') found.push({ kind: 'link', text: token.href });
      else if (token.type === 'image') found.push({ kind: 'image', text: token.href });
      else if (token.type === 'def') found.push({ kind: 'definition', text: token.raw });
      const children = token as { tokens?: Token[]; items?: { tokens?: Token[] }[]; header?: { tokens?: Token[] }[]; rows?: { tokens?: Token[] }[][] };
      walk(children.tokens);
      for (const item of children.items ?? []) walk(item.tokens);
      for (const cell of children.header ?? []) walk(cell.tokens);
      for (const row of children.rows ?? []) for (const cell of row) walk(cell.tokens);
    }
  };
  walk(marked.lexer(markdown, { gfm: true }));
  return found;
}

/** Control bytes that act on a terminal (C0 but tab and line feed, ESC, DEL, C1), with where each is. */
export function controlBytes(text: string): string[] {
  return [...text.matchAll(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g)].map((m) => `U+${m[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${m.index}`);
}
