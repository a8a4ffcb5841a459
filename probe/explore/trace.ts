// What one client line did with one sequence, as the oracles read it: the server's side (what each
// tools/list answer listed, which listings it refused) and the client's (how each call settled, which
// other action threw or stalled), in the order they happened. Recorded by run.ts; made by hand in tests.
import type { ClientLine, ErrorInfo, JsonValue, RejectedBy, ToolDefinition, ToolResult } from '../core/domain.ts';

/** How a call settled: handed back, thrown (and who rejected it), or not settled within the step limit. */
export type CallSettled =
  | { readonly outcome: 'returned'; readonly isError: boolean; readonly structuredContent?: JsonValue }
  | { readonly outcome: 'rejected'; readonly by: RejectedBy; readonly error: ErrorInfo }
  | { readonly outcome: 'stalled' };

/** How the application listed: plain listTools(), every page with cursors, or one page by cursor. */
export type ListVia = 'plain' | 'all-pages' | 'page';

export type TraceEvent =
  /** A new connection (the first, or after a reconnect): the client has listed nothing on it yet. */
  | { readonly event: 'connected' }
  /** One tools/list answer the server sent, during step `step`, a listing made this way (model.ts `Step`). */
  | { readonly event: 'listed'; readonly step: number; readonly via: ListVia; readonly tools: readonly ToolDefinition[] }
  /** The server moved a tool to another schema version, with or without notifications/tools/list_changed. */
  | { readonly event: 'changed'; readonly step: number; readonly tool: string; readonly notified: boolean }
  /** The server answered a tools/list with an error (a failing listing). */
  | { readonly event: 'list-refused'; readonly step: number }
  /** A tools/call: the tool called, the definition the application handed the client (v2), what the server sent, how it settled. */
  | {
      readonly event: 'call';
      readonly step: number;
      readonly tool: string;
      readonly definition?: ToolDefinition;
      readonly sent: ToolResult;
      readonly settled: CallSettled;
    }
  /**
   * An action other than a call that threw (`refused`: the server made it fail, so throwing is its
   * answer) or did not settle within the step limit (`error` absent).
   */
  | { readonly event: 'action-failed'; readonly step: number; readonly action: string; readonly refused: boolean; readonly error?: ErrorInfo }
  /** Something thrown outside every call and action (an unhandled rejection while the sequence ran). */
  | { readonly event: 'uncaught'; readonly step: number; readonly error: ErrorInfo };

export interface LineTrace {
  readonly client: ClientLine;
  readonly events: readonly TraceEvent[];
}
