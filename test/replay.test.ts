// Replay: both capture forms, parsed offline and run end to end against the real clients (the CLI
// in-process, test/helpers/main.ts).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCapture } from '../probe/io/capture.ts';
import { ResultFileSchema } from '../probe/core/domain.ts';
import { InputError } from '../probe/core/errors.ts';
import { HARNESS } from '../probe/core/harness.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';
import { TEST_RESULTS } from './helpers/test-project.ts';
import { expectValidResult } from './helpers/schema.ts';

const PAIR = join(ROOT, 'scenarios', 'captures', 'error-with-structured-content.json');
const MESSAGES = join(ROOT, 'scenarios', 'captures', 'logged-jsonrpc-messages.json');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-sdk-probe-replay-'));
});

const tool = { name: 't', inputSchema: { type: 'object' } };
const result = { content: [{ type: 'text', text: 'x' }] };
const list = { jsonrpc: '2.0', id: 1, result: { tools: [tool] } };
const callResponse = { jsonrpc: '2.0', id: 2, result };

describe('parseCapture', () => {
  it.each([
    ['{ tool, result }', { tool, result }, 'c'],
    ['{ tool, result } with a name', { name: 'My Result!', tool, result }, 'my-result'],
    ['a message array', [list, callResponse], 'c'],
    ['{ messages }', { messages: [list, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't' } }, callResponse] }, 'c'],
    ['{ messages, toolName } choosing among several tools', { toolName: 't', messages: [{ ...list, result: { tools: [tool, { ...tool, name: 'u' }] } }, callResponse] }, 'c'],
  ])('reads %s', (_name, json, shape) => {
    const capture = parseCapture(json, '/x/c.json');
    expect(capture).toEqual({ shape, tool, result });
  });

  it.each([
    ['{ tool, result, arguments }', { tool, result, arguments: { city: 'Oslo' } }],
    ['{ messages } with the tools/call request', { messages: [list, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', arguments: { city: 'Oslo' } } }, callResponse] }],
    ['a message array with the tools/call request', [list, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', arguments: { city: 'Oslo' } } }, callResponse]],
  ])('keeps the call arguments of %s, so replay calls the tool as the capture did', (_name, json) => {
    expect(parseCapture(json, '/x/c.json')).toEqual({ shape: 'c', tool, result, arguments: { city: 'Oslo' } });
  });

  it.each([
    ['arguments that are not an object', { tool, result, arguments: ['Oslo'] }, /c\.json: not a valid replay capture: arguments: /],
    ['a tools/call request whose arguments are not an object', [list, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 't', arguments: 'Oslo' } }, callResponse], /c\.json: messages: the tools\/call request's params\.arguments is not an object/],
  ])('rejects %s, naming the field', (_name, json, message) => {
    expect(() => parseCapture(json, '/x/c.json')).toThrow(InputError);
    expect(() => parseCapture(json, '/x/c.json')).toThrow(message);
  });

  it.each([
    ['no tool', { result }, /c\.json: not a valid replay capture: tool: /],
    ['a tool without inputSchema', { tool: { name: 't' }, result }, /tool\.inputSchema: /],
    ['an unknown key', { tool, result, extra: 1 }, /Unrecognized key.*extra/],
    ['a message that is not JSON-RPC 2.0', [{ id: 1, result: {} }], /\[0\]\.jsonrpc: /],
    ['no tools/list response', [callResponse], /messages: no tools\/list response/],
    ['no tools/call response', [list], /messages: no tools\/call response/],
    ['a JSON-RPC error instead of a result', [list, { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } }], /is a JSON-RPC error \(-32602: bad\)/],
    ['an unnamed call among several tools', [{ ...list, result: { tools: [tool, { ...tool, name: 'u' }] } }, callResponse], /toolName: the tools\/list response lists 2 tools/],
    ['a called tool that was not listed', { messages: [list, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'zz' } }, callResponse] }, /does not list the called tool "zz"/],
  ])('rejects %s, naming the field', (_name, json, message) => {
    expect(() => parseCapture(json, '/x/c.json')).toThrow(InputError);
    expect(() => parseCapture(json, '/x/c.json')).toThrow(message);
  });
});

