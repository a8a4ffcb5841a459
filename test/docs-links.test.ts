// Every relative link and #anchor in README.md and docs/**/*.md resolves, and the package ships every file
// they link to (issue 23 items 4 and 5): an installed package's README must not link to a missing page.
// Anchors are GitHub's heading slugs, made by github-slugger (the algorithm github.com uses, duplicates
// numbered -1, -2, …); the Markdown is read with marked's lexer, so a link or heading inside a code block
// is not one.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import GithubSlugger from 'github-slugger';
import { Lexer, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.ts';

interface Page {
  readonly links: readonly string[];
  readonly anchors: ReadonlySet<string>;
}

/** The plain text of inline tokens, as GitHub slugs a heading from its rendered text. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => ('tokens' in token && token.tokens ? plainText(token.tokens) : 'text' in token ? String(token.text) : ''))
    .join('');
}

/** The link targets (links and images) and heading anchors of one Markdown text. */
function readPage(markdown: string): Page {
  const links: string[] = [];
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const walk = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      if (token.type === 'heading') anchors.add(slugger.slug(plainText(token.tokens ?? [])));
      if (token.type === 'link' || token.type === 'image') links.push(token.href);
      if ('tokens' in token && token.tokens) walk(token.tokens);
      if (token.type === 'list') walk(token.items);
      if (token.type === 'table') for (const cell of [...token.header, ...token.rows.flat()]) walk(cell.tokens);
    }
  };
  walk(new Lexer().lex(markdown));
  return { links, anchors };
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i; // https:, mailto:, …

/**
 * What is wrong with each relative link of the pages (paths relative to the project root, '/'-separated):
 * a missing file, or an anchor no heading of the target page makes. `exists` answers for files not in `pages`.
 */
function brokenLinks(pages: ReadonlyMap<string, string>, exists: (path: string) => boolean): string[] {
  const read = new Map([...pages].map(([path, text]) => [path, readPage(text)]));
  const problems: string[] = [];
  for (const [from, page] of read) {
    for (const href of page.links) {
      if (EXTERNAL.test(href)) continue;
      const [pathPart = '', anchor] = href.split('#', 2);
      const target = pathPart === '' ? from : posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(pathPart)));
      if (target.startsWith('../')) problems.push(`${from}: ${href}: outside the project`);
      else if (!read.has(target) && !exists(target)) problems.push(`${from}: ${href}: no file ${target}`);
      else if (anchor !== undefined && target.endsWith('.md') && !(read.get(target)?.anchors.has(anchor) ?? false)) {
        problems.push(`${from}: ${href}: ${target} has no heading #${anchor}`);
      }
    }
  }
  return problems;
}

/** The relative link targets (files, '/'-separated from the root) of the pages. */
function linkedFiles(pages: ReadonlyMap<string, string>): Set<string> {
  const files = new Set<string>();
  for (const [from, text] of pages) {
    for (const href of readPage(text).links) {
      if (EXTERNAL.test(href) || href.startsWith('#')) continue;
      files.add(posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(href.split('#', 1)[0]!))));
    }
  }
  return files;
}

function markdownUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => posix.join(folder, name.split('\\').join('/')));
}

function projectPages(): Map<string, string> {
  const paths = ['README.md', ...markdownUnder('docs')];
  return new Map(paths.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')]));
}

const existsInProject = (path: string): boolean => existsSync(join(ROOT, path)) && (statSync(join(ROOT, path)).isFile() || statSync(join(ROOT, path)).isDirectory());

describe('the link checker', () => {
  const pages = new Map([
    ['README.md', '# Top\n\n[a](docs/a.md#the-part) [b](docs/a.md#nope) [c](docs/gone.md) [d](#top) [e](https://example.org/x#y)\n\n```\n[f](docs/in-code.md)\n```\n'],
    ['docs/a.md', '# A\n\n## The part\n\n[up](../README.md#top) [out](../../etc/passwd) [img](pic.png) [same](#the-part) [dup](#a-1)\n\n## A\n'],
  ]);

  it('reports a missing file, a missing anchor and a link out of the project, and nothing in code or external', () => {
    expect(brokenLinks(pages, (path) => path === 'docs/pic.png')).toEqual([
      'README.md: docs/a.md#nope: docs/a.md has no heading #nope',
      'README.md: docs/gone.md: no file docs/gone.md',
      'docs/a.md: ../../etc/passwd: outside the project',
    ]);
  });

  it('slugs headings as GitHub does: code spans and punctuation dropped, duplicates numbered', () => {
    expect([...readPage('# `--ndjson`: the sweep as it goes\n\n## Which clients let this through?\n\n## A\n\n## A\n').anchors]).toEqual([
      '--ndjson-the-sweep-as-it-goes',
      'which-clients-let-this-through',
      'a',
      'a-1',
    ]);
  });
});

describe('README.md and docs/', () => {
  it('every relative link and anchor resolves', () => {
    expect(brokenLinks(projectPages(), existsInProject)).toEqual([]);
  });

  it('the package ships every file they link to', () => {
    // --ignore-scripts: the list, without prepack's bundle and declarations build (~45 s); dist/ is not
    // linked from any page. test/releases/pack.test.ts packs for real.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [{ files: { path: string }[] }];
    const shipped = new Set(packed[0].files.map((file) => file.path));
    const pages = projectPages();
    const unshipped = [...linkedFiles(pages)].filter((path) => !shipped.has(path) && !(existsInProject(path) && statSync(join(ROOT, path)).isDirectory() && [...shipped].some((file) => file.startsWith(`${path.replace(/\/$/, '')}/`))));
    expect(unshipped).toEqual([]);
    // The pages themselves ship: an installed package's README links into docs/.
    expect([...pages.keys()].filter((path) => !shipped.has(path))).toEqual([]);
  }, 30_000);
});

