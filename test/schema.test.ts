// results/schema.json is generated from the zod schema; every result file we write must satisfy it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResultFile } from '../probe/core/domain.ts';
import { serializeJsonSchema } from '../probe/core/result-json-schema.ts';
import { serializeResult } from '../probe/io/json-files.ts';
import { auditMatrix } from '../scenarios/audit.ts';
import { ROOT } from './helpers/cli.ts';
import { pinnedPart, pinnedRun } from './helpers/pinned-run.ts';
import { committedSchema as committed, expectValidResult, validateResult } from './helpers/schema.ts';

const validate = validateResult;

describe('results/schema.json', () => {
  // The suite's one run of the pinned clients (test/global-setup.ts): the audit's part of it.
  const fresh: ResultFile = pinnedPart(auditMatrix);

  it('is what the zod schema generates today (npm run schema rewrites it)', () => {
    expect(committed).toBe(serializeJsonSchema());
  });

  it('accepts the committed recorded result and a fresh run', () => {
    expectValidResult(readFileSync(join(ROOT, 'results', 'recorded.json'), 'utf8'));
    expectValidResult(serializeResult(fresh));
    // The whole run, audit and extended cases.
    expectValidResult(serializeResult(pinnedRun().results.extended));
  });

  it.each([
    ['an unknown outcome', (r: Record<string, any>) => (r.cases[0].observed.outcome = 'exploded')],
    ['a missing verdict', (r: Record<string, any>) => delete r.cases[0].verdict],
    ['an extra top-level key', (r: Record<string, any>) => (r.timestamp = '2026-11-29')],
    ['a wrong schema version', (r: Record<string, any>) => (r.schemaVersion = 1)],
  ])('rejects %s', (_name, mutate) => {
    const json = JSON.parse(serializeResult(fresh));
    mutate(json);
    expect(validate(json)).toBe(false);
  });
});
