// The model explore generates and runs: a server's state (its tools spread over tools/list pages, each
// with outputSchema versions) and the client actions applied to it, as plain data, plus the pure
// functions that say what the server lists and answers in a given state. The runner (run.ts) and the
// test doubles of a trace both read the server's behaviour from here, so they cannot disagree about it.
import type { JsonValue, ToolDefinition, ToolResult } from '../core/domain.ts';

/** The properties a generated schema may declare, each with one JSON type. */
export const PROPERTIES = { n: 'number', s: 'string', b: 'boolean' } as const;
export type PropertyName = keyof typeof PROPERTIES;
const CANONICAL: Record<PropertyName, JsonValue> = { n: 1, s: 'text', b: true };
/**
 * Every declared property with the wrong type: no generated schema accepts it, since each declares at
 * least one property (a present property of the wrong type fails `properties` whether required or not).
 */
export const NONCONFORMING: Record<PropertyName, JsonValue> = { n: 'one', s: 0, b: 'yes' };

/** One outputSchema version: an object schema over some of PROPERTIES. */
export interface SchemaShape {
  /** Declared properties, at least one, in PROPERTIES order. */
  readonly properties: readonly PropertyName[];
  readonly required: readonly PropertyName[];
  /** `additionalProperties: false`. */
  readonly closed: boolean;
}

export interface ExploreTool {
  readonly name: string;
  /** The outputSchema versions the server cycles through on each change; the first is listed at start. */
  readonly versions: readonly SchemaShape[];
}

export interface ServerSpec {
  /** Tools per tools/list page. */
  readonly pageSize: number;
  /** The tools in listing order: tool i is on page floor(i / pageSize). */
  readonly tools: readonly ExploreTool[];
}

/** Which schema the next result conforms to: the current version, the one before it, or none. */
export type Conformance = 'current' | 'earlier' | 'none';

export type Step =
  /** tools/list as applications call it: plain listTools(), every page with cursors, or one page by cursor. */
  | { readonly do: 'list'; readonly how: 'plain' | 'all-pages' | 'page'; readonly page?: number; readonly fail?: true }
  /** The server moves a tool to its next schema version, with or without notifications/tools/list_changed. */
  | { readonly do: 'change'; readonly tool: number; readonly notify: boolean }
  /** tools/call; `definition`: v2 is handed the tool's current definition (v1 has no such option). */
  | {
      readonly do: 'call';
      readonly tool: number;
      readonly conforms: Conformance;
      readonly isError: boolean;
      readonly structured: boolean;
      readonly definition?: true;
    }
  /** The client disconnects and connects again (a new client, the same server state). */
  | { readonly do: 'reconnect' };

export interface Sequence {
  readonly server: ServerSpec;
  readonly steps: readonly Step[];
}

/** Which schema version each tool is at. */
export interface ServerState {
  readonly versions: readonly number[];
}

export function initialState(server: ServerSpec): ServerState {
  return { versions: server.tools.map(() => 0) };
}

/** Tool indexes in steps are taken modulo the tool count, so a step stays valid when shrinking drops tools. */
export function toolIndex(server: ServerSpec, index: number): number {
  return index % server.tools.length;
}

export function pageCount(server: ServerSpec): number {
  return Math.ceil(server.tools.length / server.pageSize);
}

/** The cursor of page `page` (0-based); the first page has none. */
export function cursorOf(page: number): string | undefined {
  return page === 0 ? undefined : `page-${page}`;
}

export function applyChange(server: ServerSpec, state: ServerState, tool: number): ServerState {
  const i = toolIndex(server, tool);
  const versions = [...state.versions];
  versions[i] = (versions[i]! + 1) % server.tools[i]!.versions.length;
  return { versions };
}

export function toJsonSchema(shape: SchemaShape): Record<string, JsonValue> {
  return {
    type: 'object',
    properties: Object.fromEntries(shape.properties.map((p) => [p, { type: PROPERTIES[p] }])),
    ...(shape.required.length > 0 && { required: [...shape.required] }),
    ...(shape.closed && { additionalProperties: false }),
  };
}

