// Issue 20: the JSON files the probe writes hold no raw character that acts on a terminal (C0 but the
// file's own line feeds, DEL, C1) or reorders what a reader sees (bidi controls, U+2028/2029, U+FEFF):
// `cat results/latest.json`, an editor or GitHub shows the file as `--format json` shows it on stdout.
// JSON.stringify leaves all but C0 raw; the writers escape them as `\uXXXX`, which reads back as the same
// value (RFC 8259 §7). A real replay and a real sweep through the in-process CLI, and the writers the CLI
// reaches only in longer runs (the audit's journal, explore's files) called directly with such data.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSweepText, writeCaptureFile } from '../probe/api/index.ts';
import type { ToolDefinition, ToolResult } from '../probe/core/domain.ts';
import { knownFileOf, serializeFinding, serializeScenario } from '../probe/explore/findings.ts';
import { readCapture } from '../probe/io/capture.ts';
import { openJournal } from '../probe/io/journal.ts';
import { CASE_FIELD_LEVEL, jsonText, parseResultText, prettyJsonBytes, sortKeys } from '../probe/io/json-files.ts';
import { serializeBaseline } from '../probe/sweep/files.ts';
import { HOSTILE_STRINGS } from './helpers/hostile.ts';
import { runMain } from './helpers/main.ts';

const HOSTILE = [...Object.values(HOSTILE_STRINGS), '\u0085', '\u2028', '\u2029', '\ufeff', '\u007f', '\u061c\u200e\u200f\u2066\u2067\u2068\u2069'];
const ALL = HOSTILE.join(' | ');

/** What must not be raw in a JSON file: C0 but line feed, DEL, C1, bidi controls, U+2028/2029, U+FEFF. */
const ACTING = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;

/** The characters of `text` that act or reorder, each with where it is: empty for a clean file. */
function rawActing(text: string): string[] {
  return [...text.matchAll(ACTING)].map((m) => `U+${m[0].codePointAt(0)!.toString(16).padStart(4, '0')} at ${m.index}`);
}

const tool: ToolDefinition = {
  name: 'hostile_tool',
  description: ALL,
  inputSchema: { type: 'object', properties: Object.fromEntries(HOSTILE.map((text) => [text, { type: 'string', description: text }])) },
};
const result: ToolResult = {
  content: [{ type: 'text', text: ALL }],
  structuredContent: Object.fromEntries(HOSTILE.map((text, index) => [text, { [text]: [text, index] }])),
};

let dir: string;
let cache: string;
let capture: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-hostile-json-'));
  cache = join(dir, 'cache');
  capture = join(dir, 'capture.json');
  writeCaptureFile(capture, { name: 'hostile', tool, result });
});

