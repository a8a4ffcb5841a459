// The three oracles of issue #13, each a pure function over the recorded traces of one sequence.
// (a) schema consistency: a validating client rejects exactly the results that do not conform to the
//     schema of the most recent listing (on this connection) that contained the tool, or to the
//     definition the application handed it, and never rejects a conforming one.
// (b) differential: two client lines that both validate settle the same call differently.
// (c) no silent crash: every call and action settles; nothing is thrown outside them.
import { Ajv, type ValidateFunction } from 'ajv';
import type { SdkLine, JsonValue, ToolResult } from '../core/domain.ts';
import type { CallSettled, LineTrace, TraceEvent } from './trace.ts';

export const ORACLES = ['schema-consistency', 'differential', 'no-silent-crash'] as const;
export type Oracle = (typeof ORACLES)[number];

export type Violation =
  | {
      readonly oracle: 'schema-consistency';
      readonly client: SdkLine;
      readonly step: number;
      /**
       * `rejected-conforming`: the client's outputSchema check refused a conforming result;
       * `returned-nonconforming`: it handed back a result that does not conform;
       * `rejected-unlisted`: it checked a result against a schema it was not given (none on this connection).
       */
      readonly kind: 'rejected-conforming' | 'returned-nonconforming' | 'rejected-unlisted';
      /**
       * Where the schema came from: `definition`, `unlisted`, or the listing (`plain`, `all-pages`,
       * `page`) followed by what happened since (`+list-changed`, `+silent-change`, `+failed-listing`).
       */
      readonly context: string;
    }
  | {
      readonly oracle: 'differential';
      readonly clients: readonly [SdkLine, SdkLine];
      readonly step: number;
      /** How each of the two clients settled the call, in `clients` order. */
      readonly settled: readonly [string, string];
      /** The result sent: `success` or `error`, with or without structuredContent (`sc`, `no-sc`). */
      readonly sent: string;
    }
  | {
      readonly oracle: 'no-silent-crash';
      readonly client: SdkLine;
      readonly step: number;
      /** `stalled-call`, `stalled:<action>`, `threw:<action>` (an action the server did not fail) or `uncaught`. */
      readonly kind: string;
    };

/** Who the violation is about, as finding tables show it. */
export function clientsOf(violation: Violation): readonly SdkLine[] {
  return violation.oracle === 'differential' ? violation.clients : [violation.client];
}

/**
 * A violation's class: one finding per class, whatever the sequence that shows it. Exploration keeps
 * looking for classes it has not found yet, and the known-findings file is keyed by it.
 */
export function violationClass(violation: Violation): string {
  const kind =
    violation.oracle === 'differential'
      ? `${violation.sent}:${violation.settled.join('/')}`
      : violation.oracle === 'schema-consistency'
        ? `${violation.kind}:${violation.context}`
        : violation.kind;
  return `${violation.oracle}:${clientsOf(violation).join('+')}:${kind}`;
}

// The JSON Schema check the oracle applies (draft-07 defaults, as both SDKs' ajv-based validators use for
// these plain object schemas). Compiled once per schema text: the oracle runs on every sequence.
// No `ownProperties`, as the SDKs' own instances (v1 validation/ajv-provider.js createDefaultAjvInstance):
// the oracle predicts what a client's check accepts, inherited names included (core/lint.ts, which
// states what the result itself is, counts own properties only).
const ajv = new Ajv({ strict: false, allErrors: false });
const compiled = new Map<string, ValidateFunction>();
function conforms(schema: Record<string, JsonValue>, value: JsonValue | undefined): boolean {
  if (value === undefined) return false;
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(schema)));
  return validate(value) === true;
}

/**
 * What the client may validate a call against: a schema (or none) and how it was listed and what
 * happened since, or `ambiguous` (one name listed with two different definitions in one step).
 */
type Known = { readonly schema: Record<string, JsonValue> | undefined; readonly context: string } | 'ambiguous';

function knowledgeAt(events: readonly TraceEvent[]): Map<TraceEvent, Map<string, Known>> {
  const at = new Map<TraceEvent, Map<string, Known>>();
  let known = new Map<string, Known>();
  // Definitions of a name listed during the current step, to tell a name listed twice differently.
  let stepListed = new Map<string, string>();
  let listingStep = -1;
  const since = (what: string) => {
    for (const [name, k] of known) if (k !== 'ambiguous' && !k.context.includes(what)) known.set(name, { ...k, context: `${k.context}${what}` });
  };
  for (const event of events) {
    if (event.event === 'connected') known = new Map();
    if (event.event === 'changed') since(event.notified ? '+list-changed' : '+silent-change');
    if (event.event === 'list-refused') since('+failed-listing');
    if (event.event === 'listed') {
      if (event.step !== listingStep) stepListed = new Map();
      listingStep = event.step;
      for (const tool of event.tools) {
        const text = JSON.stringify(tool.outputSchema ?? null);
        const before = stepListed.get(tool.name);
        stepListed.set(tool.name, text);
        known.set(tool.name, before !== undefined && before !== text ? 'ambiguous' : { schema: tool.outputSchema, context: event.via });
      }
    }
    at.set(event, new Map(known));
  }
  return at;
}

