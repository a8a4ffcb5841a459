// The probe's domain as data: scenarios, expectations, observations and verdicts.
// Everything that can come from a file (recorded results, later user scenarios and captures) has a zod
// schema here; the TypeScript types are inferred from those schemas so the two cannot drift apart.
import { z } from 'zod';
import { unlessDropped } from './dropped.ts';

export const JsonValueSchema = z.json();
export type JsonValue = z.infer<typeof JsonValueSchema>;

/**
 * The official SDK's client lines: the audit's two, the lines whose other releases `--v1`/`--v2` and
 * `sweep` install, and the lines the extended matrix covers.
 */
export const SDK_LINES = ['v1', 'v2'] as const;
export const SdkLineSchema = z.enum(SDK_LINES);
export type SdkLine = z.infer<typeof SdkLineSchema>;
/**
 * Every client line: the SDK's, then the ecosystem's clients (issue #12): `ai-sdk` (`@ai-sdk/mcp`, its own
 * protocol implementation) and `langchain` (`@langchain/mcp-adapters` over the v1 client). Each line is one
 * adapter file in probe/clients/ and one package pin.
 */
export const CLIENT_LINES = [...SDK_LINES, 'ai-sdk', 'langchain'] as const;
export const ClientLineSchema = z.enum(CLIENT_LINES);
/** A client line is one family of client packages driven by one adapter. */
export type ClientLine = z.infer<typeof ClientLineSchema>;
/**
 * The client lines whose other releases a sweep installs and loads (`--v1`, `--v2`, `--ai-sdk`): the SDK's
 * and `@ai-sdk/mcp`. LangChain's adapters wrap the v1 client, so their releases are not swept (yet).
 */
export const RELEASE_LINES = [...SDK_LINES, 'ai-sdk'] as const;
export const ReleaseLineSchema = z.enum(RELEASE_LINES);
export type ReleaseLine = z.infer<typeof ReleaseLineSchema>;

/**
 * Whether the client has listed the tool (and so may hold its outputSchema) before calling it.
 * The audit found that this changes v1's answer ("Discovery changes the v1 control").
 */
export const DiscoverySchema = z.enum([
  'warm',
  'cold',
  // v2 only: callTool(params, { toolDefinition }) hands the client the tool directly, no tools/list.
  'definition',
  // tools/list walked page by page with cursors until the last page (v2 aggregates the pages itself).
  'all-pages',
  // only the tool's page, fetched with its cursor (the client never sees the first page).
  'one-page',
  // warm, then the server changes the tool's outputSchema and sends notifications/tools/list_changed.
  'changed',
  // ai-sdk only: `client.tools()` (schemas: 'automatic') lists the tools and the call is the converted
  // tool's `execute`, as the AI SDK's generateText runs it.
  'tools-automatic',
  // ai-sdk only: `client.tools({ schemas })` with application-supplied input and output schemas (zod,
  // from the tool's own JSON Schemas), then the converted tool's `execute`.
  'tools-with-schemas',
  // langchain only: `loadMcpTools` lists the tools over the v1 client and the call is the LangChain tool's
  // `invoke` with a tool call, as a LangChain agent runs it.
  'load-tools',
]);
export type Discovery = z.infer<typeof DiscoverySchema>;

/**
 * How the client reaches the fixture server. The audit ran in memory only. `http-in-process`: the v2
 * client's Streamable HTTP transport with the v2 handler as its fetch (HTTP semantics, no socket).
 */
export const TransportKindSchema = z.enum(['in-memory', 'stdio', 'http', 'http-in-process']);
export type TransportKind = z.infer<typeof TransportKindSchema>;

/** A tool definition as `tools/list` returns it. */
export const ToolDefinitionSchema = z
  .object({
    name: z.string().min(1),
    inputSchema: z.record(z.string(), JsonValueSchema),
    outputSchema: z.record(z.string(), JsonValueSchema).optional(),
  })
  .catchall(JsonValueSchema);
export type ToolDefinition = z.infer<typeof ToolDefinitionSchema>;

/**
 * A `CallToolResult` as the fixture server sends it. Deliberately loose: the probe's point is to send
 * shapes a client may not like, so only "a JSON object" is required.
 */
export const ToolResultSchema = z.record(z.string(), JsonValueSchema);
export type ToolResult = z.infer<typeof ToolResultSchema>;

