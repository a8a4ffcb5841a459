// What the sweep's main thread and its workers say to each other (plain, structured-cloneable data).
import type { CaseRecord, Environment, ErrorInfo, Scenario } from '../core/domain.ts';
import type { LoadableRelease } from '../releases/cache.ts';

export interface WorkerInput {
  readonly release: LoadableRelease;
  readonly scenarios: readonly Scenario[];
  readonly timeoutMs: number;
  readonly environment: Environment;
}

export type WorkerOutput =
  | { readonly kind: 'ran'; readonly cases: CaseRecord[] }
  | { readonly kind: 'failed'; readonly stage: 'load' | 'run'; readonly error: ErrorInfo };
