// The vitest matchers (probe/api/vitest.ts, the package's `mcp-sdk-probe/vitest`) as a server author's
// suite uses them: a tool's results from examples/weather-server/, asserted per client line. Each
// assertion replays its result in this thread (4 cases).
import { describe, expect, it } from 'vitest';
import '../probe/api/vitest.ts';
import { controlBytes, HOSTILE_STRINGS } from './helpers/hostile.ts';
import { forecastFound, forecastRenamedField, forecastTool, forecastUnknownCity } from '../examples/weather-server/tool.ts';

const found = { tool: forecastTool, result: forecastFound };
const renamed = { tool: forecastTool, result: forecastRenamedField };
const unknownCity = { tool: forecastTool, result: forecastUnknownCity };

describe('the vitest matchers', () => {
  it('a success that matches the output schema is returned by both client lines', async () => {
    await expect(found).toBeReturnedBy(['v1', 'v2']);
    await expect(found).not.toBeRejectedBy('v1');
  });

  it('a success off its output schema is rejected by both lines with -32602 (when they listed tools first)', async () => {
    await expect(renamed).toBeRejectedBy('v1', -32602);
    await expect(renamed).toBeRejectedBy(['v1', 'v2'], -32602);
    await expect(renamed).not.toBeReturnedBy('v2');
  });

  it('a tool error with off-schema structuredContent: v1 rejects it, v2 returns it (the audit\'s difference)', async () => {
    await expect(unknownCity).toBeRejectedBy('v1', -32602);
    await expect(unknownCity).toBeReturnedBy(['v2']);
  });

  it('a wrong claim fails with a table of what each client line did in each discovery mode', async () => {
    const failure = expect(unknownCity).toBeReturnedBy(['v1', 'v2']);
    await expect(failure).rejects.toThrow(/to be returned by v1, v2 \(every warm case\)/);
    const message = await expect(unknownCity).toBeReturnedBy(['v1']).then(() => '', (error: Error) => error.message);
    expect(message).toMatch(/^ {2}v1 warm rejected -32602 {3}<- this one {2}MCP error -32602: Structured content does not match/m);
    expect(message).toMatch(/^ {2}v1 cold returned +\(not asserted\)$/m);
    expect(message).toMatch(/^ {2}v2 warm returned +\(not asserted\)$/m);
    await expect(expect(found).toBeRejectedBy('v2', -32602)).rejects.toThrow(/v2 warm returned +<- this one/);
    await expect(expect(renamed).toBeRejectedBy('v1', 'SOME_OTHER_CODE')).rejects.toThrow(/with code SOME_OTHER_CODE[^]*v1 warm rejected -32602 +<- this one/);
  });

  it('a wrong negated claim fails too, marking the cases that did what it denied', async () => {
    await expect(expect(found).not.toBeReturnedBy('v1')).rejects.toThrow(/expected not the result of tool "get_forecast" to be returned by v1[^]*v1 warm returned +<- this one/);
  });

  it('refuses a client line it does not know, and a malformed subject, naming the field', async () => {
    await expect(expect(found).toBeReturnedBy(['v3' as 'v1'])).rejects.toThrow(/client line "v3": expected one of v1, v2/);
    await expect(expect(found).toBeReturnedBy([])).rejects.toThrow(/at least one client line/);
    await expect(expect({ tool: { name: 7 }, result: {} } as never).toBeReturnedBy('v1')).rejects.toThrow(/replay: tool: name/);
  });

  it('a failure message quotes what the server sent without a control sequence that would act in the terminal', async () => {
    // ajv's message names the schema's required property, which the v1 client quotes in its rejection.
    const name = HOSTILE_STRINGS['window title (OSC 0)']!;
    const hostile = {
      tool: { name: 'hostile', inputSchema: { type: 'object' as const }, outputSchema: { type: 'object' as const, required: [name] } },
      result: { content: [], structuredContent: {} },
    };
    const message = await expect(hostile).toBeReturnedBy(['v1']).then(() => '', (error: Error) => error.message);
    expect(message).toMatch(/v2 warm rejected -32602 +\(not asserted\) {2}Structured content .*'\\e\]0;ow/);
    expect(controlBytes(message)).toEqual([]);
  });
});