/**
 * A tool result checked against ToolResultSchema and kept exactly as given. zod 4 leaves an own
 * `__proto__` key out of what it parses from a record (its prototype-pollution guard), while JSON.parse
 * keeps one as an own property: the parsed value would be another result than the scenario's, and the
 * wire tap would compare the wire with that other result (issue 20).
 */
export function toolResultAsGiven(value: unknown): ToolResult {
  return asGiven(ToolResultSchema, value);
}

/**
 * A tool definition checked and kept as given, for the same reason: `properties: {"__proto__": {...}}`
 * in an inputSchema or outputSchema is a property the schema states, and the fixture server must list
 * the schema the capture or scenario gives, not zod's copy without it (issue 20).
 */
export function toolDefinitionAsGiven(value: unknown): ToolDefinition {
  return asGiven(ToolDefinitionSchema, value);
}

/**
 * `value` checked against `schema`, and returned as given (a copy) where zod's output left an own key out.
 * Only for schemas whose output is their input (no defaults, no transforms, every object strict or with a
 * JSON catchall), where the two differ in nothing but key order and the own `__proto__` keys zod leaves out.
 */
export function asGiven<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  // structuredClone (in unlessDropped) keeps own `__proto__` keys: it defines properties, it does not assign them.
  return unlessDropped(value, schema.parse(value));
}

/**
 * What a case expects a client to do, test262-style: the case passes only when exactly this happens.
 * `returned`: `structuredContent` absent from the expectation means "must be absent"; `content`, when
 * given, must be deep-equal. `sent`, when given, is what the server must have put on the wire (the
 * server-helper cases are about that); absent, a server that altered the result fails the case.
 */
/**
 * Who rejected a call: the server (it answered with a JSON-RPC error), the client's outputSchema check,
 * the client's parse of the result against its CallToolResult schema, the transport (the connection
 * closed under the pending call), or the client otherwise (its own request timeout).
 */
export const REJECTED_BY = ['server', 'client-output-schema', 'client-result-parse', 'transport', 'client'] as const;
export type RejectedBy = (typeof REJECTED_BY)[number];

/** The step of a case in which something went wrong. */
export const StageSchema = z.enum(['connect', 'discover', 'call']);
export type Stage = z.infer<typeof StageSchema>;

const SentExpectation = z.enum(['as-scenario', 'nothing', 'altered', 'error']).optional();
export const ExpectedSchema = z.discriminatedUnion('outcome', [
  z
    .object({
      outcome: z.literal('returned'),
      isError: z.boolean(),
      structuredContent: JsonValueSchema.optional(),
      content: z.array(JsonValueSchema).optional(),
      // Any other key the client handed back, when given, must be deep-equal (a line whose application
      // value is not a CallToolResult: the AI SDK's validated `output`, LangChain's `toolMessage`).
      otherKeys: z.record(z.string(), JsonValueSchema).optional(),
      sent: SentExpectation,
    })
    .strict(),
  z
    .object({
      outcome: z.literal('rejected'),
      // Absent: any thrown error will do (a user's `--expect rejected`).
      code: z.union([z.number().int(), z.string()]).optional(),
      // The thrown class, for errors that carry no code (v1 lets a zod parse error through as is).
      name: z.string().optional(),
      by: z.enum(REJECTED_BY).optional(),
      sent: SentExpectation,
    })
    .strict(),
  // The client neither answered nor failed within the case's time limit.
  z.object({ outcome: z.literal('timeout'), sent: SentExpectation }).strict(),
  // The case never reached the call: connecting or discovery threw (with this class, when given).
  z.object({ outcome: z.literal('crashed'), stage: StageSchema, name: z.string().optional(), sent: SentExpectation }).strict(),
]);
export type Expected = z.infer<typeof ExpectedSchema>;

/** A thrown error, normalised across client lines (v1 McpError, v2 ProtocolError / SdkError). */
export const ErrorInfoSchema = z
  .object({
    name: z.string(),
    // v1 and v2 ProtocolError use JSON-RPC numbers; v2 SdkError uses strings; a plain Error has none.
    code: z.union([z.number(), z.string(), z.null()]),
    message: z.string(),
  })
  .strict();
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;



