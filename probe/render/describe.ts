// All wording about expectations, observations, mismatches and comparisons lives here (publint-style:
// checks emit data, one formatter words it), shared by every renderer.
import type { CaseComparison, Comparison, ComparisonKind } from '../core/compare.ts';
import type { Discovery, DroppedKey, Expected, Fixture, JsonValue, Mismatch, MismatchKind, Observation, RejectedBy, SentKind, TransportKind } from '../core/domain.ts';

export function json(value: JsonValue | undefined): string {
  return value === undefined ? 'absent' : JSON.stringify(value);
}

/**
 * A short cell text: `returned`, `returned isError`, `rejected -32602`, `timeout (call)`; `returned (1 key
 * dropped)` when a key was lost on the way, so no report's table calls such a result plain `returned`
 * (issue 20; which key, and by whom, is in describeDropped).
 */
export function describeObservation(observed: Observation): string {
  switch (observed.outcome) {
    case 'returned':
      return `${observed.isError === true ? 'returned isError' : 'returned'}${droppedCount(observed.dropped)}`;
    case 'rejected':
      return `rejected ${observed.error.code ?? observed.error.name}${droppedCount(observed.dropped)}`;
    case 'timeout':
      return `timeout (${observed.stage})`;
    case 'crashed':
      return `crashed (${observed.stage})`;
  }
}

export function describeExpected(expected: Expected | null): string {
  if (expected === null) return 'nothing stated';
  if (expected.outcome === 'returned') return expected.isError ? 'returned isError' : 'returned';
  if (expected.outcome === 'timeout') return 'timeout';
  if (expected.outcome === 'crashed') return `crashed (${expected.stage})`;
  return expected.code === undefined ? 'rejected (any error)' : `rejected ${expected.code}`;
}

/** A longer one-line account of an observation, for change lists and failure details. */
export function describeObservationInFull(observed: Observation): string {
  switch (observed.outcome) {
    case 'returned': {
      const structured = Object.hasOwn(observed, 'structuredContent') ? ` structuredContent ${json(observed.structuredContent)}` : '';
      const dropped = describeDropped(observed.dropped);
      return `${observed.isError === true ? 'returned isError' : 'returned'}${structured}${dropped && `; ${dropped}`}`;
    }
    case 'rejected': {
      const dropped = describeDropped(observed.dropped);
      return `${`rejected ${observed.error.name} ${observed.error.code ?? ''}: ${observed.error.message}`.replace('  ', ' ')}${dropped && `; ${dropped}`}`;
    }
    case 'timeout':
      return `timeout after ${observed.afterMs} ms during ${observed.stage}`;
    case 'crashed':
      return `crashed during ${observed.stage}: ${observed.error.name}: ${observed.error.message}`;
  }
}

export const MISMATCH_WORDING = {
  sent: (m) => `expected the server to send ${SENT_WORDING[m.expected]}, it sent ${SENT_WORDING[m.observed]}`,
  by: (m) => `expected the rejection from ${REJECTER_WORDING[m.expected]}, it came from ${REJECTER_WORDING[m.observed]}`,
  name: (m) => `expected a thrown ${m.expected}, observed ${m.observed}`,
  outcome: (m) => `expected ${m.expected}, observed ${m.observed}`,
  code: (m) => `expected error code ${m.expected}, observed ${m.observed ?? 'no code'}`,
  isError: (m) => `expected isError ${m.expected}, observed ${m.observed}`,
  structuredContent: (m) => `expected structuredContent ${json(m.expected)}, observed ${json(m.observed)}`,
  content: (m) => `expected content ${json(m.expected)}, observed ${json(m.observed)}`,
  otherKeys: (m) => `expected the other keys ${json(m.expected)}, observed ${json(m.observed)}`,
  'fixture-altered': () => 'the fixture server did not send the scenario result unchanged, so the client never saw this shape',
} as const satisfies { [K in MismatchKind]: (mismatch: Extract<Mismatch, { kind: K }>) => string };

export const REJECTED_BY_WORDING = {
  server: 'the server: it answered tools/call with a JSON-RPC error',
  'client-output-schema': "the client's outputSchema check",
  'client-result-parse': "the client's parse of the result against its CallToolResult schema",
  transport: 'the transport: the connection closed under the pending call',
  client: 'the client itself (its own request timeout)',
} as const satisfies Record<RejectedBy, string>;

/** Who rejected, as a noun phrase inside a sentence (REJECTED_BY_WORDING is the longer account, with why). */
const REJECTER_WORDING = {
  server: 'the server (a JSON-RPC error)',
  'client-output-schema': "the client's outputSchema check",
  'client-result-parse': "the client's CallToolResult parse",
  transport: 'the transport (the connection closed)',
  client: "the client's own request timeout",
} as const satisfies Record<RejectedBy, string>;