describe('mcp-sdk-probe replay', () => {
  it('replays a { tool, result } capture through every client and discovery mode', async () => {
    const run = await runMain(['replay', PAIR, '--json', '--out', join(dir, 'pair.json')]);
    expect(run.code).toBe(0);
    expectValidResult(run.stdout);
    const replayed = ResultFileSchema.parse(JSON.parse(run.stdout));
    const outcome = Object.fromEntries(replayed.cases.map((c) => [c.id, c.observed.outcome === 'rejected' ? (c.observed.error.code ?? c.observed.error.name) : c.observed.outcome]));
    // The audit's finding, on a realistic result: only discovered v1 rejects an off-schema error result;
    // the AI SDK returns it every way it is called. LangChain's tool validates the call's arguments against
    // the inputSchema first, and a replay calls with none (the capture's tool requires some).
    expect(outcome).toEqual({
      'v1/warm/error-with-structured-content': -32602,
      'v1/cold/error-with-structured-content': 'returned',
      'v2/warm/error-with-structured-content': 'returned',
      'v2/cold/error-with-structured-content': 'returned',
      'ai-sdk/warm/error-with-structured-content': 'returned',
      'ai-sdk/cold/error-with-structured-content': 'returned',
      'ai-sdk/tools-automatic/error-with-structured-content': 'returned',
      'ai-sdk/tools-with-schemas/error-with-structured-content': 'returned',
      'langchain/load-tools/error-with-structured-content': 'ToolInputParsingException',
    });
    expect(replayed.summary).toEqual({ passed: 0, failed: 0, unjudged: 9 });
    expect(replayed.lint?.['error-with-structured-content']?.map((f) => `${f.level} ${f.rule}`)).toEqual([
      'error output-schema-conformance',
      'info error-result-structured-content-mcp',
      'warning error-result-structured-content-mcpdesc',
    ]);
  });

  it("calls the tool with the capture's own arguments, so LangChain's input check passes where the call's did", async () => {
    // The same capture as PAIR, whose tool requires restaurant and time: with no arguments LangChain
    // refuses the call itself (ToolInputParsingException, the test above); with the call's arguments it
    // reaches the server and treats the result (an isError result: a ToolException).
    const withArguments = join(dir, 'with-arguments.json');
    writeFileSync(withArguments, JSON.stringify({ ...JSON.parse(readFileSync(PAIR, 'utf8')), arguments: { restaurant: 'Chez Nous', time: '19:00' } }));
    const run = await runMain(['replay', withArguments, '--clients', 'v1,langchain', '--json', '--out', join(dir, 'with-arguments-result.json')]);
    expect(run.code).toBe(0);
    const replayed = ResultFileSchema.parse(JSON.parse(run.stdout));
    for (const record of replayed.cases) expect(record.arguments).toEqual({ restaurant: 'Chez Nous', time: '19:00' });
    const langchain = replayed.cases.find((c) => c.client === 'langchain')!;
    expect(langchain.observed.outcome).toBe('rejected');
    expect(langchain.observed.outcome === 'rejected' && langchain.observed.error.name).not.toBe('ToolInputParsingException');
  });

  it('replays logged JSON-RPC messages and judges --expect, later rules winning', async () => {
    const args = ['replay', MESSAGES, '--clients', 'v1,v2', '--expect', 'rejected:-32602', '--expect', '*/cold=returned', '--out', join(dir, 'messages.json')];
    const pass = await runMain(args);
    expect(pass.code).toBe(0);
    expect(pass.stdout).toContain('4 passed, 0 failed');
    expect(pass.stdout).toContain('/temperatureC must be number');
    const fail = await runMain([...args, '--expect', 'v2/warm=returned']);
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain('✗ v2/warm/logged-jsonrpc-messages: expected returned, observed rejected -32602');
  });

  it('writes Markdown evidence that carries the capture, so a maintainer can replay it', async () => {
    const run = await runMain(['replay', MESSAGES, '--clients', 'v2,ai-sdk', '--format', 'markdown', '--out', join(dir, 'evidence.md')]);
    expect(run.code).toBe(0);
    const markdown = readFileSync(join(dir, 'evidence.md'), 'utf8');
    expect(markdown).toContain('node_modules/.bin/mcp-sdk-probe replay capture.json --clients v2,ai-sdk --format markdown');
    expect(markdown).toContain(`The harness is \`mcp-sdk-probe@${HARNESS.version}\``);
    // The v2 cases reproduce standalone; the AI SDK's are named with the reason they cannot.
    expect(markdown).toMatch(/it writes a standalone reproduction of 2 cases: `v2\/warm\/logged-jsonrpc-messages`, `v2\/cold\/logged-jsonrpc-messages`/);
    expect(markdown).toMatch(/Not reproducible without the harness:\n\n- `ai-sdk\/[a-z-]+\/logged-jsonrpc-messages`: the ai\\-sdk client line has no standalone reproduction script/);
    const block = /Save the replayed tool and result as `capture.json`:\n\n```json\n([\s\S]*?)\n```/.exec(markdown)?.[1];
    const original = parseCapture(JSON.parse(readFileSync(MESSAGES, 'utf8')), MESSAGES);
    expect(parseCapture(JSON.parse(block!), 'capture.json')).toEqual({ ...original, shape: 'capture' });
    // --clients chose the lines: v2's two cases and the AI SDK's four, each named with its package.
    expect(markdown.match(/<details>/g)).toHaveLength(6);
    expect(markdown).not.toContain('v1/warm/');
    expect(markdown).toContain('@ai-sdk/mcp@2.0.99');
    expect(markdown).toContain('`output-schema-conformance`');
  });

  it('writes Markdown evidence to a file when --out is given', async () => {
    const run = await runMain(['replay', PAIR, '--format', 'markdown', '--out', join(dir, 'unused.json')]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Markdown evidence written to');
    // The result JSON still goes to the default path (results/replay-latest.json), here the temporary
    // stand-in for results/ (test/helpers/isolate-results.ts).
    expect(ResultFileSchema.parse(JSON.parse(readFileSync(join(TEST_RESULTS, 'replay-latest.json'), 'utf8'))).cases).toHaveLength(9);
  });

  // GitHub refuses an issue body over 65,536 characters ("Body is too long"), and the Cases section repeats
  // the result once per case: found in review, a 20 KB result made a 394 KB evidence, the audit's own 50 KB.
  it('says when the evidence is too long for a GitHub issue body, and what to do; not when it fits', async () => {
    const big = join(dir, 'big-result.json');
    const capture = JSON.parse(readFileSync(PAIR, 'utf8')) as { result: { content: { text: string }[] } };
    capture.result.content[0]!.text = 'x'.repeat(20_000);
    writeFileSync(big, JSON.stringify(capture));
    const long = await runMain(['replay', big, '--clients', 'v1,v2', '--format', 'markdown']);
    expect(long.code).toBe(0);
    expect([...long.stdout].length).toBeGreaterThan(65_536);
    expect(long.stderr).toMatch(/^note: the Markdown evidence is \d[\d,]* characters, over the 65,536 a GitHub issue body holds: attach it as a file, and paste its Reproduce section into the issue$/m);
    const short = await runMain(['replay', PAIR, '--clients', 'v1,v2', '--format', 'markdown']);
    expect([...short.stdout].length).toBeLessThan(65_536);
    expect(short.stderr).not.toContain('issue body');
  });

  it.each([
    ['a missing file', ['replay', join(ROOT, 'no-such-capture.json')], /no-such-capture\.json: cannot read the replay capture \(ENOENT\)/],
    ['a bad expectation', ['replay', PAIR, '--expect', 'returnd'], /--expect returnd: 'returnd' is not an expectation/],
    ['an --expect pattern matching nothing', ['replay', PAIR, '--expect', 'v3/*=returned'], /--expect v3\/\*=returned: the pattern matches no case/],
    ['an empty --expect pattern', ['replay', PAIR, '--expect', '=returned'], /nothing before '='/],
    ['an unknown client line', ['replay', PAIR, '--clients', 'v1,openai'], /--clients: "openai" is not a client line; expected one of v1, v2, ai-sdk, langchain/],
    ['a client line named twice', ['replay', PAIR, '--clients', 'v2,v2'], /--clients: v2 is named twice/],
  ])('exits 2 on %s', async (_name, args, message) => {
    const run = await runMain([...args, '--out', join(dir, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });

  it('exits 2 on a malformed capture and names the field', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ tool: { name: 't', inputSchema: 'object' }, result }));
    const run = await runMain(['replay', bad, '--out', join(dir, 'x.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad\.json: not a valid replay capture: tool\.inputSchema: /);
  });
});
