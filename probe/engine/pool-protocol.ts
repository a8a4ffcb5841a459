// What the case pool's main thread and its workers say to each other (plain, structured-cloneable data).
import type { ClientModuleRef } from '../clients/load.ts';
import type { ClientLine, Environment, ErrorInfo, Finding, Observation, Scenario, ServerSent, Stage } from '../core/domain.ts';

export interface CaseWorkerInput {
  readonly environment: Environment;
  /** Releases to load instead of the pinned clients, per line. */
  readonly clients: Partial<Record<ClientLine, ClientModuleRef>>;
}

export interface ToCaseWorker {
  readonly index: number;
  readonly scenario: Scenario;
  readonly timeoutMs: number;
}

export type FromCaseWorker =
  | { readonly kind: 'ready' }
  | { readonly kind: 'load-failed'; readonly error: ErrorInfo }
  | { readonly kind: 'stage'; readonly index: number; readonly stage: Stage }
  | { readonly kind: 'sent'; readonly index: number; readonly sent: ServerSent }
  | { readonly kind: 'observed'; readonly index: number; readonly observation: Observation; readonly clientPackage: string }
  /** The case is over; `lint`: the rule findings of the result it was given (null: it was given none). */
  | { readonly kind: 'closed'; readonly index: number; readonly lint: Finding[] | null };
