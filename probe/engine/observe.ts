// Runs one scenario against one real client and records what happened. No judgement here.
import { isDeepStrictEqual } from 'node:util';
import { CallRejected, type ClientAdapter, type ConnectedClient } from '../clients/index.ts';
import type { ClientLine, DroppedKey, ErrorInfo, JsonValue, Observation, Scenario, ServerSent, Stage } from '../core/domain.ts';
import { droppedKeys, withoutKeys } from '../core/dropped.ts';
import type { ServerSource } from '../core/fixture.ts';
import { classifyRejection, rejectionFacts, thrownClass, type RejectionFacts } from '../core/rejected-by.ts';
import { SECOND_PAGE, startFixtureServer, type RunningFixture } from '../fixtures/index.ts';

/**
 * An observation before the fixture's `serverSent` (and, for a rejection, who rejected it, which needs
 * `serverSent`) is attached. Omit that distributes over the union.
 */
type ClientObservation = Observation extends infer O ? (O extends unknown ? Omit<O, 'serverSent' | 'by'> : never) : never;
/** A rejection as the call is observed: the recorded error, and the facts who rejected it is decided by. */
type CallObservation = Exclude<ClientObservation, { outcome: 'rejected' }> | (Extract<ClientObservation, { outcome: 'rejected' }> & { facts: RejectionFacts });

export interface ObserveOptions {
  /** Per-case limit; a case still running after it is recorded as `timeout` instead of stalling the run. */
  readonly timeoutMs: number;
  /**
   * For a case runner that must be able to stop a case from outside (engine/pool.ts): each step as it
   * starts, what the server sent as it goes out, and the observation as soon as it is made (before the
   * fixture and client are closed).
   */
  readonly onStage?: (stage: Stage) => void;
  readonly onSent?: (sent: ServerSent) => void;
  readonly onObserved?: (observation: Observation) => void;
  /** Server packages of other releases, by line (a server sweep); the pinned ones when absent. */
  readonly servers?: Partial<Record<ClientLine, ServerSource>>;
}

/** Normalises what a client threw: v1 `McpError`, v2 `ProtocolError` (numeric code) or `SdkError` (string code). */
export function describeError(error: unknown): ErrorInfo {
  return { ...thrownClass(error), message: error instanceof Error ? error.message : String(error) };
}

/**
 * What a call threw, as recorded (the error the application got), with the facts of where it was thrown
 * (clients/adapter.ts). A throw that is not a CallRejected came from no client call at all.
 */
export function describeRejection(error: unknown): { error: ErrorInfo; facts: RejectionFacts } {
  if (error instanceof CallRejected) return { error: describeError(error.thrown), facts: error.facts };
  return { error: describeError(error), facts: rejectionFacts(error, 'before-request') };
}

function toJson(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}

/** Splits what `callTool` returned into the fields the judge reads, keeping every other key. */
function returnedObservation(value: unknown): Extract<ClientObservation, { outcome: 'returned' }> {
  const observation: Extract<ClientObservation, { outcome: 'returned' }> = { outcome: 'returned' };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    observation.otherKeys = { value: toJson(value) };
    return observation;
  }
  const otherKeys: Record<string, JsonValue> = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    if (key === 'isError' && typeof field === 'boolean') observation.isError = field;
    else if (key === 'structuredContent') observation.structuredContent = toJson(field);
    else if (key === 'content') observation.content = toJson(field);
    else otherKeys[key] = toJson(field);
  }
  if (Object.keys(otherKeys).length > 0) observation.otherKeys = otherKeys;
  return observation;
}

/**
 * The own keys the result lost on the way: from the scenario's result to what went on the wire (the
 * server's: the v1 Server's CallToolResult parse, for one), and from the wire to what the client handed
 * back (the client's own parse), in structuredContent and content. The server's count only when its
 * answer is the scenario's less exactly those keys: an answer it rewrote (an McpServer's own error
 * result) is recorded whole as `altered`, and listing what it lacks would say less than that.
 */
function droppedOnTheWay(scenario: Scenario, serverSent: ServerSent, observed: CallObservation): DroppedKey[] {
  const given = 'result' in scenario.server && scenario.server.result !== 'throw' ? scenario.server.result : undefined;
  if (given === undefined) return [];
  const wire = serverSent === 'as-scenario' ? given : typeof serverSent === 'object' && 'altered' in serverSent ? serverSent.altered : undefined;
  if (wire === undefined) return [];
  const byServer = droppedKeys(given, wire);
  const onlyDropped = byServer.length > 0 && isDeepStrictEqual(withoutKeys(given, byServer), wire);
  const dropped: DroppedKey[] = onlyDropped ? byServer.map((path) => ({ path, by: 'server' })) : [];
  if (observed.outcome === 'returned' && typeof wire === 'object' && wire !== null && !Array.isArray(wire)) {
    for (const field of ['structuredContent', 'content'] as const) {
      if (!Object.hasOwn(wire, field) || !Object.hasOwn(observed, field)) continue;
      dropped.push(...droppedKeys(wire[field], observed[field], [field]).map((path): DroppedKey => ({ path, by: 'client' })));
    }
  }
  return dropped;
}

