// Every sample block in README.md and docs/**/*.md (a `<!-- sample: NAME -->` marker, then a fenced block)
// must be what its sample prints now (probe/bin/docs.ts; `npm run docs` rewrites them). Each offline sample
// runs once, in-process, in a stand-in of the project (test-project.ts) whose default outputs are temporary.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allMarkers, CLI_REFERENCE, findMarkers, normaliseOutput, renderSample, replaceSamples, SAMPLES, staleSamples, writeDocs, type Sample, type SampleName } from '../probe/bin/docs.ts';
import { InputError } from '../probe/core/errors.ts';
import { ROOT } from './helpers/cli.ts';
import { TEST_PROJECT } from './helpers/test-project.ts';

// The samples name project paths (scenarios/…, test/fixtures/…, ./node_modules/…) relative to the folder
// they run in; the stand-in reaches the checkout's through links.
// The links go when the file is done: test files may share the stand-in (vitest isolate: false).
const LINKS = ['node_modules', 'scenarios', 'test'].map((name) => join(TEST_PROJECT, name)).filter((link) => !existsSync(link));
for (const link of LINKS) symlinkSync(join(ROOT, link.slice(TEST_PROJECT.length + 1)), link);
afterAll(() => {
  for (const link of LINKS) rmSync(link);
});
const run = { cwd: TEST_PROJECT };
const OFFLINE = (Object.keys(SAMPLES) as SampleName[]).filter((name) => !(SAMPLES[name] as Sample).registry);
const rendered = new Map<SampleName, string>();

beforeAll(async () => {
  for (const name of OFFLINE) rendered.set(name, await renderSample(name, run));
}, 60_000);

describe('the samples in README.md and docs/', () => {
  it('name only known samples, each followed by a fenced block (npm run docs exits 2 naming the file and line otherwise)', () => {
    expect(() => allMarkers(ROOT)).not.toThrow();
  });

  it('are each what a fresh run prints (run npm run docs when this fails)', () => {
    expect(staleSamples(allMarkers(ROOT), rendered)).toEqual([]);
  });

  it('include at least the audit and the replay (so this test checks something)', () => {
    const names = allMarkers(ROOT).flatMap(({ markers }) => markers.map((marker) => marker.name));
    expect(names).toEqual(expect.arrayContaining(['audit-table', 'replay-table']));
  });
});

describe('each offline sample', () => {
  it.each(OFFLINE)('%s: runs, starts with its command and shows nothing of this machine', (name) => {
    const body = rendered.get(name)!;
    expect(body.split('\n')[0]).toBe(`$ ${SAMPLES[name].command}`);
    for (const detail of [process.version, TEST_PROJECT, ROOT, tmpdir(), '\u001b[']) expect(body).not.toContain(detail);
  });

  it('audit-failing shows a failed case; v1-folder-release and sweep-folder a local build', () => {
    expect(rendered.get('audit-failing')).toContain('✗ v1/warm/error-empty-text: expected rejected (any error), observed returned isError');
    expect(rendered.get('v1-folder-release')).toContain('@modelcontextprotocol/sdk@1.32.2+local.<hash>');
    expect(rendered.get('sweep-folder')).toContain('1 release swept');
  });
});

