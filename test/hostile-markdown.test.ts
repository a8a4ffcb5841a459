// Issue 20: no Markdown evidence renders data live, and every command printed in evidence reads back, in
// POSIX sh, as the arguments it names. Each Markdown output the probe writes is rendered from real runs
// (the CLI in-process: a replay of a capture written here, an explore finding replayed, a repro folder)
// and from the pinned run's real records with every data field replaced by a hostile string; marked then
// reads it, and the live elements (HTML, headings, links, images, definitions) must be the template's
// own, as the same render with plain data has them.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareWithRecorded } from '../probe/core/compare.ts';
import type { CaseRecord, ResultFile } from '../probe/core/domain.ts';
import { renderFindingMarkdown } from '../probe/explore/findings.ts';
import { renderMarkdown, renderSummaryMarkdown, type EvidenceContext } from '../probe/render/markdown.ts';
import { renderRepro } from '../probe/render/repro.ts';
import { markdownCode } from '../probe/core/escape.ts';
import { renderSweepMarkdown } from '../probe/render/sweep-markdown.ts';
import { changePoints, summarize, type ReleaseRun, type SweepResult } from '../probe/sweep/model.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { extendedMatrix } from '../scenarios/extended/index.ts';
import { FIXED_ENVIRONMENT } from './fixtures.ts';
import { HOSTILE_STRINGS, liveElements } from './helpers/hostile.ts';
import { runMain } from './helpers/main.ts';
import { pinnedPart } from './helpers/pinned-run.ts';

const HOSTILE = Object.entries(HOSTILE_STRINGS);
type Fill = (name: keyof typeof HOSTILE_STRINGS & string) => string;
const hostile: Fill = (name) => HOSTILE_STRINGS[name]!;
/** The same fields with plain words, so the benign render has the template's elements only. */
const plain: Fill = (name) => `plain${Object.keys(HOSTILE_STRINGS).indexOf(name)}`;

/**
 * The live elements as the template places them: HTML by its tags (the text inside is data, escaped),
 * headings by their place (their text holds data), links, images and definitions whole.
 */
function template(markdown: string): string[] {
  return liveElements(markdown).map((element) =>
    element.kind === 'html'
      ? `html ${[...element.text.matchAll(/<(!--|[!?]|\/?[A-Za-z][\w-]*)/g)].map((m) => m[1]).join(' ')}`
      : element.kind === 'heading'
        ? 'heading'
        : `${element.kind} ${element.text}`,
  );
}

/** Runs `command` (a printed command line) in sh with its program replaced by an argv dumper; the arguments sh reads. */
function argvOf(command: string, program: RegExp, cwd: string): string[] {
  expect(command).toMatch(program);
  const out = execFileSync('/bin/sh', ['-c', command.replace(program, "printf '%s\\0'")], { cwd, encoding: 'utf8' });
  return out.split('\0').slice(0, -1);
}

