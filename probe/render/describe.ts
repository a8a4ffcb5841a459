// All wording about expectations, observations, mismatches and comparisons lives here (publint-style:
// checks emit data, one formatter words it), shared by every renderer.
import type { CaseComparison, ComparisonKind } from '../core/compare.ts';
import type { Expected, JsonValue, Mismatch, MismatchKind, Observation, RejectedBy, SentKind } from '../core/domain.ts';

export function json(value: JsonValue | undefined): string {
  return value === undefined ? 'absent' : JSON.stringify(value);
}

/** A short cell text: `returned`, `returned isError`, `rejected -32602`, `timeout (call)`. */
export function describeObservation(observed: Observation): string {
  switch (observed.outcome) {
    case 'returned':
      return observed.isError === true ? 'returned isError' : 'returned';
    case 'rejected':
      return `rejected ${observed.error.code ?? observed.error.name}`;
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
      return `${describeObservation(observed)}${structured}`;
    }
    case 'rejected':
      return `rejected ${observed.error.name} ${observed.error.code ?? ''}: ${observed.error.message}`.replace('  ', ' ');
    case 'timeout':
      return `timeout after ${observed.afterMs} ms during ${observed.stage}`;
    case 'crashed':
      return `crashed during ${observed.stage}: ${observed.error.name}: ${observed.error.message}`;
  }
}

export const MISMATCH_WORDING = {
  sent: (m) => `expected the server to send ${SENT_WORDING[m.expected]}, it sent ${SENT_WORDING[m.observed]}`,
  by: (m) => `expected the rejection to come from the ${m.expected}, it came from the ${m.observed}`,
  name: (m) => `expected a thrown ${m.expected}, observed ${m.observed}`,
  outcome: (m) => `expected ${m.expected}, observed ${m.observed}`,
  code: (m) => `expected error code ${m.expected}, observed ${m.observed ?? 'no code'}`,
  isError: (m) => `expected isError ${m.expected}, observed ${m.observed}`,
  structuredContent: (m) => `expected structuredContent ${json(m.expected)}, observed ${json(m.observed)}`,
  content: (m) => `expected content ${json(m.expected)}, observed ${json(m.observed)}`,
  'fixture-altered': () => 'the fixture server did not send the scenario result unchanged, so the client never saw this shape',
} as const satisfies { [K in MismatchKind]: (mismatch: Extract<Mismatch, { kind: K }>) => string };

export const REJECTED_BY_WORDING = {
  server: 'the server: it answered tools/call with a JSON-RPC error',
  'client-output-schema': "the client's outputSchema check",
  'client-result-parse': "the client's parse of the result against its CallToolResult schema",
  transport: 'the transport: the connection closed under the pending call',
  client: 'the client itself (its own request timeout)',
} as const satisfies Record<RejectedBy, string>;

export const SENT_WORDING = {
  'as-scenario': 'the result unchanged',
  nothing: 'nothing',
  altered: 'an altered result',
  error: 'a JSON-RPC error',
} as const satisfies Record<SentKind, string>;

export function describeMismatch(mismatch: Mismatch): string {
  return (MISMATCH_WORDING[mismatch.kind] as (m: Mismatch) => string)(mismatch);
}

export const COMPARISON_WORDING = {
  matched: 'matched',
  changed: 'changed',
  new: 'new (not in the recorded result)',
  stale: 'stale (recorded, no such case any more)',
  unchecked: 'unchecked (recorded, not selected by --case)',
} as const satisfies Record<ComparisonKind, string>;

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
