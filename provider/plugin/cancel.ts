/**
 * What the engine asks of an operation besides its work, as pulumi-go-provider's `middleware/cancel`
 * keeps it: `Cancel` (the first Ctrl-C) stops every operation in flight and any started after it, and
 * a create's, update's or delete's `timeout` (its `customTimeouts`, in seconds) bounds it, retries
 * included. Both reach the core as one abort signal around the method's work (../client/abort-scope.ts),
 * whose reason says what happened.
 */
import { withAbortSignal } from "../client/abort-scope";

/** The operations whose request carries a `timeout`, as `customTimeouts` names them. */
export type TimedOperation = "create" | "update" | "delete";

/** A `timeout` in seconds as a message says it: `5 s`, `1.5 s`, `2 min`. */
function shownSeconds(seconds: number): string {
  if (seconds >= 120 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${Number(seconds.toFixed(3))} s`;
}

/** A method's deadline: the request's `timeout`, in seconds (0: none). */
export interface Timed {
  operation: TimedOperation;
  timeoutSeconds: number;
}

/** The cancellation of one plugin process's operations; see the module's comment. */
export class Cancellation {
  private readonly cancelled = new AbortController();

  /** Stops every operation in flight, and every one that starts after. */
  cancel(): void {
    this.cancelled.abort(
      new Error("the operation was cancelled (Ctrl-C: the engine asked the provider to cancel)"),
    );
  }

  /**
   * `work` under the cancellation, and under a deadline of `timeoutSeconds` when it is above 0 (the
   * request's `timeout`, which the engine fills from `customTimeouts`).
   */
  run<T>(work: () => Promise<T> | T, timed?: Timed) {
    return async (): Promise<T> => {
      if (timed === undefined || !(timed.timeoutSeconds > 0)) {
        return withAbortSignal(this.cancelled.signal, work);
      }
      const { operation, timeoutSeconds } = timed;
      const deadline = new AbortController();
      const timer = setTimeout(() => {
        deadline.abort(
          new Error(
            `the ${operation}'s timeout of ${shownSeconds(timeoutSeconds)} (customTimeouts.${operation}) passed`,
          ),
        );
      }, timeoutSeconds * 1000);
      try {
        return await withAbortSignal(AbortSignal.any([this.cancelled.signal, deadline.signal]), work);
      } finally {
        clearTimeout(timer);
      }
    };
  }
}