describe('JSON files the probe writes, from data carrying characters that act or reorder', () => {
  it('the capture writeCaptureFile writes: none raw, and replay reads it back as given', () => {
    const text = readFileSync(capture, 'utf8');
    expect(rawActing(text)).toEqual([]);
    expect(text).toContain('\\u202e');
    const read = readCapture(capture);
    expect(read.tool).toEqual(tool);
    expect(read.result).toEqual(result);
  });

  it('the result file of a replay: none raw, the same values, the same bytes as --format json on stdout', async () => {
    const out = join(dir, 'replay.json');
    const run = await runMain(['replay', capture, '--clients', 'v1,v2', '--format', 'json', '--out', out], { env: { MCP_SDK_PROBE_CACHE: cache } });
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(rawActing(text)).toEqual([]);
    const written = parseResultText(text, out);
    expect(written.cases.length).toBeGreaterThan(0);
    for (const record of written.cases) {
      expect(record.tool).toEqual(tool);
      expect(record.result).toEqual(result);
    }
    // Replay's up-front size check counts each record's copy of the result as the file has it, escapes and all
    // (6 bytes a character where UTF-8 has 2 or 3), so what it refuses is what the writer would refuse.
    const copy = jsonText(sortKeys(result), 2).replaceAll('\n', `\n${'  '.repeat(CASE_FIELD_LEVEL)}`);
    expect(text).toContain(`\n${'  '.repeat(CASE_FIELD_LEVEL)}"result": ${copy}`);
    expect(prettyJsonBytes(result, CASE_FIELD_LEVEL)).toBe(Buffer.byteLength(copy));
    expect(prettyJsonBytes(result, CASE_FIELD_LEVEL)).toBeGreaterThan(Buffer.byteLength(JSON.stringify(sortKeys(result), null, 2).replaceAll('\n', `\n${'  '.repeat(CASE_FIELD_LEVEL)}`)));
    // The one serializer: stdout's escaping (terminalJson) leaves nothing more to escape in the file's text.
    expect(text).toBe(run.stdout);
  });

  it('the audit journal: each line holds none raw and reads back as appended', () => {
    const record = parseResultText(readFileSync(join(dir, 'replay.json'), 'utf8'), 'replay.json').cases[0]!;
    const path = join(dir, 'run.journal.ndjson');
    const journal = openJournal(path, ALL, false);
    journal.append(record, [{ rule: 'hostile', severity: 'warning', message: ALL } as never]);
    const text = readFileSync(path, 'utf8');
    expect(rawActing(text)).toEqual([]);
    expect([...journal.records([record.id])]).toEqual([record]);
    for (const line of text.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    journal.finish();
  });

  it('a sweep of a release whose module throws hostile text: the sweep result and the baseline it records', async () => {
    const release = join(dir, 'sdk-hostile');
    mkdirSync(join(release, 'client'), { recursive: true });
    writeFileSync(join(release, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '1.99.0' }));
    writeFileSync(join(release, 'client', 'index.js'), `throw new Error(${JSON.stringify(ALL)});\n`);
    const out = join(dir, 'sweep.json');
    const baseline = join(dir, 'baseline.json');
    const args = ['sweep', '--v1', release, '--baseline', baseline, '--out', out, '--update'];
    const run = await runMain(args, { env: { MCP_SDK_PROBE_CACHE: cache } });
    expect(run.code, run.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(rawActing(text)).toEqual([]);
    const sweep = parseSweepText(text, out);
    const failed = sweep.releases[0]!;
    expect(failed.status).toBe('failed');
    // The module's error message, as thrown, read back from the file's escapes.
    expect(failed.status === 'failed' && failed.error.message).toContain(ALL);
    expect(rawActing(readFileSync(baseline, 'utf8'))).toEqual([]);
    // The baseline's writer, given a behaviour whose words came from data.
    const hostileBaseline = JSON.parse(readFileSync(baseline, 'utf8')) as Parameters<typeof serializeBaseline>[0];
    const entry = { ...hostileBaseline.releases[0]!, behaviours: { [ALL]: ALL } } as never;
    const baselineText = serializeBaseline({ ...hostileBaseline, releases: [entry] });
    expect(rawActing(baselineText)).toEqual([]);
    expect(JSON.parse(baselineText)).toEqual({ ...hostileBaseline, releases: [entry] });
  });

  it("explore's files: a finding, its scenario and the known-findings file hold none raw and read back the same", () => {
    const scenario = { shape: 'explore-hostile', title: ALL, tool, result, expected: { 'v1/warm': 'returned' } } as const;
    const scenarioText = serializeScenario(scenario);
    expect(rawActing(scenarioText)).toEqual([]);
    expect(JSON.parse(scenarioText)).toEqual(scenario);
    const finding = { class: ALL, oracle: ALL, clients: ['v1'], sequence: { server: { tools: [], pageSize: 1 }, steps: [] } } as never;
    const findingText = serializeFinding(finding);
    expect(rawActing(findingText)).toEqual([]);
    expect((JSON.parse(findingText) as { class: string }).class).toBe(ALL);
    const knownText = knownFileOf({ seed: 1, runs: 1, clients: ['v1'], maxSteps: 1 }, [finding]);
    expect(rawActing(knownText)).toEqual([]);
    expect((JSON.parse(knownText) as { findings: { class: string }[] }).findings[0]!.class).toBe(ALL);
  });

  it('leaves no temporary file behind', () => {
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
