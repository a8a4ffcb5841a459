// The high-level server helpers, each registering the fixture's tool with zod schemas that match its JSON
// Schema definition, and a handler that returns the scenario's result (or throws). What reaches the client
// is whatever the helper makes of that result: the extended matrix records it.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import type { ServerHelper, ToolDefinition, ToolResult } from './domain.ts';
import { HARNESS } from './harness.ts';

/**
 * The helpers take zod, not JSON Schema. The extended matrix's helper tools use two shapes only: the
 * audit's output `{ value: number }` with no other properties, and an input `{ city: string }` (for the
 * SEP-1303 invalid-arguments case). Anything else is a mistake in a scenario.
 */
function zodFor(schema: Record<string, unknown> | undefined, what: string): z.ZodObject | undefined {
  if (schema === undefined) return undefined;
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const shape: Record<string, z.ZodType> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (property.type === 'number') shape[key] = z.number();
    else if (property.type === 'string') shape[key] = z.string();
    else throw new Error(`fixture helper: ${what}.${key} has type ${String(property.type)}, which the helper fixture cannot express`);
  }
  const required = new Set((schema.required ?? []) as string[]);
  for (const key of Object.keys(shape)) if (!required.has(key)) shape[key] = shape[key]!.optional();
  const object = z.object(shape);
  return schema.additionalProperties === false ? object.strict() : object;
}

export async function startHelperServer(
  helper: ServerHelper,
  tool: ToolDefinition,
  result: ToolResult | 'throw',
  transport: Transport,
): Promise<{ close(): Promise<void> }> {
  const config = {
    description: typeof tool.description === 'string' ? tool.description : undefined,
    inputSchema: zodFor(tool.inputSchema, 'inputSchema'),
    outputSchema: zodFor(tool.outputSchema, 'outputSchema'),
  };
  const handler = async () => {
    if (result === 'throw') throw new Error('The value service is unavailable.');
    return structuredClone(result) as never;
  };
  const info = { name: `${HARNESS.name}-${helper}`, version: HARNESS.version };
  // Loaded on first use: the audit never needs the helpers, and they are large.
  if (helper === 'v1-mcp-server') {
    const { McpServer: V1McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const server = new V1McpServer(info);
    server.registerTool(tool.name, config as never, handler as never);
    await server.connect(transport);
    return server;
  }
  const { McpServer: V2McpServer } = await import('@modelcontextprotocol/server');
  const server = new V2McpServer(info);
  server.registerTool(tool.name, config as never, handler as never);
  // The v1 in-memory pair carries any Transport-shaped peer; the v2 server drives it like its own.
  await server.connect(transport as never);
  return server;
}
