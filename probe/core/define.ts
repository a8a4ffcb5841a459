// Helpers for writing matrices as data. They check what the type system cannot (unique ids, valid
// expectations) when a matrix module is loaded, so a broken matrix fails before any case runs.
import {
  asGiven,
  ExpectedSchema,
  toolDefinitionAsGiven,
  toolResultAsGiven,
  type ClientLine,
  type Discovery,
  type Expected,
  type Matrix,
  type Scenario,
  type ServerBehaviour,
  type ToolDefinition,
  type ToolResult,
} from './domain.ts';

export interface ShapeDefinition {
  /** Kebab-case slug naming the result shape, e.g. `off-schema-success`. */
  readonly id: string;
  /** One line saying what the shape is, as the audit's table words it. */
  readonly title: string;
  readonly result: ToolResult;
}

/** The client hands back exactly what the server sent: same isError, structuredContent and content. */
export function returnsAsSent(result: ToolResult): Expected {
  const expected: Expected = {
    outcome: 'returned',
    isError: result.isError === true,
    content: Array.isArray(result.content) ? result.content : [],
  };
  if (Object.hasOwn(result, 'structuredContent')) expected.structuredContent = result.structuredContent;
  return expected;
}

export interface CaseDefinition {
  readonly client: ClientLine;
  readonly discovery: Discovery;
  readonly shape: ShapeDefinition;
  readonly tool: ToolDefinition;
  /** null: the case states no expectation and only reports (a replay without --expect). */
  readonly expected: Expected | null;
  readonly server?: ServerBehaviour;
  readonly arguments?: Scenario['arguments'];
  readonly calledName?: string;
  readonly timeoutMs?: number;
  readonly clientTimeoutMs?: number;
  readonly transport?: Scenario['transport'];
  readonly family?: string;
  readonly question?: string;
  readonly reference?: string;
}

export function defineCase(definition: CaseDefinition): Scenario {
  const { client, discovery, shape, tool } = definition;
  return {
    id: `${client}/${discovery}/${shape.id}`,
    client,
    discovery,
    shape: shape.id,
    tool: toolDefinitionAsGiven(tool),
    server: definition.server ?? { kind: 'respond', result: toolResultAsGiven(shape.result) },
    // As given: an expectation made from a result (returnsAsSent) keeps the result's own `__proto__` keys,
    // so a client that drops one does not return the result as sent (issue 20).
    expected: definition.expected === null ? null : asGiven(ExpectedSchema, definition.expected),
    ...pick(definition, ['arguments', 'calledName', 'timeoutMs', 'clientTimeoutMs', 'transport', 'family', 'question', 'reference']),
  };
}

function pick<T extends object, K extends keyof T>(from: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (from[key] !== undefined) picked[key] = from[key];
  return picked;
}

export function defineMatrix(matrix: Matrix): Matrix {
  const seen = new Set<string>();
  for (const scenario of matrix.scenarios) {
    if (seen.has(scenario.id)) throw new Error(`matrix ${matrix.name}: case id ${scenario.id} is defined twice`);
    seen.add(scenario.id);
  }
  return matrix;
}