describe('markers', () => {
  const doc = (lines: string[]) => lines.join('\n');

  it.each<[string, string[], RegExp]>([
    ['an unknown name', ['# t', '', '<!-- sample: audit-tabel -->', '```', 'x', '```'], /^doc\.md:3: unknown sample 'audit-tabel': the samples are audit-table, /],
    ['no fenced block after it', ['<!-- sample: audit-table -->', '', 'prose'], /^doc\.md:1: sample 'audit-table' is not followed by a fenced block/],
    ['a block never closed', ['<!-- sample: help -->', '```', 'x'], /^doc\.md:1: sample 'help': its fenced block is never closed/],
    ['a malformed marker', ['', '<!-- sample: -->'], /^doc\.md:2: a sample marker is <!-- sample: NAME -->/],
    ['registry on an offline sample', ['<!-- sample: help registry -->', '```', '```'], /^doc\.md:1: sample 'help' runs offline: drop the word registry/],
    ['a registry sample without the word', ['<!-- sample: sweep-v1-range -->', '```', '```'], /^doc\.md:1: sample 'sweep-v1-range' needs the npm registry/],
  ])('refuse %s, naming the file and line', (_, lines, message) => {
    expect(() => findMarkers(doc(lines), 'doc.md')).toThrow(InputError);
    expect(() => findMarkers(doc(lines), 'doc.md')).toThrow(message);
  });

  it('are rewritten in place, indentation, language and the prose around them kept, and then are current', () => {
    const text = doc(['intro', '1. step', '', '   <!-- sample: help -->', '', '   ```text', '   old', '   ```', '', 'after', '<!-- sample: audit-table -->', '```', '```', '']);
    const samples = new Map<SampleName, string>([['help', 'line one\n\nline ```three'], ['audit-table', 'a']]);
    const written = replaceSamples(text, findMarkers(text, 'doc.md'), samples);
    expect(written).toBe(doc(['intro', '1. step', '', '   <!-- sample: help -->', '', '   ````text', '   line one', '', '   line ```three', '   ````', '', 'after', '<!-- sample: audit-table -->', '```', 'a', '```', '']));
    const markers = findMarkers(written, 'doc.md');
    expect(staleSamples([{ file: 'doc.md', text: written, markers }], samples)).toEqual([]);
  });

  it('an edited sample is stale, named by file, line and sample', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const marked = '<!-- sample: audit-table -->\n```\n$ npm run probe\n';
    const edited = readme.replace(marked, `${marked}an edited line\n`);
    expect(edited).not.toBe(readme);
    const stale = staleSamples([{ file: 'README.md', text: edited, markers: findMarkers(edited, 'README.md') }], rendered);
    expect(stale).toEqual([expect.objectContaining({ file: 'README.md', name: 'audit-table' })]);
  });
});

describe('npm run docs (writeDocs)', () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  const project = (readme: string) => {
    const root = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-docs-'));
    roots.push(root);
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'README.md'), readme);
    writeFileSync(join(root, 'docs', 'page.md'), '# page\n');
    return root;
  };
  const quiet = { stdout: () => {}, stderr: () => {} };

  it('exits 2 on an unknown sample, naming the file and line, and writes nothing', async () => {
    const root = project('# x\n\n<!-- sample: nope -->\n```\nold\n```\n');
    let stderr = '';
    expect(await writeDocs({ root, run, offline: true, ...quiet, stderr: (text) => void (stderr += text) })).toBe(2);
    expect(stderr).toMatch(/^npm run docs: README\.md:3: unknown sample 'nope'/);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe('# x\n\n<!-- sample: nope -->\n```\nold\n```\n');
    expect(existsSync(join(root, CLI_REFERENCE))).toBe(false);
  });

  it('rewrites a stale block and writes docs/cli.md; --offline leaves a registry sample as it is', async () => {
    const root = project('# x\n\n<!-- sample: help -->\n```\nold\n```\n\n<!-- sample: sweep-v1-range registry -->\n```\nkept\n```\n');
    let stdout = '';
    expect(await writeDocs({ root, run, offline: true, ...quiet, stdout: (text) => void (stdout += text) })).toBe(0);
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toBe(`# x\n\n<!-- sample: help -->\n\`\`\`\n${rendered.get('help')}\n\`\`\`\n\n<!-- sample: sweep-v1-range registry -->\n\`\`\`\nkept\n\`\`\`\n`);
    expect(readFileSync(join(root, CLI_REFERENCE), 'utf8')).toBe(readFileSync(join(ROOT, CLI_REFERENCE), 'utf8'));
    expect(stdout).toContain('left as they are (they need the npm registry): sweep-v1-range');
  });
});

describe('normaliseOutput', () => {
  it.each([
    [`node ${process.version} ${process.platform}/${process.arch}`, 'node <node-version> <platform>/<arch>'],
    [`${join(TEST_PROJECT, 'results')} and ${join(tmpdir(), 'x')}`, '<project>/results and <tmp>/x'],
    ['1.32.2+local.ed3408ae', '1.32.2+local.<hash>'],
    ['ran 7 cases in 396 ms, 1.5 s, 12ms', 'ran 7 cases in <duration>, <duration>, <duration>'],
    ['at 2026-05-01T10:20:30.123Z', 'at <time>'],
    ['commit 0123456789abcdef0123456789abcdef01234567', 'commit <commit>'],
    ['13 passed, 0 failed', '13 passed, 0 failed'],
  ])('%s', (text, shown) => {
    expect(normaliseOutput(text, { project: ROOT, cwd: TEST_PROJECT })).toBe(shown);
  });
});
