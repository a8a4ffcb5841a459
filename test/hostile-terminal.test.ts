// Issue 20: whatever a capture, a recorded result, a scenario file, a release folder, a finding file, a
// file name or a server's stderr contains reaches the terminal as text. The real CLI (in process, and
// once as the shipped command) and captureTool against a real stdio server, every data field carrying
// the hostile strings' control sequences; colour on and off. With colour on, the only control bytes
// allowed are the probe's own SGR codes (Paint in probe/commands/io.ts: node's styleText with these
// four styles); with colour off, none at all.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { captureTool } from '../probe/api/capture-tool.ts';
import { matchers } from '../probe/api/vitest.ts';
import { ROOT, runCli } from './helpers/cli.ts';
import { controlBytes, HOSTILE_STRINGS } from './helpers/hostile.ts';
import { runMain, type MainRun } from './helpers/main.ts';

const HOSTILE = Object.values(HOSTILE_STRINGS);
/** Every hostile string in one text: what a server author puts in a message. */
const ALL = HOSTILE.join(' | ');
/** What a file name can hold of them (no `/`, no NUL). */
const IN_A_FILE_NAME = '\u001b[2J\u001b[H\u001b]0;owned\u0007x\r13 passed, 0 failed\u009b2J ring\u0007 abc\u202edcba';

/** The SGR codes the probe's Paint writes: exactly those of styleText's green, red, dim and bold. */
const PAINT_CODES = (['green', 'red', 'dim', 'bold'] as const).flatMap((style) => inspect.colors[style]!.map((code) => `\u001b[${code}m`));
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

/** Control bytes in the output that did not come from the probe's own painting, and bidi overrides. */
function acting(output: string): string[] {
  const unpainted = PAINT_CODES.reduce((text, code) => text.replaceAll(code, ''), output);
  return [...controlBytes(unpainted), ...[...unpainted.matchAll(BIDI)].map((m) => `bidi U+${m[0].codePointAt(0)!.toString(16)} at ${m.index}`)];
}

/** The lines a terminal shows: a carriage return sends the cursor back, so the text after it is what stays. */
const shownLines = (output: string) => output.split('\n').map((line) => line.split('\r').at(-1)!);

/** The sweep's progress line on a terminal: carriage return, erase to the end of the line (REWRITE_LINE). */
const REWRITE_LINE = '\r\u001b[K';

/**
 * `paints`: the command colours its report when colour is on (explore prints plain text either way).
 * With colour on, stderr is a terminal too: the progress line's own REWRITE_LINE is taken out first.
 */
function expectInert(run: MainRun, colour: boolean, paints = true) {
  const output = run.stdout + (colour ? run.stderr.replaceAll(REWRITE_LINE, '\n') : run.stderr);
  expect(acting(output)).toEqual([]);
  if (!colour) expect(controlBytes(output)).toEqual([]);
  // Colour really was on: otherwise the first check would prove nothing about painting data.
  else if (paints) expect(PAINT_CODES.some((code) => run.stdout.includes(code))).toBe(true);
  expect(output).not.toContain('\r');
  expect(shownLines(output).filter((line) => /^\s*13 passed, 0 failed/.test(line))).toEqual([]);
}

let dir: string;
let cache: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-hostile-terminal-'));
  cache = join(dir, 'cache');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const COLOUR = [
  ['colour on', true],
  ['colour off', false],
] as const;

/** Runs the CLI in process; with colour on, as on a terminal (styleText also checks the real stream: FORCE_COLOR). */
function run(args: string[], colour: boolean, env: Record<string, string> = {}): Promise<MainRun> {
  if (colour) vi.stubEnv('FORCE_COLOR', '1');
  return runMain(args, { stdoutIsTty: colour, stderrIsTty: colour, env: { MCP_SDK_PROBE_CACHE: cache, ...env } });
}

/** A capture whose file name, tool name, outputSchema and structuredContent carry every hostile string. */
function hostileCapture(): string {
  const file = join(dir, `capture ${IN_A_FILE_NAME}.json`);
  const tool = {
    name: `tool ${ALL}`,
    description: ALL,
    inputSchema: { type: 'object' },
    // The rule checks quote the schema's required names and the data's keys: both from the server.
    outputSchema: { type: 'object', required: HOSTILE, additionalProperties: { type: 'number' } },
  };
  const result = { content: [{ type: 'text', text: ALL }], structuredContent: Object.fromEntries(HOSTILE.map((text) => [text, text])) };
  writeFileSync(file, JSON.stringify({ tool, result }));
  return file;
}