/** Oracle (a). Error results (`isError: true`) are left out: the spec's "MUST conform" speaks of structured results, not errors. */
export function schemaConsistency(trace: LineTrace): Violation[] {
  const violations: Violation[] = [];
  const knowledge = knowledgeAt(trace.events);
  for (const event of trace.events) {
    if (event.event !== 'call' || event.sent.isError === true) continue;
    const known: Known | undefined = event.definition
      ? { schema: event.definition.outputSchema, context: 'definition' }
      : knowledge.get(event)!.get(event.tool);
    if (known === 'ambiguous') continue;
    const schema = known?.schema;
    const rejectedByCheck = event.settled.outcome === 'rejected' && event.settled.by === 'client-output-schema';
    const base = { oracle: 'schema-consistency', client: trace.client, step: event.step, context: known?.context ?? 'unlisted' } as const;
    if (schema === undefined) {
      if (rejectedByCheck) violations.push({ ...base, kind: 'rejected-unlisted' });
      continue;
    }
    const ok = conforms(schema, structuredOf(event.sent));
    if (ok && rejectedByCheck) violations.push({ ...base, kind: 'rejected-conforming' });
    if (!ok && event.settled.outcome === 'returned') violations.push({ ...base, kind: 'returned-nonconforming' });
  }
  return violations;
}

function structuredOf(result: ToolResult): JsonValue | undefined {
  return Object.hasOwn(result, 'structuredContent') ? result.structuredContent : undefined;
}

/** A call's settlement as the differential compares it: how, and for a rejection, by whom. */
export function settledClass(settled: CallSettled): string {
  return settled.outcome === 'rejected' ? `rejected(${settled.by})` : settled.outcome;
}

type CallEvent = Extract<TraceEvent, { event: 'call' }>;
const callsByStep = (trace: LineTrace) =>
  new Map(trace.events.filter((e): e is CallEvent => e.event === 'call').map((e) => [e.step, e]));

/**
 * Oracle (b), for every pair of lines: the same call step, sent the same result, settled differently.
 * Calls where either line was handed a definition are left out (v1 cannot take one, so the two did
 * not make the same call).
 */
export function differential(traces: readonly LineTrace[]): Violation[] {
  const violations: Violation[] = [];
  for (const [i, a] of traces.entries()) {
    for (const b of traces.slice(i + 1)) {
      const callsOfB = callsByStep(b);
      for (const [step, callA] of callsByStep(a)) {
        const callB = callsOfB.get(step);
        if (!callB || callA.definition || callB.definition) continue;
        if (JSON.stringify(callA.sent) !== JSON.stringify(callB.sent)) continue;
        const settled = [settledClass(callA.settled), settledClass(callB.settled)] as const;
        const sent = `${callA.sent.isError === true ? 'error' : 'success'},${Object.hasOwn(callA.sent, 'structuredContent') ? 'sc' : 'no-sc'}`;
        if (settled[0] !== settled[1]) violations.push({ oracle: 'differential', clients: [a.client, b.client], step, settled, sent });
      }
    }
  }
  return violations;
}

/** Oracle (c): a call or action that never settled, an action that threw unprovoked, anything uncaught. */
export function noSilentCrash(trace: LineTrace): Violation[] {
  const violations: Violation[] = [];
  const base = (step: number) => ({ oracle: 'no-silent-crash', client: trace.client, step }) as const;
  for (const event of trace.events) {
    if (event.event === 'call' && event.settled.outcome === 'stalled') violations.push({ ...base(event.step), kind: 'stalled-call' });
    if (event.event === 'action-failed' && !event.refused) {
      violations.push({ ...base(event.step), kind: `${event.error ? 'threw' : 'stalled'}:${event.action}` });
    }
    if (event.event === 'uncaught') violations.push({ ...base(event.step), kind: 'uncaught' });
  }
  return violations;
}

/** Every oracle over one sequence's traces, in a stable order. */
export function checkTraces(traces: readonly LineTrace[]): Violation[] {
  return [...traces.flatMap((t) => [...schemaConsistency(t), ...noSilentCrash(t)]), ...differential(traces)];
}
