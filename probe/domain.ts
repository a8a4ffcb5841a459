// The probe's domain as data: scenarios, expectations, observations and verdicts.
// Everything that can come from a file (recorded results, later user scenarios and captures) has a zod
// schema here; the TypeScript types are inferred from those schemas so the two cannot drift apart.
import { z } from 'zod';

export const JsonValueSchema = z.json();
export type JsonValue = z.infer<typeof JsonValueSchema>;

export const CLIENT_LINES = ['v1', 'v2'] as const;
export const ClientLineSchema = z.enum(CLIENT_LINES);
/** A client line is one family of SDK client packages driven by one adapter. */
export type ClientLine = z.infer<typeof ClientLineSchema>;

/**
 * Whether the client has listed the tool (and so may hold its outputSchema) before calling it.
 * The audit found that this changes v1's answer ("Discovery changes the v1 control").
 */
export const DiscoverySchema = z.enum(['warm', 'cold']);
export type Discovery = z.infer<typeof DiscoverySchema>;

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
 * What a case expects a client to do, test262-style: the case passes only when exactly this happens.
 * `returned`: `structuredContent` absent from the expectation means "must be absent"; `content`, when
 * given, must be deep-equal.
 */
export const ExpectedSchema = z.discriminatedUnion('outcome', [
  z
    .object({
      outcome: z.literal('returned'),
      isError: z.boolean(),
      structuredContent: JsonValueSchema.optional(),
      content: z.array(JsonValueSchema).optional(),
    })
    .strict(),
  z
    .object({
      outcome: z.literal('rejected'),
      // Absent: any thrown error will do (a user's `--expect rejected`).
      code: z.union([z.number().int(), z.string()]).optional(),
    })
    .strict(),
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

/** The step of a case in which something went wrong. */
export const StageSchema = z.enum(['connect', 'discover', 'call']);
export type Stage = z.infer<typeof StageSchema>;

/**
 * What the fixture server put on the wire as the `tools/call` result, compared with what the scenario
 * told it to send. The v1 `Server.setRequestHandler` re-parses tools/call results (since 1.24.0), so a
 * shape could be altered before it reaches the client; a case is only about the client when it was not.
 */
export const ServerSentSchema = z.union([
  z.literal('as-scenario'),
  z.literal('nothing'),
  z.object({ altered: JsonValueSchema }).strict(),
]);
export type ServerSent = z.infer<typeof ServerSentSchema>;

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
    })
    .strict(),
  z.object({ outcome: z.literal('rejected'), error: ErrorInfoSchema, serverSent: ServerSentSchema }).strict(),
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
export type Outcome = Observation['outcome'];

export const MismatchSchema = z.discriminatedUnion('kind', [
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
  z.object({ kind: z.literal('fixture-altered') }).strict(),
]);
export type Mismatch = z.infer<typeof MismatchSchema>;
export type MismatchKind = Mismatch['kind'];

/** `unjudged`: the case states no expectation (a replay without --expect); it only reports. */
export const VerdictSchema = z.enum(['pass', 'fail', 'unjudged']);
export type Verdict = z.infer<typeof VerdictSchema>;

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
}

export type ServerBehaviour = { readonly kind: 'respond'; readonly result: ToolResult } | { readonly kind: 'hang' };

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

export const CaseRecordSchema = z
  .object({
    id: z.string().regex(CASE_ID, 'must be a kebab-case slug path such as v1/warm/off-schema-success'),
    client: ClientLineSchema,
    clientPackage: z.string(),
    discovery: DiscoverySchema,
    shape: z.string(),
    tool: ToolDefinitionSchema,
    // null when the server was told never to answer.
    result: ToolResultSchema.nullable(),
    expected: ExpectedSchema.nullable(),
    observed: ObservationSchema,
    verdict: VerdictSchema,
    mismatches: z.array(MismatchSchema),
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

export const RESULT_SCHEMA_VERSION = 1;

export const ResultFileSchema = z
  .object({
    schemaVersion: z.literal(RESULT_SCHEMA_VERSION),
    matrix: z.object({ name: z.string(), title: z.string(), source: z.string() }).strict(),
    environment: EnvironmentSchema,
    cases: z.array(CaseRecordSchema),
    summary: z
      .object({
        passed: z.number().int().nonnegative(),
        failed: z.number().int().nonnegative(),
        unjudged: z.number().int().positive().optional(),
      })
      .strict(),
    /** What the protocol and common rules say about each result shape, keyed by shape (lint.ts). */
    lint: z.record(z.string(), z.array(FindingSchema)).optional(),
  })
  .strict();
export type ResultFile = z.infer<typeof ResultFileSchema>;