describe('the terminal report of data carrying control sequences', () => {
  it('a Markdown document printed to stdout holds nothing that acts on a terminal, its JSON blocks the same values', async () => {
    // JSON.stringify leaves DEL, C1 and bidi controls raw; the evidence's code blocks write them as escapes.
    const run_ = await runMain(['replay', hostileCapture(), '--clients', 'v1', '--format', 'markdown'], { env: { MCP_SDK_PROBE_CACHE: cache } });
    expect(run_.code, run_.stderr).toBe(0);
    expect(acting(run_.stdout)).toEqual([]);
    expect(run_.stdout).not.toContain('\r');
    // The fence is longer than the longest backtick run of the data (one of 40).
    const blocks = [...run_.stdout.matchAll(/^(`{3,})json\n([^]*?)\n\1$/gm)].map((m) => JSON.parse(m[2]!) as unknown);
    const sent = blocks.find((block) => (block as { structuredContent?: unknown }).structuredContent !== undefined) as { structuredContent: Record<string, string> };
    expect(Object.keys(sent.structuredContent)).toEqual(expect.arrayContaining(HOSTILE));
  });

  it.each(COLOUR)('replay of a hostile capture (%s): file name, rule findings, failures', async (_, colour) => {
    const run_ = await run(['replay', hostileCapture(), '--clients', 'v1,v2', '--expect', 'returned', '--out', join(dir, `replay-${colour}.json`)], colour);
    expect(run_.code, run_.stderr).toBe(1);
    expect(run_.stdout).toContain('What the rules say about the result');
    expect(run_.stdout).toContain('\\e[2J');
    expectInert(run_, colour);
  });

  it.each(COLOUR)('audit compared with a hostile recorded result (%s): the changed fields are shown in full', async (_, colour) => {
    const recorded = JSON.parse(readFileSync(join(ROOT, 'results', 'recorded.json'), 'utf8')) as { cases: Record<string, unknown>[] };
    const record = recorded.cases.find((c) => c.id === 'v1/warm/off-schema-success') as { observed: { error: Record<string, unknown> }; tool: Record<string, unknown> };
    record.observed.error.message = ALL;
    record.observed.error.name = `Error${IN_A_FILE_NAME}`;
    record.tool.name = ALL;
    const file = join(dir, `recorded-${colour}.json`);
    writeFileSync(file, JSON.stringify(recorded));
    const audit = await run(['--case', 'v1/warm/off-schema-success', '--recorded', file, '--out', join(dir, `audit-${colour}.json`)], colour);
    expect(audit.code, audit.stderr).toBe(1);
    expect(audit.stdout).toContain('changed v1/warm/off-schema-success');
    expect(audit.stdout).toContain('\\e]0;owned\\x07');
    expectInert(audit, colour);
  });

  it.each(COLOUR)('sweep of a release folder whose module throws a hostile error (%s)', async (_, colour) => {
    const release = join(dir, `sdk ${IN_A_FILE_NAME} ${colour}`);
    mkdirSync(join(release, 'client'), { recursive: true });
    writeFileSync(join(release, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '1.99.0' }));
    writeFileSync(join(release, 'client', 'index.js'), `throw new Error(${JSON.stringify(ALL)});\n`);
    const sweep = await run(['sweep', '--v1', release, '--case', 'v1/warm/off-schema-success', '--baseline', join(dir, 'none.json'), '--out', join(dir, `sweep-${colour}.json`)], colour);
    expect(sweep.code, sweep.stderr).toBe(0);
    expect(sweep.stdout).toContain('Releases that did not run');
    expect(sweep.stdout).toContain('\\e[2J');
    // On a terminal the progress line names each release as it finishes, rewriting itself.
    if (colour) expect(sweep.stderr).toContain(`${REWRITE_LINE}[1/1] `);
    expectInert(sweep, colour);
  });

  it.each(COLOUR)('explore --replay of a hostile finding file (%s)', async (_, colour) => {
    const file = join(dir, `finding-${colour}.json`);
    const tool = { name: ALL, versions: [{ properties: ['n'], required: ['n'], closed: true }] };
    const steps = [{ do: 'list', how: 'plain' }, { do: 'call', tool: 0, conforms: 'none', isError: false, structured: true }];
    writeFileSync(file, JSON.stringify({ schemaVersion: 1, class: `class ${ALL}`, oracle: 'differential', clients: ['v1', 'v2'], sequence: { server: { pageSize: 1, tools: [tool] }, steps } }));
    const replay = await run(['explore', '--replay', file], colour);
    expect([0, 1], replay.stderr).toContain(replay.code);
    expect(replay.stdout).toContain('class ');
    expectInert(replay, colour, false);
  });

  it('replay --json: the JSON on stdout carries no control character raw, and is the same value as the file', async () => {
    const out = join(dir, 'replay-json.json');
    const json = await run(['replay', hostileCapture(), '--clients', 'v1', '--json', '--out', out], false);
    expect(json.code, json.stderr).toBe(0);
    expectInert(json, false);
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(readFileSync(out, 'utf8')));
  });

  it('sweep --ndjson of a release whose error is hostile: every line is JSON and carries no control character raw', async () => {
    const release = join(dir, 'sdk-ndjson');
    mkdirSync(join(release, 'client'), { recursive: true });
    writeFileSync(join(release, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/sdk', version: '1.99.0' }));
    writeFileSync(join(release, 'client', 'index.js'), `throw new Error(${JSON.stringify(ALL)});\n`);
    const args = ['sweep', '--v1', release, '--case', 'v1/warm/off-schema-success', '--baseline', join(dir, 'none.json'), '--out', join(dir, 'sweep-ndjson.json')];
    for (const format of ['--ndjson', '--json']) {
      const sweep = await run([...args, format], false);
      expect(sweep.code, sweep.stderr).toBe(0);
      expectInert(sweep, false);
      expect(sweep.stdout).toContain('\\u009b2J');
      if (format === '--json') expect(JSON.parse(sweep.stdout)).toEqual(JSON.parse(readFileSync(join(dir, 'sweep-ndjson.json'), 'utf8')));
      else for (const line of sweep.stdout.trimEnd().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    }
  });

  it('the shipped command in a real process: the same replay, nothing acts on the terminal', async () => {
    // Every installed client line, as a user runs it: a library that logs to the console would show here.
    const cli = await runCli(['replay', hostileCapture(), '--expect', 'returned', '--out', join(dir, 'replay-cli.json')], { MCP_SDK_PROBE_CACHE: cache });
    expect(cli.code, cli.stderr).toBe(1);
    expectInert({ ...cli }, false);
  });
});

describe('messages on stderr that quote data', () => {
  const badInputs: [string, () => string[]][] = [
    [
      'a capture file named with control sequences that is not JSON',
      () => {
        const file = join(dir, `bad ${IN_A_FILE_NAME}.json`);
        writeFileSync(file, 'not json');
        return ['replay', file];
      },
    ],
    [
      'a logged tools/call answered with a JSON-RPC error whose message is hostile',
      () => {
        const file = join(dir, 'error-capture.json');
        const list = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 't', inputSchema: { type: 'object' } }] } };
        writeFileSync(file, JSON.stringify([list, { jsonrpc: '2.0', id: 2, error: { code: -32000, message: ALL } }]));
        return ['replay', file];
      },
    ],
    [
      'a scenario file whose expectation is a hostile word',
      () => {
        const folder = join(dir, 'scenarios');
        mkdirSync(folder, { recursive: true });
        const scenario = { shape: 'hostile-shape', title: ALL, tool: { name: 't', inputSchema: { type: 'object' } }, result: { content: [] }, expected: { 'v1/warm': ALL } };
        writeFileSync(join(folder, 'hostile.json'), JSON.stringify(scenario));
        return ['--scenarios', folder, '--case', 'v1/warm/hostile-shape', '--out', join(dir, 'scenarios-out.json')];
      },
    ],
    ['a flag value commander echoes', () => ['--timeout', IN_A_FILE_NAME]],
    ['an unknown flag commander echoes', () => [`--${IN_A_FILE_NAME}`]],
    ['a --format the probe names', () => ['--format', IN_A_FILE_NAME]],
  ];

  it.each(badInputs)('%s: exit 2, one line, no control byte', async (_, args) => {
    const bad = await runMain(args());
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
    expectInert(bad, false);
  });
});

describe('captureTool against a real stdio server that writes control sequences', () => {
  const hostile = JSON.stringify(ALL);

  it('a server that writes them to stderr and exits: the rejection quotes its stderr as text', async () => {
    const failing = { command: process.execPath, args: ['-e', `process.stderr.write(${hostile}); process.exit(3)`] };
    const error = await captureTool(failing, 'get_forecast').then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain("the server's stderr ends: ");
    expect(error?.message).toContain('\\e[2J');
    expect(acting(error!.message)).toEqual([]);
  });

  // A minimal MCP server over stdio (newline-delimited JSON-RPC, as the SDK's stdio transport frames it):
  // it lists tools with hostile names and answers tools/call with a JSON-RPC error whose message is hostile.
  const server = `
    const lines = require('node:readline').createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      const m = JSON.parse(line);
      if (m.id === undefined) return;
      const answer =
        m.method === 'initialize' ? { result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } } }
        : m.method === 'tools/list' ? { result: { tools: [{ name: 't', inputSchema: { type: 'object' } }, { name: ${hostile}, inputSchema: { type: 'object' } }] } }
        : { error: { code: -32000, message: ${hostile} } };
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, ...answer }) + '\\n');
    });`;

  it.each([
    ['answers tools/call with a hostile JSON-RPC error', 't', /tools\/call answered a JSON-RPC error/],
    ['lists tools with hostile names, not the one asked for', 'missing', /does not list the tool/],
  ])('a server that %s: the rejection carries no control byte', async (_, toolName, message) => {
    const error = await captureTool({ command: process.execPath, args: ['-e', server] }, toolName).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(message);
    expect(acting(error!.message)).toEqual([]);
  });
});

describe('the vitest matchers', () => {
  it('a failure message naming a hostile server and quoting the clients is text', async () => {
    // Control sequences first, so the quoted error messages (cut at 100 characters) reach them.
    const required = ['\u001b[2J', '\u009b2J', '\u001b]0;owned\u0007', ...HOSTILE];
    const subject = {
      tool: { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', required } },
      result: { content: [], structuredContent: {} },
      server: { name: ALL, version: '1', transport: 'stdio' as const },
    };
    const outcome = await matchers.toBeReturnedBy.call({}, subject, ['v1', 'v2']);
    expect(outcome.pass).toBe(false);
    expect(outcome.message()).toContain('from server');
    expect(acting(outcome.message())).toEqual([]);
  });
});