/**
 * Whether a failed case's headline, `expected ${describeExpected}, observed ${describeObservation}`, already
 * states a mismatch (issue 21: the terminal said each failing case's fact twice). The outcome and isError
 * are in both halves; the code is in the observed half unless the error had none (the cell then shows its
 * class name).
 */
const STATED_BY_HEADLINE = {
  outcome: () => true,
  isError: () => true,
  code: (m) => m.observed !== null,
  sent: () => false,
  by: () => false,
  name: () => false,
  structuredContent: () => false,
  content: () => false,
  otherKeys: () => false,
  'fixture-altered': () => false,
} as const satisfies { [K in MismatchKind]: (mismatch: Extract<Mismatch, { kind: K }>) => boolean };

/** The mismatches a failed case's headline (describeExpected against describeObservation) leaves unsaid. */
export function mismatchesBeyondHeadline(mismatches: readonly Mismatch[]): Mismatch[] {
  return mismatches.filter((m) => !(STATED_BY_HEADLINE[m.kind] as (mismatch: Mismatch) => boolean)(m));
}

export const SENT_WORDING = {
  'as-scenario': 'the result unchanged',
  nothing: 'nothing',
  unknown: "something this run could not see (the case's thread was stopped before the server's report arrived)",
  altered: 'an altered result',
  error: 'a JSON-RPC error',
} as const satisfies Record<SentKind, string>;

const DROPPED_BY_WORDING = { server: 'the server', client: 'the client' } as const satisfies Record<DroppedKey['by'], string>;

/** A key path as JSON would spell it: `structuredContent.__proto__`, a key that is no identifier quoted. */
function keyPath(path: readonly string[]): string {
  return path.map((key) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key))).join('.');
}

function droppedCount(dropped: readonly DroppedKey[] | undefined): string {
  if (!dropped || dropped.length === 0) return '';
  return ` (${dropped.length} ${dropped.length === 1 ? 'key' : 'keys'} dropped)`;
}

/** `dropped: structuredContent.__proto__ (by the client)`, one entry per key, or '' when none was. */
export function describeDropped(dropped: readonly DroppedKey[] | undefined): string {
  if (!dropped || dropped.length === 0) return '';
  return `dropped: ${dropped.map((d) => `${keyPath(d.path)} (by ${DROPPED_BY_WORDING[d.by]})`).join(', ')}`;
}

export function describeMismatch(mismatch: Mismatch): string {
  return (MISMATCH_WORDING[mismatch.kind] as (m: Mismatch) => string)(mismatch);
}

export const COMPARISON_WORDING = {
  matched: 'matched',
  changed: 'changed',
  new: 'new (not in the recorded result)',
  stale: 'stale (recorded, no such case any more)',
  unchecked: 'unchecked (not selected by --case)',
} as const satisfies Record<ComparisonKind, string>;

/**
 * What an identity change of the recorded comparison is (core/compare.ts OBSERVED_ERROR_FIELD_KINDS). The
 * sweep's is the class name alone (render/sweep.ts): a sweep's behaviours keep no message wording.
 */
export const RECORDED_IDENTITY_WORDING = "the error's class name or message";

/** Whether identity changes fail this run, in words: after "identity only (…)". */
export function identityGateWording(gateIdentity: boolean): string {
  return gateIdentity ? 'gated by --gate-identity' : 'not gated, --gate-identity gates it';
}

/**
 * The comparison's counts in one line: `11 matched, 2 changed`; changed cases whose error's name or
 * message alone differ are counted apart, `1 changed (identity only: …; not gated, --gate-identity gates it)`
 * (issue 21 item 5: the count that fails a run is the one a reader sees first).
 */
export function comparisonCounts(comparison: Comparison, gateIdentity: boolean): string {
  return (Object.keys(COMPARISON_WORDING) as ComparisonKind[])
    .filter((kind) => comparison.counts[kind] > 0)
    .map((kind) => {
      const count = `${comparison.counts[kind]} ${kind}`;
      const { behaviour, identity } = comparison.changedByKind;
      if (kind !== 'changed' || identity === 0) return count;
      const apart = `identity only: ${RECORDED_IDENTITY_WORDING}; ${identityGateWording(gateIdentity)}`;
      return behaviour === 0 ? `${count} (${apart})` : `${count} (${behaviour} in behaviour, ${identity} ${apart})`;
    })
    .join(', ');
}

type Difference = Exclude<CaseComparison, { kind: 'matched' | 'unchecked' }>;

/**
 * The entries a report lists, behaviour first (changed in behaviour, new, stale, in case order), then the
 * identity-only changes, which a report shows apart under "identity only".
 */
