// The published JSON Schema of result files (results/schema.json), generated from the same zod schema
// the code validates with, so the two cannot disagree. `npm run schema` rewrites it; a test fails when the
// committed file is out of date.
import { z } from 'zod';
import { ResultFileSchema } from './domain.ts';

export function resultJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ResultFileSchema, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    title: 'mcp-sdk-probe result file',
    description: 'One run of a matrix: environment, summary, rule findings and one record per case (observation and verdict).',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}

export function serializeJsonSchema(): string {
  return `${JSON.stringify(resultJsonSchema(), null, 2)}\n`;
}