/**
 * What the fixture server put on the wire as the `tools/call` result, compared with what the scenario
 * told it to send. The v1 `Server.setRequestHandler` re-parses tools/call results (since 1.24.0), so a
 * shape could be altered before it reaches the client; a case is only about the client when it was not.
 */
export const ServerSentSchema = z.union([
  z.literal('as-scenario'),
  z.literal('nothing'),
  // The case's thread was stopped before the server's report of its answer reached it (stdio: the child
  // reports on stderr, which the stopped thread no longer reads): what went out is not known.
  z.literal('unknown'),
  z.object({ altered: JsonValueSchema }).strict(),
  // The server answered tools/call with a JSON-RPC error instead of a result.
  z.object({ error: z.object({ code: z.number(), message: z.string() }).strict() }).strict(),
]);
export const SENT_KINDS = ['as-scenario', 'nothing', 'unknown', 'altered', 'error'] as const;
export type SentKind = (typeof SENT_KINDS)[number];
export function sentKind(sent: ServerSent): SentKind {
  return typeof sent === 'string' ? sent : 'error' in sent ? 'error' : 'altered';
}


export type ServerSent = z.infer<typeof ServerSentSchema>;

/**
 * An own key the result had that the next step no longer had, by its path from the result's top: dropped
 * by the server (the scenario's result against what went on the wire) or by the client (what went on the
 * wire against what it handed back). Compared own key by own key, `__proto__` included.
 */
export const DroppedKeySchema = z.object({ path: z.array(z.string()).min(1), by: z.enum(['server', 'client']) }).strict();
export type DroppedKey = z.infer<typeof DroppedKeySchema>;

export const ObservationSchema = z.discriminatedUnion('outcome', [
  z
    .object({
      outcome: z.literal('returned'),
      isError: z.boolean().optional(),
      structuredContent: JsonValueSchema.optional(),
      content: JsonValueSchema.optional(),
      // Any other key the client handed back (for example `_meta`), so nothing returned goes unrecorded.
      otherKeys: z.record(z.string(), JsonValueSchema).optional(),
      serverSent: ServerSentSchema,
      // Absent when nothing was dropped.
      dropped: z.array(DroppedKeySchema).min(1).optional(),
    })
    .strict(),
  z
    .object({
      outcome: z.literal('rejected'),
      error: ErrorInfoSchema,
      // Who rejected the call, decided once when it was observed (engine/observe.ts).
      by: z.enum(REJECTED_BY),
      serverSent: ServerSentSchema,
      dropped: z.array(DroppedKeySchema).min(1).optional(),
    })
    .strict(),
  z
    .object({
      outcome: z.literal('timeout'),
      stage: StageSchema,
      afterMs: z.number().int().positive(),
      serverSent: ServerSentSchema,
    })
    .strict(),
  // The case could not reach the call: connecting or listing tools threw.
  z
    .object({ outcome: z.literal('crashed'), stage: StageSchema, error: ErrorInfoSchema, serverSent: ServerSentSchema })
    .strict(),
]);
export type Observation = z.infer<typeof ObservationSchema>;

export const MismatchSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('sent'), expected: z.enum(SENT_KINDS), observed: z.enum(SENT_KINDS) }).strict(),
  z.object({ kind: z.literal('by'), expected: z.enum(REJECTED_BY), observed: z.enum(REJECTED_BY) }).strict(),
  z.object({ kind: z.literal('name'), expected: z.string(), observed: z.string() }).strict(),
  z.object({ kind: z.literal('outcome'), expected: z.string(), observed: z.string() }).strict(),
  z
    .object({
      kind: z.literal('code'),
      expected: z.union([z.number(), z.string()]),
      observed: z.union([z.number(), z.string(), z.null()]),
    })
    .strict(),
  z.object({ kind: z.literal('isError'), expected: z.boolean(), observed: z.boolean() }).strict(),
  z
    .object({
      kind: z.literal('structuredContent'),
      expected: JsonValueSchema.optional(),
      observed: JsonValueSchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('content'), expected: JsonValueSchema, observed: JsonValueSchema.optional() }).strict(),
  z.object({ kind: z.literal('otherKeys'), expected: JsonValueSchema, observed: JsonValueSchema.optional() }).strict(),
  z.object({ kind: z.literal('fixture-altered') }).strict(),
]);
export type Mismatch = z.infer<typeof MismatchSchema>;
export type MismatchKind = Mismatch['kind'];

