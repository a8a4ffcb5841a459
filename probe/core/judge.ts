// The verdict is a pure function of the expectation and the observation: no I/O, no SDK, no clock.
import { isDeepStrictEqual } from 'node:util';
import { sentKind, type Expected, type Mismatch, type Observation, type Verdict } from './domain.ts';

export interface Judgement {
  readonly verdict: Verdict;
  readonly mismatches: Mismatch[];
}

/**
 * A case passes only when exactly the expected outcome happened: the same outcome, and then the same
 * code (rejected) or the same isError, structuredContent (deep equality, absence included) and content
 * (returned). A result the fixture server altered on the way out fails too: the client then never saw
 * the shape the case is about.
 */
export function judge(expected: Expected | null, observed: Observation): Judgement {
  if (expected === null) return { verdict: 'unjudged', mismatches: [] };
  const mismatches: Mismatch[] = [];
  const sent = sentKind(observed.serverSent);
  if (expected.sent !== undefined) {
    if (sent !== expected.sent) mismatches.push({ kind: 'sent', expected: expected.sent, observed: sent });
  } else if (sent === 'altered' || sent === 'error') {
    mismatches.push({ kind: 'fixture-altered' });
  }

  if (observed.outcome !== expected.outcome) {
    mismatches.push({ kind: 'outcome', expected: expected.outcome, observed: observed.outcome });
  } else if (expected.outcome === 'rejected' && observed.outcome === 'rejected') {
    if (expected.code !== undefined && observed.error.code !== expected.code) {
      mismatches.push({ kind: 'code', expected: expected.code, observed: observed.error.code });
    }
    if (expected.name !== undefined && observed.error.name !== expected.name) {
      mismatches.push({ kind: 'name', expected: expected.name, observed: observed.error.name });
    }
    if (expected.by !== undefined && observed.by !== expected.by) mismatches.push({ kind: 'by', expected: expected.by, observed: observed.by });
  } else if (expected.outcome === 'crashed' && observed.outcome === 'crashed') {
    if (observed.stage !== expected.stage) mismatches.push({ kind: 'outcome', expected: `crashed (${expected.stage})`, observed: `crashed (${observed.stage})` });
    if (expected.name !== undefined && observed.error.name !== expected.name) {
      mismatches.push({ kind: 'name', expected: expected.name, observed: observed.error.name });
    }
  } else if (expected.outcome === 'returned' && observed.outcome === 'returned') {
    const observedIsError = observed.isError === true;
    if (observedIsError !== expected.isError) {
      mismatches.push({ kind: 'isError', expected: expected.isError, observed: observedIsError });
    }
    const expectsStructured = Object.hasOwn(expected, 'structuredContent');
    const hasStructured = Object.hasOwn(observed, 'structuredContent');
    if (expectsStructured !== hasStructured || !isDeepStrictEqual(expected.structuredContent, observed.structuredContent)) {
      const mismatch: Mismatch = { kind: 'structuredContent' };
      if (expectsStructured) mismatch.expected = expected.structuredContent;
      if (hasStructured) mismatch.observed = observed.structuredContent;
      mismatches.push(mismatch);
    }
    if (expected.content !== undefined && !isDeepStrictEqual(expected.content, observed.content)) {
      const mismatch: Mismatch = { kind: 'content', expected: expected.content };
      if (observed.content !== undefined) mismatch.observed = observed.content;
      mismatches.push(mismatch);
    }
    if (expected.otherKeys !== undefined && !isDeepStrictEqual(expected.otherKeys, observed.otherKeys ?? {})) {
      const mismatch: Mismatch = { kind: 'otherKeys', expected: expected.otherKeys };
      if (observed.otherKeys !== undefined) mismatch.observed = observed.otherKeys;
      mismatches.push(mismatch);
    }
  }
  return { verdict: mismatches.length === 0 ? 'pass' : 'fail', mismatches };
}
