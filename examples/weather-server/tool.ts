// A server author's tool, as plain data: the definition its server lists (tools/list) and results its
// handler returns (tools/call). No server runs here; test/matcher.test.ts replays these to the clients.
import type { ToolDefinition, ToolResult } from '../../probe/api/index.ts';

export const forecastTool: ToolDefinition = {
  name: 'get_forecast',
  description: 'The forecast for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  outputSchema: {
    type: 'object',
    properties: { city: { type: 'string' }, temperatureC: { type: 'number' }, conditions: { type: 'string' } },
    required: ['city', 'temperatureC', 'conditions'],
    additionalProperties: false,
  },
};

/** What the handler returns for a known city: matches the output schema. */
export const forecastFound: ToolResult = {
  content: [{ type: 'text', text: 'Lisbon: 21 °C, sunny' }],
  structuredContent: { city: 'Lisbon', temperatureC: 21, conditions: 'sunny' },
};

/** A bug: the handler renamed a field, so a success no longer matches the output schema. */
export const forecastRenamedField: ToolResult = {
  content: [{ type: 'text', text: 'Lisbon: 21 °C, sunny' }],
  structuredContent: { city: 'Lisbon', tempC: 21, conditions: 'sunny' },
};

/** For an unknown city: a tool error, with structured details that are not the success shape. */
export const forecastUnknownCity: ToolResult = {
  content: [{ type: 'text', text: 'No forecast for "Atlantis".' }],
  structuredContent: { error: 'unknown-city', city: 'Atlantis' },
  isError: true,
};