export function differencesBehaviourFirst(comparison: Comparison): { readonly behaviour: Difference[]; readonly identity: Extract<CaseComparison, { kind: 'changed' }>[] } {
  const differences = comparison.entries.filter((entry): entry is Difference => entry.kind !== 'matched' && entry.kind !== 'unchecked');
  return {
    behaviour: differences.filter((entry) => entry.kind !== 'changed' || entry.changeKind === 'behaviour'),
    identity: differences.filter((entry): entry is Extract<CaseComparison, { kind: 'changed' }> => entry.kind === 'changed' && entry.changeKind === 'identity'),
  };
}

/** The heading of the identity-only list: `identity only (not gated)`. */
export function identityListHeading(gateIdentity: boolean): string {
  return `identity only (${gateIdentity ? 'gated by --gate-identity' : 'not gated'})`;
}

/** `observed: rejected -32602 → returned isError`, field by field. */
export function describeChange(entry: Extract<CaseComparison, { kind: 'changed' }>): string[] {
  return entry.fields.map((field) => {
    if (field === 'observed') {
      return `observed: ${describeObservationInFull(entry.before.observed)} → ${describeObservationInFull(entry.after.observed)}`;
    }
    if (field === 'expected') return `expected: ${describeExpected(entry.before.expected)} → ${describeExpected(entry.after.expected)}`;
    if (field === 'clientPackage') return `client: ${entry.before.clientPackage} → ${entry.after.clientPackage}`;
    return `${field}: ${JSON.stringify(entry.before[field])} → ${JSON.stringify(entry.after[field])}`;
  });
}

/** What the client knew about the tool when it called it: one line per discovery mode, for every output. */
export const DISCOVERY_WORDING = {
  warm: 'after tools/list, as an application calls it (the client may hold the outputSchema)',
  cold: 'without tools/list: the client has not seen the tool',
  definition: 'without tools/list; the application hands callTool the tool definition (v2 toolDefinition)',
  'all-pages': 'after walking every tools/list page with its cursor (the tool is on page 2)',
  'one-page': "after fetching only the tool's page (page 2) with its cursor",
  changed: 'after tools/list; then the server changed the outputSchema and sent notifications/tools/list_changed',
  'tools-automatic': "the AI SDK's tools() (schemas from the server), then the converted tool's execute",
  'tools-with-schemas': "the AI SDK's tools({ schemas }) with the application's zod input/output schemas, then execute",
  'load-tools': "LangChain's loadMcpTools over the v1 client, then the tool's invoke with a tool call",
} as const satisfies Record<Discovery, string>;

export const TRANSPORT_WORDING = {
  'in-memory': 'a linked in-memory transport',
  stdio: 'stdio (the server in a child process)',
  http: 'Streamable HTTP on a loopback port',
  'http-in-process': "Streamable HTTP in process (the v2 client's transport, the handler as its fetch)",
} as const satisfies Record<TransportKind, string>;

export const SERVER_WORDING = {
  'v1-low-level': "the v1 SDK's low-level Server",
  'v1-mcp-server': "the v1 SDK's McpServer.registerTool",
  'v2-mcp-server': "the v2 server package's McpServer.registerTool",
  'v2-handler': "the v2 server package's createMcpHandler serving a low-level Server",
} as const satisfies Record<Fixture['server'], string>;

const ANSWER_WORDING = {
  result: 'answers tools/call with the result given',
  hang: 'never answers tools/call',
  close: 'closes the connection when tools/call arrives',
  malformed: 'answers tools/call with a message that is not JSON-RPC',
  'wrong-id': "answers tools/call with a valid result carrying another request's id",
  throw: 'its tool handler throws',
} as const satisfies Record<Fixture['answer'], string>;

const REGISTRATION_WORDING = {
  wrapped: 'registered with Server.setRequestHandler, which checks results before sending since v1 1.24.0',
  raw: 'registered with the unwrapped Protocol.prototype.setRequestHandler, so no server-side result check',
} as const satisfies Record<NonNullable<Fixture['registration']>, string>;

/** One line about the server a case's client talked to: which server, how it answered, over what. */
export function describeFixture(fixture: Fixture, transport: TransportKind): string {
  const parts = [
    `${SERVER_WORDING[fixture.server]}${fixture.registration ? ` (${REGISTRATION_WORDING[fixture.registration]})` : ''}`,
    ANSWER_WORDING[fixture.answer],
    ...(fixture.era ? [`negotiating the ${fixture.era === 'modern' ? '2026-07-28' : '2025'} protocol era`] : []),
    ...(fixture.paginated ? ['tools/list in two pages, the tool on page 2'] : []),
    ...(fixture.changesTo ? ['after discovery it switches the outputSchema and sends notifications/tools/list_changed'] : []),
  ];
  return `${parts.join('; ')}; over ${TRANSPORT_WORDING[transport]}`;
}