/** The tool as tools/list lists it in this state. */
export function toolDefinition(server: ServerSpec, state: ServerState, index: number): ToolDefinition {
  const i = toolIndex(server, index);
  const tool = server.tools[i]!;
  return { name: tool.name, inputSchema: { type: 'object' }, outputSchema: toJsonSchema(tool.versions[state.versions[i]!]!) };
}

/** One tools/list page, or undefined for a cursor the server never handed out. */
export function listPage(server: ServerSpec, state: ServerState, cursor: string | undefined): { tools: ToolDefinition[]; nextCursor?: string } | undefined {
  const page = cursor === undefined ? 0 : Number(/^page-(\d+)$/.exec(cursor)?.[1] ?? NaN);
  if (!Number.isInteger(page) || page < 0 || page >= pageCount(server)) return undefined;
  const tools = server.tools
    .map((_, i) => i)
    .slice(page * server.pageSize, (page + 1) * server.pageSize)
    .map((i) => toolDefinition(server, state, i));
  const next = cursorOf(page + 1);
  return page + 1 < pageCount(server) && next !== undefined ? { tools, nextCursor: next } : { tools };
}

/** A value that conforms to `shape`: its required properties (or its first one when none is required). */
export function conformingValue(shape: SchemaShape): Record<string, JsonValue> {
  const present = shape.required.length > 0 ? shape.required : shape.properties.slice(0, 1);
  return Object.fromEntries(present.map((p) => [p, CANONICAL[p]]));
}

/** What the server answers a call step with, in this state. */
export function resultFor(server: ServerSpec, state: ServerState, step: Extract<Step, { do: 'call' }>): ToolResult {
  const i = toolIndex(server, step.tool);
  const { versions } = server.tools[i]!;
  const current = state.versions[i]!;
  const value =
    step.conforms === 'none'
      ? NONCONFORMING
      : conformingValue(versions[step.conforms === 'current' ? current : (current + versions.length - 1) % versions.length]!);
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    ...(step.structured && { structuredContent: value }),
    ...(step.isError && { isError: true }),
  };
}

/** The same sequence with every tool and page number taken modulo the server's counts (model.ts behaves the same). */
export function normaliseSequence(sequence: Sequence): Sequence {
  const { server } = sequence;
  const steps = sequence.steps.map((step): Step => {
    if (step.do === 'call' || step.do === 'change') return { ...step, tool: toolIndex(server, step.tool) };
    if (step.do === 'list' && step.how === 'page') return { ...step, page: (step.page ?? 0) % pageCount(server) };
    return step;
  });
  return { server, steps };
}

/** A step in one short line, as finding tables and file names show it. */
export function describeStep(step: Step): string {
  switch (step.do) {
    case 'list':
      return `list:${step.how}${step.how === 'page' ? `(${step.page ?? 0})` : ''}${step.fail ? '!fail' : ''}`;
    case 'change':
      return `change(${step.tool})${step.notify ? '+notify' : ':silent'}`;
    case 'call':
      return `call(${step.tool}):${step.conforms}${step.structured ? '' : ',no-sc'}${step.isError ? ',isError' : ''}${step.definition ? ',def' : ''}`;
    case 'reconnect':
      return 'reconnect';
  }
}

/** The server in one line: tools with their schema versions, and the page size. */
export function describeServer(server: ServerSpec): string {
  const shape = (s: SchemaShape) =>
    `{${s.properties.map((p) => `${p}${s.required.includes(p) ? '' : '?'}`).join(',')}${s.closed ? '' : ',…'}}`;
  return `${server.tools.map((t) => `${t.name}${t.versions.map(shape).join('→')}`).join(' ')} /${server.pageSize}`;
}

export function describeSequence(sequence: Sequence): string {
  return `[${describeServer(sequence.server)}] ${sequence.steps.map(describeStep).join(' ; ') || '(no steps)'}`;
}
