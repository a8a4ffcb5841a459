// Issue 20: an own `__proto__` key (JSON.parse keeps one as an own property; zod 4 leaves it out of what
// it parses) is a key like any other, on every route a stranger's JSON takes: a capture file replayed by
// the real CLI sends it and records who dropped it, a tool's schema is listed as the file gives it, and
// a result file reads back as the run wrote it (write, read, write: the same bytes; compared with
// itself: no change). Files are written here at test time; nothing is mocked.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSweepText, replay, writeCaptureFile } from '../probe/api/index.ts';
import { adapters } from '../probe/clients/index.ts';
import { compareWithRecorded } from '../probe/core/compare.ts';
import { defineCase, returnsAsSent } from '../probe/core/define.ts';
import { ResultFileSchema, type ToolDefinition, type ToolResult } from '../probe/core/domain.ts';
import { markdownText } from '../probe/core/escape.ts';
import { judge } from '../probe/core/judge.ts';
import { observe } from '../probe/engine/observe.ts';
import { parseCapture, readCapture } from '../probe/io/capture.ts';
import { openJournal, readJournal } from '../probe/io/journal.ts';
import { parseResultText, serializeResult } from '../probe/io/json-files.ts';
import { loadUserScenarios } from '../probe/io/user-scenarios.ts';
import { renderMarkdown } from '../probe/render/markdown.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

