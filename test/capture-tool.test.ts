// captureTool (probe/api/capture-tool.ts) against real servers: the example McpServer in
// examples/weather-server/ as an instance (in memory) and as a stdio command, a low-level Server that
// pages its tools, and the v2 server package's McpServer. What each capture holds was first printed and
// read, then written down here; the matchers then judge the captured results through every client line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer as V2McpServer } from '@modelcontextprotocol/server';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { captureTool, replay, writeCaptureFile, type CapturedToolCall } from '../probe/api/index.ts';
import '../probe/api/vitest.ts';
import { readCapture } from '../probe/io/capture.ts';
import { createWeatherServer } from '../examples/weather-server/server.ts';
import { ROOT } from './helpers/cli.ts';
import { runMain } from './helpers/main.ts';

/** The example server as an MCP host starts it (tsx runs its TypeScript; it is a devDependency here). */
const STDIO = { command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'examples', 'weather-server', 'stdio.ts')], cwd: ROOT };

const dir = mkdtempSync(join(tmpdir(), 'capture-tool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The output schema McpServer lists for the example's zod `Forecast` (observed: draft-07, strict). */
const FORECAST_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { city: { type: 'string' }, temperatureC: { type: 'number' }, conditions: { type: 'string' } },
  required: ['city', 'temperatureC', 'conditions'],
  additionalProperties: false,
};

describe('captureTool from the example McpServer, in memory', () => {
  const server = createWeatherServer();

  it('captures the listed definition and the sent result; both client lines return a conforming success', async () => {
    const found = await captureTool(server, 'get_forecast', { city: 'Lisbon' });
    expect(found.name).toBe('get_forecast');
    expect(found.server).toEqual({ name: 'weather-example', version: '1.0.0', transport: 'in-memory' });
    expect(found.tool).toEqual({
      name: 'get_forecast',
      description: 'The forecast for a city.',
      inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execution: { taskSupport: 'forbidden' },
      outputSchema: FORECAST_SCHEMA,
    });
    expect(found.result).toEqual({ content: [{ type: 'text', text: 'Lisbon: 21 °C, sunny' }], structuredContent: { city: 'Lisbon', temperatureC: 21, conditions: 'sunny' } });
    await expect(found).toBeReturnedBy(['v1', 'v2']);
  });

  it('a tool error whose structuredContent is off the output schema: McpServer sends it as is; v1 rejects it, v2 returns it', async () => {
    const unknown = await captureTool(server, 'get_forecast', { city: 'Atlantis' });
    expect(unknown.result).toEqual({
      content: [{ type: 'text', text: 'No forecast for "Atlantis".' }],
      structuredContent: { error: 'unknown-city', city: 'Atlantis' },
      isError: true,
    });
    await expect(unknown).toBeRejectedBy('v1', -32602);
    await expect(unknown).toBeReturnedBy('v2');
    // The failure message names the server and transport the result came from.
    await expect(expect(unknown).toBeReturnedBy('v1')).rejects.toThrow(/tool "get_forecast" from server "weather-example" over in-memory to be returned by v1[^]*v1 warm rejected -32602 +<- this one/);
  });

  it('an off-schema success never leaves the server: McpServer sends an isError result in its place, which both lines return', async () => {
    const station = await captureTool(server, 'get_station_forecast', { station: 'LPPT' });
    // Observed: the v1 McpServer validates its handler's success against the output schema and replaces it.
    expect(station.result.isError).toBe(true);
    expect(station.result.structuredContent).toBeUndefined();
    expect(JSON.stringify(station.result.content)).toContain('Output validation error: Invalid structured content for tool get_station_forecast');
    await expect(station).toBeReturnedBy(['v1', 'v2']);
  });

  it('a text-only tool error is returned by both lines', async () => {
    const alerts = await captureTool(server, 'get_alerts', { region: 'Algarve' });
    expect(alerts.tool.outputSchema).toBeUndefined();
    expect(alerts.result).toEqual({ content: [{ type: 'text', text: 'The alerts service is unavailable for Algarve; try again later.' }], isError: true });
    await expect(alerts).toBeReturnedBy(['v1', 'v2']);
    await expect(alerts).not.toBeRejectedBy('v1');
  });

  it('the instance can be captured again (each capture disconnects it), and a factory works too', async () => {
    const first = await captureTool(server, 'get_alerts', { region: 'Minho' });
    const again = await captureTool(server, 'get_alerts', { region: 'Minho' });
    const made = await captureTool(() => createWeatherServer(), 'get_alerts', { region: 'Minho' }, { name: 'alerts down' });
    expect(again).toEqual(first);
    expect(made).toEqual({ ...first, name: 'alerts down' });
  });

  it('rejects a tool the server does not list, a non-server, and a server already connected, naming what is wrong', async () => {
    await expect(captureTool(server, 'get_tides')).rejects.toThrow('captureTool("get_tides"): the server does not list the tool; tools/list lists "get_forecast", "get_station_forecast", "get_alerts"');
    await expect(captureTool({ listen() {} } as never, 'get_alerts')).rejects.toThrow(/server: expected an McpServer or Server instance/);
    const busy = createWeatherServer();
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    await busy.connect(InMemoryTransport.createLinkedPair()[1]);
    await expect(captureTool(busy, 'get_alerts')).rejects.toThrow(/cannot connect it \(Already connected/);
    await expect(captureTool(server, 'get_alerts', {}, { timeoutMs: 0 })).rejects.toThrow(/timeoutMs: expected a positive integer/);
  });
});

describe('captureTool from the example server over stdio', () => {
  it('captures exactly what the in-memory instance gives, for each of its tools', async () => {
    const instance = createWeatherServer();
    for (const [tool, args] of [
      ['get_forecast', { city: 'Atlantis' }],
      ['get_station_forecast', { station: 'LPPT' }],
    ] as const) {
      const [overStdio, inMemory] = [await captureTool(STDIO, tool, args), await captureTool(instance, tool, args)];
      expect(overStdio.server.transport).toBe('stdio');
      expect({ ...overStdio, server: undefined }).toEqual({ ...inMemory, server: undefined });
    }
    await expect(await captureTool(STDIO, 'get_forecast', { city: 'Atlantis' })).toBeRejectedBy('v1', -32602);
  });

  it('a command that fails is a rejection quoting its stderr', async () => {
    const failing = { command: process.execPath, args: ['-e', 'console.error("no API key"); process.exit(3)'] };
    await expect(captureTool(failing, 'get_forecast')).rejects.toThrow(/cannot connect to the server \(MCP error -32000: Connection closed\); the server's stderr ends: no API key/);
  });
});

describe('captureTool from other servers', () => {
  it('walks every tools/list page of a low-level Server and reports its JSON-RPC error answers', async () => {
    const pages: Record<string, { tools: object[]; nextCursor?: string }> = {
      first: { tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'p2' },
      p2: { tools: [{ name: 'b', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } }] },
    };
    const make = () => {
      const server = new Server({ name: 'paged', version: '0.0.1' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, (request) => pages[request.params?.cursor ?? 'first'] as never);
      server.setRequestHandler(CallToolRequestSchema, (request) => {
        if (request.params.name === 'a') throw new Error('a is broken');
        return { content: [], structuredContent: { n: 'seven' } } as never;
      });
      return server;
    };
    const b = await captureTool(make, 'b');
    expect(b.tool).toEqual(pages.p2!.tools[0]);
    // Observed: the low-level Server's own check (SDK >= 1.24) refuses nothing here (it checks the result's
    // shape, not the output schema), so the off-schema success goes out and both clients reject it.
    expect(b.result).toEqual({ content: [], structuredContent: { n: 'seven' } });
    await expect(b).toBeRejectedBy(['v1', 'v2'], -32602);
    await expect(captureTool(make, 'a')).rejects.toThrow('captureTool("a"): tools/call answered a JSON-RPC error (-32603: a is broken), not a result a client could treat');
  });

  it('captures from the v2 server package\'s McpServer', async () => {
    const server = new V2McpServer({ name: 'v2-example', version: '2.0.0' });
    server.registerTool('count', { inputSchema: z.object({}), outputSchema: z.object({ n: z.number() }) }, async () => ({
      content: [{ type: 'text', text: 'none' }],
      structuredContent: { error: 'empty' },
      isError: true,
    }) as never);
    const count = await captureTool(server, 'count');
    expect(count.server).toEqual({ name: 'v2-example', version: '2.0.0', transport: 'in-memory' });
    expect(count.result).toEqual({ content: [{ type: 'text', text: 'none' }], structuredContent: { error: 'empty' }, isError: true });
    expect(count.tool.outputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    await expect(count).toBeRejectedBy('v1', -32602);
    await expect(count).toBeReturnedBy('v2');
  });
});

describe('a capture written as a file replays the same', () => {
  it('writeCaptureFile writes what replay reads back, and replaying the file gives the outcomes replaying the capture gives', async () => {
    const captured: CapturedToolCall = await captureTool(createWeatherServer(), 'get_forecast', { city: 'Atlantis' }, { name: 'unknown city' });
    const path = join(dir, 'unknown-city.json');
    writeCaptureFile(path, captured);
    // The call's arguments are part of the capture: replaying the file calls the tool as the capture did.
    expect(captured.arguments).toEqual({ city: 'Atlantis' });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ name: 'unknown city', tool: captured.tool, result: captured.result, arguments: { city: 'Atlantis' } });
    expect(readCapture(path)).toEqual({ shape: 'unknown-city', tool: captured.tool, result: captured.result, arguments: { city: 'Atlantis' } });

    const outcomes = (cases: readonly { id: string; observed: { outcome: string } & ({ error?: { code?: unknown } } | object) }[]) =>
      Object.fromEntries(cases.map((c) => [c.id, `${c.observed.outcome}${'error' in c.observed ? ` ${String(c.observed.error?.code)}` : ''}`]));
    const fromLibrary = await replay(captured, { runIn: 'in-process' });
    const out = join(dir, 'replayed.json');
    const cli = await runMain(['replay', path, '--out', out, '--expect', 'v1/warm=rejected:-32602', '--expect', 'v2/*=returned'], { cwd: dir });
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    const fromFile = JSON.parse(readFileSync(out, 'utf8'));
    expect(outcomes(fromFile.cases)).toEqual(outcomes(fromLibrary.cases));
    expect(outcomes(fromFile.cases)).toEqual({
      'v1/warm/unknown-city': 'rejected -32602',
      'v1/cold/unknown-city': 'returned',
      'v2/warm/unknown-city': 'returned',
      'v2/cold/unknown-city': 'returned',
      // replay runs every client line by default. Observed: the AI SDK hands the error result back in every
      // mode (it checks isError results against no schema); LangChain turns it into a ToolException (no code).
      'ai-sdk/warm/unknown-city': 'returned',
      'ai-sdk/cold/unknown-city': 'returned',
      'ai-sdk/tools-automatic/unknown-city': 'returned',
      'ai-sdk/tools-with-schemas/unknown-city': 'returned',
      'langchain/load-tools/unknown-city': 'rejected null',
    });
  });

  it('writes byte-identical files for the same capture, and refuses a folder as the path', async () => {
    const [a, b] = [join(dir, 'a.json'), join(dir, 'b.json')];
    writeCaptureFile(a, await captureTool(createWeatherServer(), 'get_alerts', { region: 'x' }));
    writeCaptureFile(b, await captureTool(STDIO, 'get_alerts', { region: 'x' }));
    expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
    expect(() => writeCaptureFile(dir, { name: 'x', tool: { name: 't', inputSchema: {} }, result: { content: [] } })).toThrow(/is a folder/);
    writeFileSync(a, 'kept');
    expect(() => writeCaptureFile(a, { name: '', tool: { name: 't', inputSchema: {} }, result: { content: [] } })).toThrow(/not a valid replay capture: name/);
    expect(readFileSync(a, 'utf8')).toBe('kept');
  });
});
