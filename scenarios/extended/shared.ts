// Building blocks shared by the extended matrix's families.
import { defineCase, type CaseDefinition } from '../../probe/core/define.ts';
import type { ClientLine, Discovery, Expected, RejectedBy, Scenario } from '../../probe/core/domain.ts';

export { auditShapes, auditTool } from '../audit.ts';

export const text = (value: string) => [{ type: 'text', text: value }];

/** An extended case: a family, the question it answers and the spec clause or SDK issue it probes. */
export interface ExtendedCase extends Omit<CaseDefinition, 'family' | 'question' | 'reference'> {
  readonly question: string;
  readonly reference: string;
}

export function family(name: string) {
  return (definition: ExtendedCase): Scenario => defineCase({ ...definition, family: name });
}

export const BOTH: readonly ClientLine[] = ['v1', 'v2'];

/** Expectations, as the pinned SDKs were observed to behave (each verified by running the case). */
export const returned = (isError: boolean, structuredContent?: unknown): Expected =>
  structuredContent === undefined
    ? { outcome: 'returned', isError }
    : ({ outcome: 'returned', isError, structuredContent } as Expected);
export const rejected = (code: number | string | null, by?: RejectedBy, extra: { name?: string; sent?: Expected['sent'] } = {}): Expected => ({
  outcome: 'rejected',
  ...(code !== null && { code }),
  ...(by && { by }),
  ...extra,
});

export type Cell = `${ClientLine}/${Discovery}`;