const dir = mkdtempSync(join(tmpdir(), 'probe-proto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOOL = '{"name":"probe_value","inputSchema":{"type":"object"}}';
const RESULT = '{"content":[{"type":"text","text":"7"}],"structuredContent":{"__proto__":{"x":1},"value":7}}';
const PAIR = `{"tool":${TOOL},"result":${RESULT}}`;
const MESSAGES = `[{"jsonrpc":"2.0","id":1,"result":{"tools":[${TOOL}]}},{"jsonrpc":"2.0","id":2,"result":${RESULT}}]`;
const LOST = [{ path: ['structuredContent', '__proto__'], by: 'client' }];

interface Record_ {
  id: string;
  result: { structuredContent: object };
  tool: { inputSchema: { properties?: object }; outputSchema?: { properties?: object } };
  observed: { outcome: string; serverSent: unknown; dropped?: unknown; structuredContent?: object };
}

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function replayFile(name: string, text: string, ...flags: string[]) {
  const capture = write(`${name}.json`, text);
  const out = join(dir, `${name}-result.json`);
  const run = await runMain(['replay', capture, '--clients', 'v1,v2,ai-sdk', '--out', out, ...flags], { cwd: dir });
  return { run, out, text: readFileSync(out, 'utf8'), cases: (JSON.parse(readFileSync(out, 'utf8')) as { cases: Record_[] }).cases };
}

describe('a capture whose structuredContent has an own __proto__ key', () => {
  // Observed: replay's fixture, the v1 low-level Server registered as a real server registers (wrapped),
  // re-parses the result as a CallToolResult (zod) before sending, so the key is gone before any client
  // sees it. The record says so: altered on the wire, the key dropped by the server.
  const WIRE = { content: [{ text: '7', type: 'text' }], structuredContent: { value: 7 } };
  const BY_SERVER = [{ path: ['structuredContent', '__proto__'], by: 'server' }];

  it.each([
    ['pair', PAIR],
    ['messages', MESSAGES],
  ])('replay (%s form) sends it and records that the server dropped it, on every line', async (name, text) => {
    const { run, cases } = await replayFile(name, text);
    expect(run.stderr).toBe('');
    expect(cases.map((c) => c.id)).toEqual(['v1/warm', 'v1/cold', 'v2/warm', 'v2/cold', 'ai-sdk/warm', 'ai-sdk/cold', 'ai-sdk/tools-automatic', 'ai-sdk/tools-with-schemas'].map((id) => `${id}/${name}`));
    for (const record of cases) {
      // The record's result is the capture's, own key included; what went out lacked it.
      expect(Object.hasOwn(record.result.structuredContent, '__proto__'), record.id).toBe(true);
      expect(record.observed.serverSent, record.id).toEqual({ altered: WIRE });
      expect(record.observed.outcome, record.id).toBe('returned');
      expect(record.observed.dropped, record.id).toEqual(BY_SERVER);
    }
    // The terminal table flags every cell: none reads plain "returned".
    expect(run.stdout.match(/• returned \(1 key dropped\)/g)).toHaveLength(cases.length);
  });

  it('replay --format markdown says which key the server dropped, and shows the result as the capture gives it', async () => {
    const capture = write('md.json', PAIR);
    const run = await runMain(['replay', capture, '--clients', 'v1', '--format', 'markdown'], { cwd: dir });
    expect(run.stderr).toBe('');
    // As Markdown text (escaped): a reader sees exactly these words.
    expect(run.stdout).toContain(markdownText('dropped: structuredContent.__proto__ (by the server)'));
    expect(run.stdout).toContain('"structuredContent": {\n    "__proto__": {\n      "x": 1\n    },');
    expect(run.stdout).toContain('returned (1 key dropped)');
  });

  // The same result sent unaltered (the unwrapped registration): the v1 and v2 clients' parse drops the
  // key, the AI SDK's keeps it; an expectation made from the result keeps the key, so "returned as sent"
  // fails where the client dropped it.
  it.each([
    ['v1', LOST, 'fail'],
    ['v2', LOST, 'fail'],
    ['ai-sdk', undefined, 'pass'],
  ] as const)('%s, sent unaltered: dropped %j, "returned as sent" %s', async (client, dropped, verdict) => {
    const result = JSON.parse(RESULT) as ToolResult;
    const scenario = defineCase({
      client,
      discovery: 'warm',
      shape: { id: 'own-proto', title: 'own __proto__', result },
      tool: JSON.parse(TOOL) as ToolDefinition,
      expected: returnsAsSent(result),
      server: { kind: 'respond', result, registration: 'raw' },
    });
    expect(Object.hasOwn((scenario.expected as { structuredContent: object }).structuredContent, '__proto__')).toBe(true);
    const observed = await observe(scenario, adapters[client], { timeoutMs: 10_000 });
    expect(observed).toMatchObject({ outcome: 'returned', serverSent: 'as-scenario' });
    expect(observed.outcome === 'returned' && observed.dropped).toEqual(dropped ?? undefined);
    expect(judge(scenario.expected, observed).verdict).toBe(verdict);
  });
});

describe('a capture whose tool schemas have own __proto__ keys', () => {
  const tool =
    '{"name":"probe_value","inputSchema":{"type":"object","properties":{"__proto__":{"type":"object"}}},"outputSchema":{"type":"object","properties":{"__proto__":{"type":"object"},"value":{"type":"number"}},"required":["value"]}}';

  it('parseCapture keeps the schemas as the file gives them', () => {
    const capture = parseCapture(JSON.parse(`{"tool":${tool},"result":${RESULT}}`), '/x/schema.json');
    expect(Object.hasOwn(capture.tool.inputSchema.properties as object, '__proto__')).toBe(true);
    expect(Object.hasOwn((capture.tool.outputSchema!.properties as object), '__proto__')).toBe(true);
  });

  it('writeCaptureFile writes them, and the result\'s, as given', () => {
    const path = join(dir, 'written.json');
    writeCaptureFile(path, { name: 'written', tool: JSON.parse(tool), result: JSON.parse(RESULT) });
    const read = readCapture(path);
    expect(Object.hasOwn(read.tool.outputSchema!.properties as object, '__proto__')).toBe(true);
    expect(Object.hasOwn(read.result.structuredContent as object, '__proto__')).toBe(true);
  });

  it('the record shows the tool the server listed: the file\'s, own keys included', async () => {
    const { cases } = await replayFile('schema', `{"tool":${tool},"result":${RESULT}}`);
    for (const record of cases) {
      expect(Object.hasOwn(record.tool.inputSchema.properties!, '__proto__'), record.id).toBe(true);
      expect(Object.hasOwn(record.tool.outputSchema!.properties!, '__proto__'), record.id).toBe(true);
    }
  });
});

describe('a result file with own __proto__ keys reads back as it was written', () => {
  const context = { argv: ['replay', 'capture.json'], harness: { name: 'mcp-sdk-probe', version: '0' } };

  it('the CLI\'s file: read and written again, the same bytes; its Markdown shows the result that was sent', async () => {
    const { text } = await replayFile('roundtrip', PAIR);
    expect(text).toContain('"__proto__": {');
    const read = parseResultText(text, 'roundtrip-result.json');
    expect(serializeResult(read)).toBe(text);
    expect(renderMarkdown(read, undefined, context)).toContain('"structuredContent": {\n    "__proto__": {\n      "x": 1\n    },');
  });

  it('a run compared with its own file, read back: nothing changed', async () => {
    const run = await replay({ name: 'own proto', tool: JSON.parse(TOOL), result: JSON.parse(RESULT) }, { runIn: 'in-process', clients: ['v1', 'ai-sdk'] });
    expect(run.cases.every((c) => Object.hasOwn(c.result!.structuredContent as object, '__proto__'))).toBe(true);
    const recorded = parseResultText(serializeResult(run), 'recorded.json');
    const comparison = compareWithRecorded(recorded, run, { fullMatrix: true });
    expect(comparison.entries.filter((e) => e.kind !== 'matched')).toEqual([]);
    expect(comparison.counts.matched).toBe(run.cases.length);
  });
});

describe('other files read back keep own __proto__ keys', () => {
  const withProto = async () => (await replay({ name: 'own proto', tool: JSON.parse(TOOL), result: JSON.parse(RESULT) }, { runIn: 'in-process', clients: ['v1'], cases: ['v1/warm/*'] })).cases[0]!;

  it('a run journal read back by --resume', async () => {
    const record = await withProto();
    const path = join(dir, 'run.journal.ndjson');
    const journal = openJournal(path, 'run-1', false);
    journal.append(record, null);
    const resumed = readJournal(path, 'run-1').get(record.id)!.record;
    expect(Object.hasOwn(resumed.result!.structuredContent as object, '__proto__')).toBe(true);
    expect(resumed).toStrictEqual(record);
  });

  it('a sweep result file read by parseSweepText (the Action\'s sweep report)', async () => {
    const run = await replay({ name: 'own proto', tool: JSON.parse(TOOL), result: JSON.parse(RESULT) }, { runIn: 'in-process', clients: ['v1'], cases: ['v1/warm/*'] });
    const release = { line: 'v1', packageName: '@modelcontextprotocol/sdk', version: '1.32.2', label: '1.32.2', source: 'pinned', integrity: null };
    const sweep = {
      schemaVersion: 2,
      kind: 'sweep',
      matrix: run.matrix,
      environment: run.environment,
      request: { v1: '1.32.2', v2: null, prerelease: false },
      plan: ['v1@1.32.2'],
      summary: { releases: 1, failedReleases: 0, cases: 1, passed: 0, failed: 0 },
      changePoints: [],
      releases: [{ status: 'ran', release, cases: run.cases }],
    };
    const path = join(dir, 'sweep.json');
    writeFileSync(path, JSON.stringify(sweep));
    const read = parseSweepText(readFileSync(path, 'utf8'), path);
    const [ran] = read.releases;
    expect(ran?.status === 'ran' && Object.hasOwn(ran.cases[0]!.result!.structuredContent as object, '__proto__')).toBe(true);
  });

  it('a user JSON scenario keeps the tool schema and the expectation it states', async () => {
    const folder = mkdtempSync(join(dir, 'scenarios-'));
    const tool = '{"name":"probe_value","inputSchema":{"type":"object","properties":{"__proto__":{"type":"object"}}}}';
    const expected = '{"outcome":"returned","isError":false,"structuredContent":{"__proto__":{"x":1},"value":7}}';
    writeFileSync(join(folder, 'proto.json'), `{"shape":"own-proto","tool":${tool},"result":${RESULT},"expected":{"v1/cold":${expected}}}`);
    const [scenario] = await loadUserScenarios(folder, 'scenarios', new Set(), { allowCode: false });
    expect(Object.hasOwn(scenario!.tool.inputSchema.properties as object, '__proto__')).toBe(true);
    expect(Object.hasOwn((scenario!.expected as { structuredContent: object }).structuredContent, '__proto__')).toBe(true);
  });

  // The technique's premise: for the file schemas read as given, zod's output is the input (strict
  // objects, no defaults or transforms), so a file without own __proto__ keys reads exactly as before.
  it.each(['recorded.json', 'recorded-extended.json', 'recorded-ecosystem.json'])('results/%s: zod\'s output is the file as given', (name) => {
    const json = JSON.parse(readFileSync(join(ROOT, 'results', name), 'utf8')) as unknown;
    expect(ResultFileSchema.parse(json)).toStrictEqual(json);
  });
});