/** `unjudged`: the case states no expectation (a replay without --expect); it only reports. */
export const VerdictSchema = z.enum(['pass', 'fail', 'unjudged']);
export type Verdict = z.infer<typeof VerdictSchema>;

/** A captured tool definition and the CallToolResult a real server sent for it (`replay`). */
export interface Capture {
  /** A kebab-case slug naming the captured result, used as the shape in case ids. */
  readonly shape: string;
  readonly tool: ToolDefinition;
  readonly result: ToolResult;
  /** The tools/call arguments the captured call was made with; a replay calls with `{}` when absent. */
  readonly arguments?: Record<string, JsonValue>;
}

/** One cell of a matrix: a client line, a discovery mode, and the result the server sends. */
export interface Scenario {
  /** Stable kebab-case slug path: `<client>/<discovery>/<shape>`. */
  readonly id: string;
  readonly client: ClientLine;
  readonly discovery: Discovery;
  /** The result shape's slug, shared by every client that receives it. */
  readonly shape: string;
  readonly tool: ToolDefinition;
  /** What the fixture server does with `tools/call`: answer with `result`, or never answer. */
  readonly server: ServerBehaviour;
  /** null: nothing is expected, the case only reports what happened. */
  readonly expected: Expected | null;
  /** tools/call arguments; `{}` when absent. */
  readonly arguments?: Record<string, JsonValue>;
  /** The tool name the client calls, when not the listed tool's (an unknown tool). */
  readonly calledName?: string;
  /** This case's own time limit, when it expects to wait (the default is the run's --timeout). */
  readonly timeoutMs?: number;
  /** The client's own request timeout for tools/call (its default is 60 s). */
  readonly clientTimeoutMs?: number;
  /** How the client reaches the server; in memory when absent. */
  readonly transport?: TransportKind;
  /** Extended-matrix cases: the family, the question the case answers, and the spec clause or SDK issue. */
  readonly family?: string;
  readonly question?: string;
  readonly reference?: string;
}

export type ServerBehaviour =
  /** The v1 low-level Server answers tools/call with `result`, unchanged. */
  | {
      readonly kind: 'respond';
      readonly result: ToolResult;
      /** tools/list pages of one tool, with a decoy tool on the first page and this tool on the second. */
      readonly paginate?: boolean;
      /** After the client's discovery, the server switches to this definition and notifies list_changed. */
      readonly changeTo?: ToolDefinition;
      /**
       * `wrapped` (default): `Server.setRequestHandler`, which since v1 1.24.0 checks the result against
       * the SDK's CallToolResult schema before sending. `raw`: `Protocol.prototype.setRequestHandler`, the
       * unwrapped base method, so a result the server-side check would refuse still reaches the client.
       */
      readonly registration?: 'wrapped' | 'raw';
    }
  /** Never answers tools/call. */
  | { readonly kind: 'hang' }
  /** Closes the connection when tools/call arrives. */
  | { readonly kind: 'close' }
  /** Answers tools/call with a message that is not valid JSON-RPC, then nothing. */
  | { readonly kind: 'malformed' }
  /** Answers tools/call with a valid result carrying another request's id, then nothing. */
  | { readonly kind: 'wrong-id'; readonly result: ToolResult }
  /** The low-level handler throws an Error with this message. */
  | { readonly kind: 'throw'; readonly message: string }
  /**
   * The v2 server package's `createMcpHandler` serving a v2 low-level `Server`, which decides the protocol
   * era per request; the client reaches it through its Streamable HTTP transport with the handler as its
   * fetch (no socket). `era: 'modern'` lets the client negotiate 2026-07-28; `legacy` pins the 2025 era.
   */
  | { readonly kind: 'v2-handler'; readonly era: 'modern' | 'legacy'; readonly result: ToolResult }
  /** A high-level server helper registers the tool and its handler returns `result`. */
  | { readonly kind: 'helper'; readonly helper: ServerHelper; readonly result: ToolResult | 'throw' };

/** v1 `McpServer.registerTool`, or the v2 server package's `McpServer.registerTool`. */
export type ServerHelper = 'v1-mcp-server' | 'v2-mcp-server';

export interface Matrix {
  readonly name: string;
  readonly title: string;
  /** Where the cases and their expectations come from. */
  readonly source: string;
  readonly scenarios: readonly Scenario[];
}

