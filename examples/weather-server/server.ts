// A server author's real MCP server: the v1 SDK's McpServer with three tools, each registered with zod
// schemas the way the SDK's own examples do. `createWeatherServer()` builds an unconnected instance (what
// `captureTool(server, …)` takes); `stdio.ts` serves one over stdio (what `captureTool({ command, args }, …)`
// starts). test/capture-tool.test.ts captures its tools both ways and asserts how the clients treat them.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const FORECASTS: Record<string, { temperatureC: number; conditions: string }> = {
  Lisbon: { temperatureC: 21, conditions: 'sunny' },
  Oslo: { temperatureC: -3, conditions: 'snow' },
};

/** The forecast's shape; `.strict()` lists it with `additionalProperties: false`. */
const Forecast = z.object({ city: z.string(), temperatureC: z.number(), conditions: z.string() }).strict();

export function createWeatherServer(): McpServer {
  const server = new McpServer({ name: 'weather-example', version: '1.0.0' });

  // A known city: a success that matches the output schema. An unknown one: a tool error whose
  // structuredContent is not the output schema's shape (McpServer sends isError results unvalidated).
  server.registerTool(
    'get_forecast',
    { description: 'The forecast for a city.', inputSchema: { city: z.string() }, outputSchema: Forecast },
    async ({ city }) => {
      const forecast = FORECASTS[city];
      if (!forecast) {
        return { content: [{ type: 'text', text: `No forecast for "${city}".` }], structuredContent: { error: 'unknown-city', city }, isError: true };
      }
      return { content: [{ type: 'text', text: `${city}: ${forecast.temperatureC} °C, ${forecast.conditions}` }], structuredContent: { city, ...forecast } };
    },
  );

  // A bug: the handler renamed a field, so its success is off the output schema.
  server.registerTool(
    'get_station_forecast',
    { description: 'The forecast at a weather station.', inputSchema: { station: z.string() }, outputSchema: Forecast },
    async ({ station }) => ({
      content: [{ type: 'text', text: `${station}: 12 °C, cloudy` }],
      structuredContent: { city: station, tempC: 12, conditions: 'cloudy' } as never,
    }),
  );

  // A tool error with text only and no output schema.
  server.registerTool('get_alerts', { description: 'Weather alerts for a region.', inputSchema: { region: z.string() } }, async ({ region }) => ({
    content: [{ type: 'text', text: `The alerts service is unavailable for ${region}; try again later.` }],
    isError: true,
  }));

  return server;
}
