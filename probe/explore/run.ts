// Runs one sequence against real client lines and records what happened (trace.ts); no judgement here.
// Each line gets a fresh scripted server and client (fixtures/scripted.ts) and the same server state
// from the same sequence, so any difference between the lines is the clients'. Every step has a time
// limit, so a client that never settles is recorded as stalled instead of hanging the exploration.
import { adapters, type ConnectedClient } from '../clients/index.ts';
import type { JsonValue, SdkLine, ToolDefinition, ToolResult } from '../core/domain.ts';
import { classifyRejection } from '../core/rejected-by.ts';
import { describeError, describeRejection } from '../engine/observe.ts';
import { startScriptedServer, type ScriptedServer } from '../fixtures/scripted.ts';
import { applyChange, cursorOf, describeStep, initialState, listPage, pageCount, resultFor, toolDefinition, type Sequence, type Step } from './model.ts';
import type { CallSettled, LineTrace, ListVia, TraceEvent } from './trace.ts';

export interface RunOptions {
  /** How long one step may take before it is recorded as stalled. */
  readonly stepLimitMs: number;
}
export const DEFAULT_STEP_LIMIT_MS = 2000;

const STALLED = Symbol('stalled');
async function within<T>(work: Promise<T>, limitMs: number): Promise<T | typeof STALLED> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<typeof STALLED>((resolve) => (timer = setTimeout(() => resolve(STALLED), limitMs)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Lets the client handle a notification (and any refresh it starts) before the next step. */
const drain = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

function settledOf(value: unknown): CallSettled {
  const result = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return {
    outcome: 'returned',
    isError: result.isError === true,
    ...(result.structuredContent !== undefined && { structuredContent: JSON.parse(JSON.stringify(result.structuredContent)) as JsonValue }),
  };
}

async function listing(client: ConnectedClient, sequence: Sequence, step: Extract<Step, { do: 'list' }>): Promise<void> {
  switch (step.how) {
    case 'plain':
      return client.listTools();
    case 'all-pages': {
      // At most one request per page: a client that loops on cursors is not this harness's to wait for.
      let cursor: string | undefined;
      for (let i = 0; i < pageCount(sequence.server); i++) {
        cursor = (await client.listToolsPage(cursor)).nextCursor;
        if (cursor === undefined) return;
      }
      return;
    }
    case 'page':
      await client.listToolsPage(cursorOf((step.page ?? 0) % pageCount(sequence.server)));
  }
}

/** One client line through the whole sequence. */
/** Explore drives the official SDK lines (the model's paging, cursors and reconnects are theirs). */
export async function runLine(sequence: Sequence, line: SdkLine, options: RunOptions): Promise<LineTrace> {
  const adapter = adapters[line];
  const { server: spec } = sequence;
  const events: TraceEvent[] = [];
  let state = initialState(spec);
  let step = -1;
  let refuse = false;
  let via: ListVia = 'plain';
  let answer: ToolResult = { content: [] };
  const handlers = {
    listTools(cursor: string | undefined) {
      if (refuse) {
        events.push({ event: 'list-refused', step });
        throw new Error('explore: this listing fails (the sequence says so)');
      }
      const page = listPage(spec, state, cursor);
      if (!page) throw new Error(`explore: unknown cursor ${String(cursor)}`);
      events.push({ event: 'listed', step, via, tools: page.tools });
      return page;
    },
    callTool: () => answer,
  };
  const onUncaught = (reason: unknown) => events.push({ event: 'uncaught', step, error: describeError(reason) });
  process.on('unhandledRejection', onUncaught);

  let server: ScriptedServer | undefined;
  let client: ConnectedClient | undefined;
  const disconnect = async () => {
    const [c, s] = [client, server];
    client = server = undefined;
    if (c) await within(c.close().catch(() => {}), options.stepLimitMs);
    if (s) await within(s.close().catch(() => {}), options.stepLimitMs);
  };
  const connect = async () => {
    server = await startScriptedServer(handlers);
    client = await adapter.connect(server.endpoint);
    events.push({ event: 'connected' });
  };
  /** Runs a non-call action; a throw or a stall is recorded (`refused`: the server made it fail). */
  const act = async (action: string, work: () => Promise<void>, refused = false): Promise<boolean> => {
    try {
      if ((await within(work(), options.stepLimitMs)) !== STALLED) return true;
      events.push({ event: 'action-failed', step, action, refused: false });
    } catch (error) {
      events.push({ event: 'action-failed', step, action, refused, error: describeError(error) });
    }
    return false;
  };

  try {
    if (!(await act('connect', connect))) return { client: line, events };
    for (const [i, s] of sequence.steps.entries()) {
      step = i;
      switch (s.do) {
        case 'list':
          refuse = s.fail === true;
          via = s.how;
          await act(describeStep(s), () => listing(client!, sequence, s), refuse);
          refuse = false;
          break;
        case 'change':
          state = applyChange(spec, state, s.tool);
          events.push({ event: 'changed', step, tool: toolDefinition(spec, state, s.tool).name, notified: s.notify });
          if (s.notify) await act(describeStep(s), () => server!.notifyToolListChanged());
          break;
        case 'call': {
          answer = resultFor(spec, state, s);
          const tool = toolDefinition(spec, state, s.tool);
          // v1's callTool takes no definition (clients/v1.ts); it makes the plain call.
          const definition: ToolDefinition | undefined = s.definition && line === 'v2' ? tool : undefined;
          let settled: CallSettled;
          try {
            const value = await within(
              client!.callTool(tool.name, {}, { ...(definition && { toolDefinition: definition }), timeoutMs: options.stepLimitMs }),
              options.stepLimitMs * 2,
            );
            settled = value === STALLED ? { outcome: 'stalled' } : settledOf(value);
          } catch (error) {
            // The scripted server sends each answer unchanged and never a JSON-RPC error (fixtures/scripted.ts).
            const { error: info, facts } = describeRejection(error);
            settled = { outcome: 'rejected', by: classifyRejection(facts, 'as-scenario'), error: info };
          }
          events.push({ event: 'call', step, tool: tool.name, ...(definition && { definition }), sent: structuredClone(answer), settled });
          break;
        }
        case 'reconnect':
          // A new client on a new connection to the same server state (the adapters connect a new Client).
          await disconnect();
          if (!(await act('reconnect', connect))) return { client: line, events };
          break;
      }
      await drain();
    }
    return { client: line, events };
  } finally {
    await disconnect();
    process.off('unhandledRejection', onUncaught);
  }
}

/** The sequence against every line, one after the other (the same server state, replayed per line). */
export async function runSequence(sequence: Sequence, lines: readonly SdkLine[], options: RunOptions): Promise<LineTrace[]> {
  const traces: LineTrace[] = [];
  for (const line of lines) traces.push(await runLine(sequence, line, options));
  return traces;
}