/**
 * A statement about a result itself (not about a client), with the rule that makes it and its source:
 * the MCP specification, the MCP Description rules, or tool-design guidance.
 */
export const FindingSchema = z
  .object({
    rule: z.string(),
    level: z.enum(['error', 'warning', 'info']),
    message: z.string(),
    source: z.string(),
  })
  .strict();
export type Finding = z.infer<typeof FindingSchema>;

const CASE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*$/;

/** Which server the case's client talked to and how it answered tools/call: a fact of the record. */
export const FixtureSchema = z
  .object({
    server: z.enum(['v1-low-level', 'v1-mcp-server', 'v2-mcp-server', 'v2-handler']),
    answer: z.enum(['result', 'hang', 'close', 'malformed', 'wrong-id', 'throw']),
    /** v1 low-level only: `Server.setRequestHandler` (checks results since 1.24.0) or the unwrapped base method. */
    registration: z.enum(['wrapped', 'raw']).optional(),
    /** v2 handler only: the protocol era the client negotiates. */
    era: z.enum(['modern', 'legacy']).optional(),
    /** tools/list in two pages, the tool under test on the second. */
    paginated: z.literal(true).optional(),
    /** After discovery the server switches to this definition and sends notifications/tools/list_changed. */
    changesTo: ToolDefinitionSchema.optional(),
  })
  .strict();
export type Fixture = z.infer<typeof FixtureSchema>;

/**
 * One case as the result file records it. The key order here is the file's reading order
 * (io/json-files.ts derives the file from this schema), so every field reaches the file.
 */
export const CaseRecordSchema = z
  .object({
    id: z.string().regex(CASE_ID, 'must be a kebab-case slug path such as v1/warm/off-schema-success'),
    client: ClientLineSchema,
    clientPackage: z.string(),
    discovery: DiscoverySchema,
    transport: TransportKindSchema,
    fixture: FixtureSchema,
    shape: z.string(),
    family: z.string().optional(),
    question: z.string().optional(),
    reference: z.string().optional(),
    verdict: VerdictSchema,
    mismatches: z.array(MismatchSchema),
    expected: ExpectedSchema.nullable(),
    observed: ObservationSchema,
    arguments: z.record(z.string(), JsonValueSchema).optional(),
    /** The tool name the client called, when not the listed tool's (an unknown tool). */
    calledName: z.string().optional(),
    /** The client's own request timeout for tools/call, when the case set one. */
    clientTimeoutMs: z.number().int().positive().optional(),
    // What the server's handler was given to answer with; null when it answers with none.
    result: ToolResultSchema.nullable(),
    tool: ToolDefinitionSchema,
  })
  .strict();
export type CaseRecord = z.infer<typeof CaseRecordSchema>;

export const EnvironmentSchema = z
  .object({
    node: z.string(),
    platform: z.string(),
    arch: z.string(),
    harness: z.string(),
    packages: z.record(z.string(), z.string()),
    /** npm's SRI hash of each package's tarball, from the lockfile; absent where unknown. */
    integrity: z.record(z.string(), z.string()).optional(),
  })
  .strict();
export type Environment = z.infer<typeof EnvironmentSchema>;

// 2: case records carry transport, fixture, calledName, clientTimeoutMs and who rejected (observed.by).
export const RESULT_SCHEMA_VERSION = 2;

/** A result file; as for case records, the key order is the file's reading order. */
export const ResultFileSchema = z
  .object({
    schemaVersion: z.literal(RESULT_SCHEMA_VERSION),
    matrix: z.object({ name: z.string(), title: z.string(), source: z.string() }).strict(),
    environment: EnvironmentSchema,
    summary: z
      .object({
        passed: z.number().int().nonnegative(),
        failed: z.number().int().nonnegative(),
        unjudged: z.number().int().positive().optional(),
      })
      .strict(),
    /** What the protocol and common rules say about each result shape, keyed by shape (lint.ts). */
    lint: z.record(z.string(), z.array(FindingSchema)).optional(),
    cases: z.array(CaseRecordSchema),
  })
  .strict();
export type ResultFile = z.infer<typeof ResultFileSchema>;
/** A result file without its cases: what a run keeps while its records go to disk one by one. */
export type ResultHeader = Omit<ResultFile, 'cases'>;
