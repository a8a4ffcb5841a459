// Vitest matchers for a server author's own suite (`import 'mcp-sdk-probe/vitest'`): assert how the
// pinned client lines treat a tool result, next to the tests of the handler that produces it.
// Importing this module registers the matchers with vitest's `expect`; `matchers` is exported too, for
// `expect.extend(matchers)` by hand. Bundled to dist/vitest.mjs (bin/build.mjs) with `vitest` external,
// so the consumer's own vitest is the one extended; its types are emitted by `tsc -p tsconfig.build.json`.
import { expect } from 'vitest';
import type { CaseRecord, ClientLine, ToolDefinition, ToolResult } from '../core/domain.ts';
import { terminalLine, terminalText } from '../core/escape.ts';
import { replay, type CapturedToolCall } from './index.ts';

/**
 * What the matchers take: a tool definition (as `tools/list` lists it) and one `tools/call` result, written
 * by hand or captured from a running server by `captureTool` (whose output is one of these).
 */
export interface ToolCallSubject {
  readonly tool: ToolDefinition;
  readonly result: ToolResult;
  /** Names the result in case ids (default 'captured-result'). */
  readonly name?: string;
  /** Set by `captureTool`: the server that sent the result, named in failure messages. */
  readonly server?: CapturedToolCall['server'];
}

type Lines = ClientLine | readonly ClientLine[];

const LINES: readonly ClientLine[] = ['v1', 'v2'];

function linesOf(lines: Lines, matcher: string): readonly ClientLine[] {
  const list: readonly unknown[] = typeof lines === 'string' ? [lines] : Array.isArray(lines) ? lines : [lines];
  if (list.length === 0) throw new TypeError(`${matcher}: name at least one client line (${LINES.join(', ')})`);
  for (const line of list) {
    if (!LINES.includes(line as ClientLine)) throw new TypeError(`${matcher}: client line ${JSON.stringify(line)}: expected one of ${LINES.join(', ')}`);
  }
  return list as readonly ClientLine[];
}

/** Every case of the replay, one line each: client line, discovery, outcome, code (and the error message). */
function table(cases: readonly CaseRecord[], asserted: (c: CaseRecord) => boolean, holds: (c: CaseRecord) => boolean): string {
  return cases
    .map((c) => {
      const o = c.observed;
      const outcome = o.outcome === 'rejected' || o.outcome === 'crashed' ? `${o.outcome} ${o.error.code ?? '(no code)'}` : o.outcome;
      const mark = !asserted(c) ? '  (not asserted)' : holds(c) ? '  ok' : '  <- this one';
      // The message quotes what the server sent (ajv names the schema's own property names): vitest prints it
      // to a terminal, so no control sequence of it may act there.
      const message = o.outcome === 'rejected' || o.outcome === 'crashed' ? `  ${terminalLine(o.error.message.slice(0, 100))}` : '';
      return `  ${c.client} ${c.discovery.padEnd(4)} ${outcome.padEnd(16)}${mark}${message}`;
    })
    .join('\n');
}

async function replayed(subject: ToolCallSubject): Promise<readonly CaseRecord[]> {
  // In this thread: a vitest worker need not find dist/case-worker.mjs, and a replay is four quick cases.
  // The SDK lines the matchers assert (the ecosystem lines are `replay`'s, with --clients).
  const result = await replay(subject, { runIn: 'in-process', clients: LINES });
  return result.cases;
}

function describeSubject(subject: ToolCallSubject): string {
  const server = subject.server;
  const from = server ? ` from server ${server.name === undefined ? '(unnamed)' : JSON.stringify(server.name)} over ${server.transport}` : '';
  return `the result of tool ${JSON.stringify(subject.tool?.name)}${from}`;
}

/**
 * What vitest prints when a matcher fails. It names the server and quotes the clients' errors, which come
 * from the server's data: control characters are shown as escapes (issue 20), so nothing in them acts on
 * the terminal the tests run in.
 */
function failureMessage(isNot: boolean, claim: string, cases: string): string {
  return terminalText(`expected ${isNot ? 'not ' : ''}${claim}; what each client did:\n${cases}`);
}

interface MatcherState {
  readonly isNot?: boolean;
}

interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

export const matchers = {
  /**
   * Passes when every **warm** case (tools listed before the call, so the client knows the output schema)
   * of each named client line returned the result (`observed.outcome === 'returned'`). Cold cases (no
   * `tools/list` before the call) are not asserted: a client that never saw the schema has nothing to
   * check; the failure message still lists them.
   */
  async toBeReturnedBy(this: MatcherState, received: ToolCallSubject, lines: Lines): Promise<MatcherResult> {
    const wanted = linesOf(lines, 'toBeReturnedBy');
    const isNot = this.isNot === true; // vitest leaves it unset when not negated
    const cases = await replayed(received);
    const asserted = (c: CaseRecord) => c.discovery === 'warm' && wanted.includes(c.client);
    const holds = (c: CaseRecord) => c.observed.outcome === 'returned';
    const pass = cases.some(asserted) && cases.filter(asserted).every(holds);
    const claim = `${describeSubject(received)} to be returned by ${wanted.join(', ')} (every warm case)`;
    return {
      pass,
      message: () => failureMessage(isNot, claim, table(cases, asserted, (c) => holds(c) !== isNot)),
    };
  },

  /**
   * Passes when every **warm** case of each named client line rejected the call, with `code` (a JSON-RPC
   * number such as -32602, or an SdkError string) when one is given. Cold cases are not asserted.
   */
  async toBeRejectedBy(this: MatcherState, received: ToolCallSubject, lines: Lines, code?: number | string): Promise<MatcherResult> {
    const wanted = linesOf(lines, 'toBeRejectedBy');
    const isNot = this.isNot === true; // vitest leaves it unset when not negated
    const cases = await replayed(received);
    const asserted = (c: CaseRecord) => c.discovery === 'warm' && wanted.includes(c.client);
    const holds = (c: CaseRecord) => c.observed.outcome === 'rejected' && (code === undefined || c.observed.error.code === code);
    const pass = cases.some(asserted) && cases.filter(asserted).every(holds);
    const claim = `${describeSubject(received)} to be rejected by ${wanted.join(', ')}${code === undefined ? '' : ` with code ${code}`} (every warm case)`;
    return {
      pass,
      message: () => failureMessage(isNot, claim, table(cases, asserted, (c) => holds(c) !== isNot)),
    };
  },
};

expect.extend(matchers);

declare module 'vitest' {
  interface Assertion<T = any> {
    /** Every warm case of these client lines returned the result (cold cases are not asserted). Await it. */
    toBeReturnedBy(lines: ClientLine | readonly ClientLine[]): Promise<void>;
    /** Every warm case of these client lines rejected the call, with `code` when given (cold cases are not asserted). Await it. */
    toBeRejectedBy(lines: ClientLine | readonly ClientLine[], code?: number | string): Promise<void>;
  }
}