const TIMED_OUT = Symbol('timed out');

/** What the client learns about the tool before the call, per discovery mode. */
async function discover(client: ConnectedClient, fixture: RunningFixture, scenario: Scenario): Promise<void> {
  switch (scenario.discovery) {
    case 'cold':
    case 'definition':
      return;
    case 'warm':
      return client.listTools();
    case 'changed':
      await client.listTools();
      return fixture.changeTool();
    case 'all-pages': {
      let cursor: string | undefined;
      do cursor = (await client.listToolsPage(cursor)).nextCursor;
      while (cursor !== undefined);
      return;
    }
    case 'one-page':
      await client.listToolsPage(SECOND_PAGE);
      return;
    // A line's own discovery modes: the adapter runs them (the AI SDK's tools(), LangChain's loadMcpTools).
    case 'tools-automatic':
    case 'tools-with-schemas':
    case 'load-tools':
      if (!client.discover) throw new TypeError(`this client line has no discovery mode ${scenario.discovery}`);
      return client.discover(scenario.discovery, scenario.tool);
  }
}


export async function observe(scenario: Scenario, adapter: ClientAdapter, runOptions: ObserveOptions): Promise<Observation> {
  const options = { timeoutMs: scenario.timeoutMs ?? runOptions.timeoutMs };
  let stage: Stage = 'connect';
  const enter = (next: Stage) => {
    stage = next;
    runOptions.onStage?.(next);
  };
  runOptions.onStage?.(stage);
  let fixture: RunningFixture | undefined;
  let client: ConnectedClient | undefined;

  // Once the deadline has won, the steps still under way must not leave a server or client behind that
  // nobody closes (a stdio child, a listener): each one made after that is closed at once.
  let abandoned = false;
  const steps = async (): Promise<CallObservation> => {
    try {
      const started = await startFixtureServer(scenario.tool, scenario.server, scenario.transport, runOptions.servers);
      if (abandoned) {
        await closeQuietly(started, options.timeoutMs);
        return { outcome: 'timeout', stage, afterMs: options.timeoutMs };
      }
      fixture = started;
      if (runOptions.onSent) fixture.onSent(runOptions.onSent);
      const connected = await adapter.connect(fixture.endpoint);
      if (abandoned) {
        await closeQuietly(connected, options.timeoutMs);
        await closeQuietly(started, options.timeoutMs);
        return { outcome: 'timeout', stage, afterMs: options.timeoutMs };
      }
      client = connected;
      fixture.attachServerStderr(client.serverStderr);
      enter('discover');
      await discover(client, fixture, scenario);
      enter('call');
    } catch (error) {
      return { outcome: 'crashed', stage, error: describeError(error) };
    }
    try {
      const options = {
        ...(scenario.discovery === 'definition' && { toolDefinition: scenario.tool }),
        ...(scenario.clientTimeoutMs !== undefined && { timeoutMs: scenario.clientTimeoutMs }),
      };
      return returnedObservation(await client.callTool(scenario.calledName ?? scenario.tool.name, scenario.arguments ?? {}, options));
    } catch (error) {
      return { outcome: 'rejected', ...describeRejection(error) };
    }
  };

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), options.timeoutMs);
  });
  try {
    const settled = await Promise.race([steps(), deadline]);
    if (settled === TIMED_OUT) abandoned = true;
    const base: CallObservation = settled === TIMED_OUT ? { outcome: 'timeout', stage, afterMs: options.timeoutMs } : settled;
    // The server answered the call: make sure its report of what it sent is in before reading it.
    if (base.outcome === 'returned' || base.outcome === 'rejected') await fixture?.settle(1000);
    const serverSent = fixture?.serverSent() ?? 'nothing';
    const dropped = droppedOnTheWay(scenario, serverSent, base);
    const droppedField = dropped.length > 0 ? { dropped } : {};
    const observation: Observation =
      base.outcome === 'rejected'
        ? { outcome: 'rejected', error: base.error, by: classifyRejection(base.facts, serverSent), serverSent, ...droppedField }
        : base.outcome === 'returned'
          ? { ...base, serverSent, ...droppedField }
          : { ...base, serverSent };
    runOptions.onObserved?.(observation);
    return observation;
  } finally {
    clearTimeout(timer);
    // Closing rejects whatever is still pending inside `steps`, which has already been caught there.
    await closeQuietly(client, options.timeoutMs);
    await closeQuietly(fixture, options.timeoutMs);
  }
}

async function closeQuietly(closable: { close(): Promise<void> } | undefined, limitMs: number): Promise<void> {
  if (!closable) return;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      closable.close(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, limitMs);
      }),
    ]);
  } catch {
    // A close that fails cannot change what the case observed.
  } finally {
    clearTimeout(timer);
  }
}
