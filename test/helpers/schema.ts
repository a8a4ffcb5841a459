// Every result file the tests see written is checked against the published results/schema.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { ROOT } from './cli.ts';

export const committedSchema = readFileSync(join(ROOT, 'results', 'schema.json'), 'utf8');
export const validateResult = new Ajv2020({ allErrors: true, allowUnionTypes: true }).compile(JSON.parse(committedSchema));

export function expectValidResult(text: string): void {
  const valid = validateResult(JSON.parse(text));
  expect(validateResult.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}
