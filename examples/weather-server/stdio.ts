// The example server over stdio, as an MCP host starts it: `node --import tsx examples/weather-server/stdio.ts`.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createWeatherServer } from './server.ts';

await createWeatherServer().connect(new StdioServerTransport());