/** The text of every fenced block of `language`, whatever its fence length. */
function fences(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^(`{3,})(\S*)\n([\s\S]*?)\n\1$/gm)].filter((m) => m[2] === language).map((m) => m[3]!);
}

// ------------------------------------------------------------------------ real records, every field hostile

/** Keys whose values are the project's own closed sets (zod enums), not data: kept as they are. */
const OWN_KEYS = new Set(['client', 'discovery', 'transport', 'outcome', 'verdict', 'stage', 'by', 'server', 'answer', 'registration', 'era', 'level', 'kind', 'sent', 'serverSent', 'status', 'line', 'side']);

/** A copy of `value` with every data string (and the keys of the maps named in `keyed`) replaced by `text`; ids stay distinct. */
function everyField<T>(value: T, text: string, keyed = new Set(['packages', 'integrity', 'lint'])): T {
  let count = 0;
  const walk = (node: unknown, key: string | undefined, parent: Record<string, unknown> | undefined): unknown => {
    if (typeof node === 'string') {
      if (key !== undefined && OWN_KEYS.has(key)) return node;
      if ((key === 'expected' || key === 'observed') && (parent?.kind === 'sent' || parent?.kind === 'by')) return node;
      count += 1;
      return key === 'id' || key === 'caseId' ? `${text} ${count}` : text;
    }
    // An error's code (ErrorInfo, an expected rejection, a code mismatch) may be a string: the client's or the user's.
    if (typeof node === 'number' && key === 'code' && parent && ('name' in parent || parent.outcome === 'rejected' || parent.kind === 'code')) return text;
    if (Array.isArray(node)) return node.map((item) => walk(item, key, parent));
    if (node !== null && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(record).map(([k, v], i) => [key !== undefined && keyed.has(key) ? `${text} ${i}` : k, walk(v, k, record)]),
      );
    }
    return node;
  };
  return walk(value, undefined, undefined) as T;
}

/**
 * The pinned run's audit records, with one extended record of each outcome and of each thing the server
 * sent (a JSON-RPC error, an altered result), so every branch of the renderers gets data.
 */
function auditRun(): ResultFile {
  const audit = pinnedPart(auditMatrix, FIXED_ENVIRONMENT);
  const kinds = new Map<string, CaseRecord>();
  for (const record of pinnedPart(extendedMatrix, FIXED_ENVIRONMENT).cases) {
    const sent = record.observed.serverSent;
    const kind = `${record.observed.outcome} ${typeof sent === 'string' ? sent : Object.keys(sent)[0]}`;
    if (!kinds.has(kind)) kinds.set(kind, record);
  }
  return { ...audit, cases: [...audit.cases, ...kinds.values()] };
}

/** A result and the comparison with a recorded one in which a case changed, one is new and one is stale. */
function withComparison(result: ResultFile, text: string) {
  const [first, second, third, ...rest] = result.cases;
  const changedObservation: CaseRecord['observed'] = { outcome: 'rejected', error: { name: text, code: text, message: text }, by: 'server', serverSent: 'nothing' };
  const recorded: ResultFile = { ...result, cases: [{ ...first!, observed: changedObservation }, ...rest, { ...second!, id: `${second!.id}-gone` }] };
  const current: ResultFile = { ...result, cases: [first!, third!, ...rest] };
  return { result: current, comparison: compareWithRecorded(recorded, current, { fullMatrix: true }) };
}

const context = (text: string): EvidenceContext => ({
  argv: ['--matrix', text, '--format', 'markdown', '--case', text],
  git: { commit: text, dirty: true },
  harness: { name: 'mcp-sdk-probe', version: '0.0.0', repository: 'https://github.com/example/mcp-sdk-probe' },
  recordedPath: text,
});

function render(text: string | undefined) {
  const real = auditRun();
  // Every case fails, so the summary lists each with its mismatches.
  const failing: ResultFile = { ...real, cases: real.cases.map((c) => ({ ...c, verdict: 'fail', mismatches: [{ kind: 'name', expected: 'e', observed: 'o' }, { kind: 'code', expected: 'c', observed: 'd' }, { kind: 'outcome', expected: 'p', observed: 'q' }] })) };
  const data = text === undefined ? failing : everyField(failing, text);
  const { result, comparison } = withComparison(data, text ?? 'plain');
  return {
    evidence: renderMarkdown(result, comparison, context(text ?? 'plain')),
    // No recorded result at the --recorded path given.
    noRecorded: renderMarkdown(result, compareWithRecorded(undefined, result, { fullMatrix: true }), context(text ?? 'plain')),
    summary: renderSummaryMarkdown(result, comparison, text ?? 'plain heading'),
  };
}

function sweepResult(text: string | undefined): SweepResult {
  const real = auditRun().cases.slice(0, 3);
  const cases = text === undefined ? real : everyField(real, text);
  const release = (label: string): ReleaseRun['release'] => ({ line: 'v1', packageName: text ?? 'pkg', version: label, label, source: 'registry', integrity: text ?? null });
  const [a, b] = text === undefined ? ['1.0.0', '2.0.0'] : [`${text} 1`, `${text} 2`];
  // The second release behaves otherwise in every case: a change point each.
  const swapped = cases.map((c, i) => ({ ...c, observed: cases[(i + 1) % cases.length]!.observed }));
  const releases: ReleaseRun[] = [
    { status: 'ran', release: release(a!), cases },
    { status: 'ran', release: release(b!), cases: swapped },
    { status: 'failed', release: release(`${a} failed`), stage: 'load', error: { name: text ?? 'E', code: text ?? null, message: text ?? 'm' } },
  ];
  return {
    schemaVersion: 2,
    kind: 'sweep',
    matrix: { name: text ?? 'audit', title: text ?? 't', source: text ?? 's' },
    environment: text === undefined ? FIXED_ENVIRONMENT : everyField(FIXED_ENVIRONMENT, text),
    request: { v1: text ?? '1.0.0..2.0.0', v2: null, aiSdk: text ?? '1', prerelease: false },
    plan: releases.map((r) => r.release.label),
    releases,
    changePoints: changePoints(releases),
    leftOut: [{ reason: 'other-package', caseIds: [text ?? 'v1/warm/x', text ?? 'v1/warm/y'] }],
    summary: summarize(releases),
  } as SweepResult;
}

const sweepInput = (text: string | undefined) => ({
  result: sweepResult(text),
  baseline: undefined,
  baselinePath: text ?? 'results/sweep-baseline.json',
  updatedBaseline: false,
  pinned: [],
  writtenPath: undefined,
});

describe('Markdown from real records whose every data field is hostile: only the template is live', () => {
  const benign = render(undefined);
  const benignSweep = renderSweepMarkdown(sweepInput(undefined));

  it('the records reach every branch: each outcome, and a server that sent an error or an altered result', () => {
    const kinds = new Set(auditRun().cases.map((c) => `${c.observed.outcome} ${typeof c.observed.serverSent === 'string' ? c.observed.serverSent : Object.keys(c.observed.serverSent)[0]}`));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['crashed nothing', 'rejected error', 'returned altered', 'timeout nothing', 'rejected as-scenario', 'returned as-scenario']));
  });

  it('the benign renders have the template elements this test compares with', () => {
    expect(template(benign.evidence)).toContain('html details summary code /code /summary');
    expect(template(benign.evidence).filter((e) => e === 'heading').length).toBeGreaterThanOrEqual(5);
    expect(template(benignSweep)).toContain('html details summary /summary');
  });

  it.each(HOSTILE)('%s: renderMarkdown', (_, text) => {
    expect(template(render(text).evidence)).toEqual(template(benign.evidence));
  });

  it.each(HOSTILE)('%s: renderMarkdown with no recorded result at the path given', (_, text) => {
    expect(template(render(text).noRecorded)).toEqual(template(benign.noRecorded));
  });

  it.each(HOSTILE)('%s: repro README of a case whose id, question and error are hostile', (_, text) => {
    const readme = (t: string | undefined) => {
      const run = pinnedPart(auditMatrix);
      const [rejected, returned] = ['v1/warm/off-schema-success', 'v1/warm/conforming-success'].map((id) => run.cases.find((c) => c.id === id)!);
      const scenario = (record: CaseRecord) => auditMatrix.scenarios.find((s) => s.id === record.id)!;
      const readmeOf = (record: CaseRecord, observed: CaseRecord['observed']) =>
        renderRepro({
          scenario: { ...scenario(record), id: t ?? record.id, question: t ?? 'q' },
          // The client package is checked against the case's client line (the repro imports it), so it is not data here.
          record: { ...record, id: t ?? record.id, observed },
          packages: run.environment.packages,
          timeoutMs: 5000,
        })['README.md']!;
      const error = { name: t ?? 'E', code: t ?? 'c', message: t ?? 'm' };
      return [
        readmeOf(rejected!, { ...(rejected!.observed as Extract<CaseRecord['observed'], { outcome: 'rejected' }>), error }),
        readmeOf(returned!, { outcome: 'returned', structuredContent: { [t ?? 'k']: t ?? 'v' }, serverSent: 'as-scenario' }),
        readmeOf(rejected!, { outcome: 'crashed', stage: 'discover', error, serverSent: 'nothing' }),
      ].join('\n');
    };
    expect(template(readme(text))).toEqual(template(readme(undefined)));
  });

  it.each(HOSTILE)('%s: renderSummaryMarkdown (the GitHub Action job summary)', (_, text) => {
    expect(template(render(text).summary)).toEqual(template(benign.summary));
  });

  it.each(HOSTILE)('%s: sweep Markdown', (_, text) => {
    expect(template(renderSweepMarkdown(sweepInput(text)))).toEqual(template(benignSweep));
  });

  it.each(HOSTILE)('%s: explore finding page', (_, text) => {
    const page = (t: string | undefined) =>
      renderFindingMarkdown({
        finding: {
          class: t ?? 'c',
          oracle: 'differential',
          clients: ['v1', 'v2'],
          sequence: { server: { pageSize: 1, tools: [{ name: t ?? 'alpha', versions: [{ properties: ['b'], required: [], closed: false }] }] }, steps: [{ do: 'list', how: 'plain' }] },
        },
        traces: [
          {
            client: 'v1',
            events: [
              { event: 'listed', step: 0, via: 'plain', tools: [{ name: t ?? 'alpha', inputSchema: {} }] },
              { event: 'action-failed', step: 0, action: 'list', refused: false, error: { name: t ?? 'E', code: null, message: t ?? 'm' } },
              { event: 'uncaught', step: 0, error: { name: t ?? 'E', code: null, message: t ?? 'm' } },
            ],
          },
        ],
        packages: { [t ?? 'pkg']: t ?? '1.0.0' },
        file: t ?? 'finding.json',
      });
    expect(template(page(text))).toEqual(template(page(undefined)));
  });
});

// ------------------------------------------------------------------------------ real runs of the CLI

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-hostile-md-'));
});

/** A capture whose tool and result carry data in every field a client or the rules quote back. */
function capture(s: Fill) {
  return {
    tool: {
      name: s('html image (tracking pixel)'),
      title: s('closing details, opening another'),
      description: s('heading after a line break'),
      inputSchema: { type: 'object' },
      outputSchema: {
        type: 'object',
        properties: { [s('javascript link')]: { type: 'string' } },
        // ajv names each missing property in the v1 client's error message, and the rules quote them.
        required: [s('html with handler'), s('javascript link'), s('blank line then heading'), s('code span breaking out')],
      },
    },
    result: { content: [{ type: 'text', text: s('script element') }], structuredContent: { [s('image')]: s('html comment hiding what follows') } },
  };
}

/** A file name with no `/`: HTML, a line break and heading, a link, backticks and shell syntax. */
const fileName = (s: Fill) => (s === hostile ? "<img src=x onerror=alert(1)>\n# ALL PASSED [x](javascript:alert(1)) `` it's $(id).json" : 'plain-capture.json');
/** --expect values: a bare `>` (a redirect if printed unquoted) and an error code that is HTML. */
const expectations = (s: Fill) => (s === hostile ? ['rejected:scen>pwned', `v1/*=rejected:${hostile('html image (tracking pixel)')}`] : ['rejected:plainA', 'v1/*=rejected:plainB']);

async function replayMarkdown(s: Fill) {
  const folder = join(dir, s === hostile ? 'hostile' : 'plain');
  mkdirSync(folder, { recursive: true });
  const path = join(folder, fileName(s));
  writeFileSync(path, JSON.stringify(capture(s)));
  const args = ['replay', path, '--clients', 'v1,v2', '--format', 'markdown', ...expectations(s).flatMap((e) => ['--expect', e])];
  return { run: await runMain(args, { cwd: folder }), folder };
}

describe('replay --format markdown of a hostile capture (the CLI, real clients)', () => {
  let hostileRun: Awaited<ReturnType<typeof replayMarkdown>>;
  let plainRun: Awaited<ReturnType<typeof replayMarkdown>>;
  beforeAll(async () => {
    [hostileRun, plainRun] = [await replayMarkdown(hostile), await replayMarkdown(plain)];
  }, 120_000);

  it('exits by verdict and renders only the template live', () => {
    expect([hostileRun.run.code, plainRun.run.code]).toEqual([1, 1]);
    // The data did reach the document (the v1 client quotes the required names back).
    expect(hostileRun.run.stdout).toContain('onerror=alert(1)');
    expect(template(hostileRun.run.stdout)).toEqual(template(plainRun.run.stdout));
  });

  it('prints a Reproduce command that sh reads back as the arguments given, with nothing redirected', () => {
    // The sh block that re-runs the harness (the others: the standalone block, after it the command for a case left out).
    const command = fences(hostileRun.run.stdout, 'sh').filter((block) => block.trimEnd().endsWith('--format markdown')).at(-1);
    const argv = argvOf(command!, /^node_modules\/\.bin\/mcp-sdk-probe/, hostileRun.folder);
    expect(argv).toEqual(['replay', 'capture.json', '--clients', 'v1,v2', ...expectations(hostile).flatMap((e) => ['--expect', e]), '--format', 'markdown']);
    expect(readdirSync(hostileRun.folder)).toEqual([fileName(hostile)]);
  });
});

describe('replay --format repro into a hostile folder: README and the printed command', () => {
  const folder = () => join(dir, 'repro');
  const out = "scen>pwned $(touch owned) `touch owned2` it's";
  let bad: { stderr: string; readme: string };
  let good: { stderr: string; readme: string };
  beforeAll(async () => {
    mkdirSync(folder(), { recursive: true });
    const repro = async (s: Fill, to: string) => {
      const path = join(folder(), `${s === hostile ? 'h' : 'p'}.json`);
      writeFileSync(path, JSON.stringify(capture(s)));
      const run = await runMain(['replay', path, '--clients', 'v1', '--case', 'v1/warm/*', '--format', 'repro', '--out', to], { cwd: folder() });
      expect(run.code).toBe(0);
      return { stderr: run.stderr, readme: readFileSync(join(folder(), to, 'README.md'), 'utf8') };
    };
    [bad, good] = [await repro(hostile, out), await repro(plain, 'plain-out')];
  }, 120_000);

  it('the README renders only its template live', () => {
    expect(bad.readme).toContain('onerror');
    expect(template(bad.readme)).toEqual(template(good.readme));
  });

  it('the cd command printed reads back in sh as the folder, running nothing', () => {
    const command = /\(run: (.*)\)\n$/.exec(bad.stderr)?.[1];
    expect(command).toMatch(/ && npm install --ignore-scripts --no-audit --no-fund && node repro\.mjs$/);
    expect(argvOf(command!.replace(/ && npm install --ignore-scripts --no-audit --no-fund && node repro\.mjs$/, ''), /^cd\b/, folder())).toEqual([out]);
    expect(readdirSync(folder()).sort()).toEqual(['h.json', 'p.json', 'plain-out', out].sort());
  });
});

describe('explore --replay --format markdown of a hostile finding file', () => {
  const folder = () => join(dir, 'explore');
  const name = "<img src=x onerror=alert(1)> [x](javascript:alert(1)) scen>pwned it's.json";
  let bad: string;
  let good: string;
  beforeAll(async () => {
    mkdirSync(folder(), { recursive: true });
    const page = async (s: Fill, file: string) => {
      const finding = {
        schemaVersion: 1,
        class: s('heading at the start'),
        oracle: 'differential',
        clients: ['v1', 'v2'],
        sequence: {
          server: { pageSize: 1, tools: [{ name: s('html with handler'), versions: [{ properties: ['b'], required: [], closed: false }] }] },
          steps: [{ do: 'list', how: 'plain' }, { do: 'call', tool: 0, conforms: 'none', isError: true, structured: true }],
        },
      };
      writeFileSync(join(folder(), file), JSON.stringify(finding));
      const run = await runMain(['explore', '--replay', file, '--clients', 'v1,v2', '--format', 'markdown'], { cwd: folder() });
      expect(run.code).toBe(0);
      return run.stdout;
    };
    [bad, good] = [await page(hostile, name), await page(plain, 'plain.json')];
  }, 120_000);

  it('renders only the template live', () => {
    expect(bad).toContain('onerror');
    expect(template(bad)).toEqual(template(good));
  });

  it('prints a replay command that sh reads back as the file, running nothing', () => {
    const [command] = fences(bad, 'sh');
    expect(argvOf(command!, /^node_modules\/\.bin\/mcp-sdk-probe/, folder())).toEqual(['explore', '--replay', name]);
    expect(readdirSync(folder()).sort()).toEqual([name, 'plain.json'].sort());
    // Never npx of the harness's name: it is not on the registry, and a name anyone could register runs a stranger's code.
    expect(bad).not.toMatch(/\bnpx\b/);
  });
});

describe('sweep Markdown: the Reproduce command', () => {
  it('names the harness as text and reads back in sh as the flags and matrix the sweep file names, running nothing', () => {
    // A merged shard is a stranger's file: its harness, matrix name and release specs are data.
    const text = "x; touch pwned `touch pwned2` $(touch pwned3) it's ~ >y";
    const cwd = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-sweep-sh-'));
    const markdown = renderSweepMarkdown(sweepInput(text));
    const [command] = fences(markdown, 'sh');
    // Never `npx <name>` (issue 21): the harness the file names is shown as a code span to ask the reporter for.
    expect(markdown).not.toMatch(/\bnpx\b/);
    expect(markdown).toContain(`needs the harness it names, ${markdownCode(text)}`);
    expect(argvOf(command!, /^node_modules\/\.bin\/mcp-sdk-probe/, cwd)).toEqual(['sweep', '--v1', text, '--ai-sdk', text, '--matrix', text]);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('a 600 KB capture of many backtick runs', () => {
  it('renders as Markdown and exits by verdict (0 unjudged), never a RangeError', async () => {
    const path = join(dir, 'backticks.json');
    writeFileSync(path, JSON.stringify({ tool: { name: 't', inputSchema: { type: 'object' } }, result: { content: [{ type: 'text', text: '`a``b'.repeat(120_000) }] } }));
    const out = join(dir, 'backticks.md');
    const run = await runMain(['replay', path, '--clients', 'v1', '--case', 'v1/cold/*', '--format', 'markdown', '--out', out]);
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringContaining('RangeError')]);
    expect(readFileSync(out, 'utf8')).toContain('```json\n');
  }, 120_000);
});
