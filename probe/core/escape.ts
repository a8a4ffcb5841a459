// One escaping function per medium. Every value that came from a server, a capture, a scenario, a shard
// or a file name reaches a rendered document through one of these, never through bare concatenation, so
// a missing escape shows in review as a missing call (as with lit-html or Go's html/template). Pure.
//
// What each guarantees, and the rule it rests on:
// - markdownText: no Markdown or HTML construct can come from the value (CommonMark 0.31 §2.4: any ASCII
//   punctuation may be backslash-escaped, and an escaped character is literal text; GFM's autolink
//   extension needs an unescaped `www.`, `:` or `@` to start a link). One line: line breaks are shown.
// - markdownCode / markdownFence: code spans and fenced blocks hold any content literally; the delimiter is
//   one backtick longer than the longest run inside (CommonMark §6.1, §4.5), counted without spreading.
// - terminalText: no control sequence from the value reaches the terminal (ECMA-48: C0, ESC, C1, DEL).
// - terminalJson: JSON text for a terminal, the same value, none of those characters raw.
// - htmlText: element content and quoted attributes alike; invisible characters shown as in terminalText.
// - xmlText / xmlAttribute: well-formed XML 1.0 for any input (§2.2 Char), read back as given, and no
//   control character in the document itself (printed to a terminal, nothing in it acts).
// - shellArgument / shellCommand: POSIX sh reads each argument back exactly as given (XCU §2.2.2).
// - shellHeredoc: POSIX sh writes a file's text exactly as given (XCU §2.7.4, a quoted here-document).

/**
 * Characters that must never act, only be seen: C0 controls, DEL, C1 controls, and the Unicode
 * bidirectional overrides and isolates, which reorder what a reader sees ("Trojan Source", CVE-2021-42574).
 * Line feed and tab are listed: callers that keep lines pass `keep`.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/** How a character that must not act is shown: `\n`, `\r`, `\t`, `\e`, `\xHH`, `\u{HHHH}`. */
function visible(character: string): string {
  const short = SHORT_ESCAPES[character];
  if (short) return short;
  const point = character.codePointAt(0)!;
  return point <= 0xff ? `\\x${point.toString(16).padStart(2, '0')}` : `\\u{${point.toString(16)}}`;
}

function showInvisible(text: string, keep: ReadonlySet<string>): string {
  return text.replace(INVISIBLE, (character) => (keep.has(character) ? character : visible(character)));
}

const NOTHING_KEPT: ReadonlySet<string> = new Set();
const LINES_KEPT: ReadonlySet<string> = new Set(['\n', '\t']);

