// User-written scenarios (--scenarios DIR): JSON or TypeScript files, each one scenario or a list, and
// replay capture files (io/capture.ts: each the cases `replay` makes of it), run beside the built-in
// matrix. Every file is loaded and validated before anything runs; a problem is an InputError naming the
// file, the field and the reason. JSON files are data; TypeScript files are code,
// loaded only when the user trusts them (issue 20). No file is read from outside the folder: a scenario
// file that is a symbolic link is followed only to a file inside it (an alias is harmless: whatever it
// names, the user already handed the probe), and a module imports only files inside it.
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import { z } from 'zod';
import { defineCase } from '../core/define.ts';
import { captureCases } from '../core/capture-cases.ts';
import { ExpectedSchema, ToolDefinitionSchema, ToolResultSchema, type ClientLine, type Scenario } from '../core/domain.ts';
import { InputError } from '../core/errors.ts';
import { parseExpectation } from '../core/expect-spec.ts';
import { readJsonFile, validateJsonAsGiven } from './json-files.ts';
import { isCaptureJson, parseCapture } from './capture.ts';
import { loadScenarioModule } from './scenario-module.ts';

const CELLS = ['v1/warm', 'v1/cold', 'v2/warm', 'v2/cold'] as const;

export const UserScenarioSchema = z
  .object({
    /** Kebab-case slug; the case ids are `<client>/<discovery>/<shape>`. */
    shape: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a kebab-case slug such as my-error-shape'),
    title: z.string().optional(),
    tool: ToolDefinitionSchema,
    result: ToolResultSchema,
    /** Which clients run it, and what each should do: "returned", "rejected", "rejected:<code>" or an expectation object. */
    expected: z
      .partialRecord(z.enum(CELLS), z.union([z.string(), ExpectedSchema]))
      .refine((cells) => Object.keys(cells).length > 0, 'name at least one of v1/warm, v1/cold, v2/warm, v2/cold'),
  })
  .strict();
export type UserScenario = z.infer<typeof UserScenarioSchema>;

const ListSchema = z.array(UserScenarioSchema).min(1);

/** One scenario or a list; the form decides the schema, so errors name the field the user got wrong. */
function validateScenarios(value: unknown, shown: string, what: string): UserScenario[] {
  // As the file wrote them where zod's parse left own `__proto__` keys out (io/json-files.ts
  // validateJsonAsGiven; the schema is strict, with no defaults): the case must list the tool, send the
  // result and expect what the file states.
  return Array.isArray(value) ? validateJsonAsGiven(value, shown, ListSchema, what) : [validateJsonAsGiven(value, shown, UserScenarioSchema, what)];
}

function toScenarios(file: string, scenario: UserScenario): Scenario[] {
  const cells = Object.entries(scenario.expected).map(([cell, expectation]) => {
    const [client, discovery] = cell.split('/') as ['v1' | 'v2', 'warm' | 'cold'];
    const expected = typeof expectation === 'string' ? parseExpectation(expectation, scenario.result, `${file}: expected.${cell}`) : expectation;
    return defineCase({
      client,
      discovery,
      shape: { id: scenario.shape, title: scenario.title ?? scenario.shape, result: scenario.result },
      tool: scenario.tool,
      expected,
    });
  });
  // The cells of one scenario share its parsed tool and result (never modified: a case thread gets a copy
  // of its scenario), so 10,000 cases of 2,500 scenarios hold 2,500 copies, not 10,000 (issue 10: memory).
  const [first] = cells;
  return first ? cells.map((made) => ({ ...made, tool: first.tool, server: first.server })) : cells;
}

export interface UserScenarioOptions {
  /** Run TypeScript scenario modules (--allow-scenario-code); without it a folder holding one is refused. */
  readonly allowCode: boolean;
  /** The client lines a capture file's cases run on (core/capture-cases.ts); every line when absent. */
  readonly captureLines?: readonly ClientLine[];
}

const errno = (error: unknown) => (error as NodeJS.ErrnoException).code ?? String(error);

/** Where `name` in `root` leads: itself, or the file its symbolic link names when that is inside `root`. */
function insideFolder(root: string, name: string, shown: string): string {
  const path = join(root, name);
  let real: string;
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
    real = realpathSync(path);
  } catch (error) {
    throw new InputError(`${shown}: cannot read the scenario file (${errno(error)})`);
  }
  if (real !== root && !real.startsWith(root + sep)) throw new InputError(`${shown}: is a symbolic link to ${real}, outside the scenario folder; scenario files are read only from inside it`);
  return real;
}

/** Loads every .json, .ts and .mts file of `dir` (sorted by name, so the order is stable). */
export async function loadUserScenarios(dir: string, shownDir: string, taken: ReadonlySet<string>, options: UserScenarioOptions): Promise<Scenario[]> {
  let names: string[];
  let root: string;
  try {
    root = realpathSync(dir);
    names = readdirSync(root).filter((name) => ['.json', '.ts', '.mts'].includes(extname(name)) && !name.endsWith('.d.ts')).sort();
  } catch (error) {
    throw new InputError(`--scenarios ${shownDir}: cannot read the folder (${errno(error)})`);
  }
  if (names.length === 0) throw new InputError(`--scenarios ${shownDir}: no .json or .ts scenario files in it`);
  const code = names.find((name) => extname(name) !== '.json');
  if (code !== undefined && !options.allowCode) {
    throw new InputError(
      `--scenarios ${shownDir}: ${code} is a TypeScript scenario module, which is code: it runs only with --allow-scenario-code (JSON scenario files need no trust)`,
    );
  }
  const ids = new Map<string, string>();
  const scenarios: Scenario[] = [];
  for (const name of names) {
    const shown = join(shownDir, name);
    const path = insideFolder(root, name, shown);
    const json = extname(name) === '.json' ? readJsonFile(path, z.unknown(), 'scenario file', shown) : undefined;
    // A capture file (what `replay` takes) is the cases replay makes of it: issue 21, a server author's
    // captures swept over client releases without converting them by hand.
    const cases: Scenario[] =
      json !== undefined && isCaptureJson(json)
        ? captureCases(parseCapture(json, shown), name, [], options.captureLines)
        : (json !== undefined
            ? validateScenarios(json, shown, 'scenario file')
            : validateScenarios(await loadScenarioModule(path, root, shown), shown, 'scenario module (its default export)')
          ).flatMap((scenario) => toScenarios(shown, scenario));
    for (const made of cases) {
      if (taken.has(made.id)) throw new InputError(`${shown}: case ${made.id} is already defined by the built-in matrix; choose another shape name`);
      const other = ids.get(made.id);
      if (other) throw new InputError(`${shown}: case ${made.id} is also defined in ${other}`);
      ids.set(made.id, shown);
      scenarios.push(made);
    }
  }
  return scenarios;
}