// ---------------------------------------------------------------------------------------------- Markdown

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * Any text as inline Markdown text on one line: every ASCII punctuation character backslash-escaped (so
 * no emphasis, link, image, autolink, HTML, entity, heading or table cell break can start), line breaks
 * and other invisible characters shown as escapes. Safe in a paragraph, a heading's text, a list item
 * and a GFM table cell (`\|` is the cell's own escape).
 */
export function markdownText(text: string): string {
  return showInvisible(text, NOTHING_KEPT).replace(ASCII_PUNCTUATION, (character) => `\\${character}`);
}

/** The longest run of `character` in `text`, counted in one pass (a spread into Math.max overflows the stack on large inputs). */
export function longestRun(text: string, character: string): number {
  let longest = 0;
  let run = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === character) {
      run += 1;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return longest;
}

/**
 * Any text as an inline code span, shown literally. Not for a GFM table cell: there a `|` splits the
 * cell even inside a code span and its escape `\|` stays visible after a backslash, so cells take
 * `markdownCellCode`.
 */
export function markdownCode(text: string): string {
  const content = showInvisible(text, NOTHING_KEPT);
  if (content === '') return '` `';
  const ticks = '`'.repeat(longestRun(content, '`') + 1);
  // CommonMark strips one space from each end when both ends have one; padding keeps edge backticks and
  // spaces in the content.
  const pad = content.startsWith('`') || content.endsWith('`') || content.startsWith(' ') || content.endsWith(' ') ? ' ' : '';
  return `${ticks}${pad}${content}${pad}${ticks}`;
}

/** Text for a GFM table cell in code style when it can be shown so exactly; otherwise as escaped text. */
export function markdownCellCode(text: string): string {
  return text.includes('|') ? markdownText(text) : markdownCode(text);
}

/**
 * Any text as a fenced code block: a fence of backticks one longer than the longest run in the text, so
 * nothing inside can close it. The info string is the project's own (a language name), checked. A code
 * block is shown as it is wherever the document goes (printed by `cat`, pasted into a terminal, opened in
 * an editor), so what could act or reorder the text is written visibly too: in JSON as `\uXXXX` escapes,
 * the same JSON value (terminalJson); in any other text as terminalText shows it.
 */
export function markdownFence(language: string, text: string): string {
  if (!/^[a-z0-9-]*$/.test(language)) throw new TypeError(`markdownFence: not a language name: ${JSON.stringify(language)}`);
  const shown = language === 'json' ? terminalJson(text) : terminalText(text);
  const fence = '`'.repeat(Math.max(3, longestRun(shown, '`') + 1));
  return `${fence}${language}\n${shown}\n${fence}`;
}

// ---------------------------------------------------------------------------------------------- Terminal

/**
 * Text for a terminal: control characters (C0 but tab and line feed, ESC, DEL, C1, including `\r` and
 * BEL) and bidirectional overrides are shown as escapes, never emitted, so the value cannot move the
 * cursor, clear the screen, set the window title, make a hyperlink or overwrite a line.
 */
export function terminalText(text: string): string {
  return showInvisible(text, LINES_KEPT);
}

/** As `terminalText`, on one line: line feeds and tabs shown as escapes too. */
export function terminalLine(text: string): string {
  return showInvisible(text, NOTHING_KEPT);
}

// JSON.stringify escapes C0 in strings (ECMA-262 QuoteJSONString) but leaves DEL, C1 and the bidi controls
// raw; outside strings JSON text has no such character at all.
const JSON_RAW_INVISIBLE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;

/**
 * JSON text for a terminal (`--json`, `--ndjson` on stdout): every character that could act on it or
 * reorder it written as a `\uXXXX` escape, which any JSON parser reads back as the same character (RFC
 * 8259 §7), so the value is exactly the one given.
 */
export function terminalJson(json: string): string {
  return json.replace(JSON_RAW_INVISIBLE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// ------------------------------------------------------------------------------------------------- HTML

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text for HTML element content and for single- or double-quoted attribute values alike. Invisible
 * characters are shown as in terminalText (line feeds and tabs kept, for `<pre>`): a bidirectional
 * override would reorder what the page shows, and a page printed to a terminal (`sweep --format html`
 * without --out) must not carry a control sequence.
 */
export function htmlText(text: string): string {
  return showInvisible(text, LINES_KEPT).replace(/[&<>"']/g, (character) => HTML_ENTITIES[character]!);
}

/**
 * As `htmlText`, on one line: line breaks and other invisible characters shown as escapes. For HTML inside
 * a Markdown document (a `<summary>`): a blank line ends an HTML block there and what follows is parsed as
 * Markdown again (CommonMark 0.31 §4.6, start conditions 6 and 7).
 */
export function htmlLine(text: string): string {
  return htmlText(showInvisible(text, NOTHING_KEPT));
}

// -------------------------------------------------------------------------------------------------- XML

// XML 1.0 allows tab, newline, carriage return and most of Unicode; anything else cannot appear at all,
// not even as a character reference, so it is replaced (lone surrogates included: the `u` flag sees them).
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const XML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

// Characters XML 1.0 allows but that act on a terminal or reorder what a reader sees (DEL, C1, bidi
// controls) are written as character references, which a parser reads back as the same character (§4.1),
// so the document carries none of them raw. A carriage return too: raw, a parser reads it as a line feed
// (§2.11 end-of-line handling), and a terminal as "back to the start of the line".
const XML_REFERENCED = /[\r\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;
const reference = (character: string) => `&#x${character.codePointAt(0)!.toString(16)};`;

/** Text for XML element content: well-formed for any input, read back as given (what XML cannot hold is U+FFFD). */
export function xmlText(text: string): string {
  return text
    .replace(NOT_XML, '\uFFFD')
    .replace(/[&<>"']/g, (character) => XML_ENTITIES[character]!)
    .replace(XML_REFERENCED, reference);
}

/**
 * Text for an XML attribute value: as xmlText, with line feeds and tabs as references too, which
 * attribute-value normalization would otherwise read as spaces (XML 1.0 §3.3.3).
 */
export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/[\t\n]/g, reference);
}

// ------------------------------------------------------------------------------------------------ Shell

// Characters POSIX sh never treats specially inside a word (XCU §2.2, §2.6): such an argument is shown bare.
const SHELL_PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

// One character of INVISIBLE (not global, so it keeps no state between tests).
const INVISIBLE_CHARACTER = new RegExp(INVISIBLE.source);

/** `"$(printf '\ooo…')"`: a character as the bytes of its UTF-8, made by printf (XCU printf: `\ddd`). */
function printedCharacter(character: string): string {
  const octal = [...new TextEncoder().encode(character)].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
  return `"$(printf '${octal}')"`;
}

/**
 * One argument for POSIX sh, read back exactly as given: bare when it has only plain characters,
 * otherwise in single quotes, in which sh interprets nothing (XCU §2.2.2); a single quote inside is closed,
 * escaped and reopened. A character that would act on a terminal or reorder the line (ESC, `\r`, BEL, C1,
 * bidi controls; tab and line feed are harmless) is not written at all: printf makes it when sh runs the
 * command (a command substitution strips only trailing line feeds, never one of these).
 */
export function shellArgument(argument: string): string {
  if (SHELL_PLAIN.test(argument)) return argument;
  let quoted = '';
  let word = '';
  for (const character of argument) {
    if (character !== '\n' && character !== '\t' && INVISIBLE_CHARACTER.test(character)) {
      word += `${quoted === '' ? '' : `'${quoted}'`}${printedCharacter(character)}`;
      quoted = '';
    } else quoted += character === "'" ? `'\\''` : character;
  }
  return word === '' || quoted !== '' ? `${word}'${quoted}'` : word;
}

/** A command line for POSIX sh: every argument through `shellArgument`. */
export function shellCommand(argv: readonly string[]): string {
  return argv.map(shellArgument).join(' ');
}

/** The here-document delimiter shellHeredoc starts from (then `_1`, `_2`, … until no line equals it). */
const HEREDOC_DELIMITER = 'MCP_SDK_PROBE_EOF';

/**
 * A command for POSIX sh that writes `text` to the file `path`, byte for byte: `cat > path <<'DELIM'`, a
 * here-document whose delimiter is quoted, so sh expands nothing inside (XCU §2.7.4: "If any part of word
 * is quoted ... the here-document lines shall not be expanded"), and chosen so that no line of `text`
 * equals it (the first such line would end the document). A here-document always ends with a line feed,
 * so `text` must too. Text with a character that acts on a terminal (C0 but tab and line feed, DEL, C1,
 * bidi controls) is refused: pasted, the block is shown first, and only printable text may be (the
 * callers' texts are free of them: repro files go through terminalJson).
 */
export function shellHeredoc(path: string, text: string): string {
  if (!text.endsWith('\n')) throw new TypeError(`shellHeredoc: ${path} must end with a line feed`);
  for (const character of text) {
    if (character !== '\n' && character !== '\t' && INVISIBLE_CHARACTER.test(character)) {
      throw new TypeError(`shellHeredoc: ${path} holds the control character U+${character.codePointAt(0)!.toString(16).padStart(4, '0')}`);
    }
  }
  const lines = new Set(text.split('\n'));
  let delimiter = HEREDOC_DELIMITER;
  for (let n = 1; lines.has(delimiter); n++) delimiter = `${HEREDOC_DELIMITER}_${n}`;
  return `cat > ${shellArgument(path)} <<'${delimiter}'\n${text}${delimiter}`;
}
