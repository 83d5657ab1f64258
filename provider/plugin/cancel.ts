/**
 * What the engine asks of an operation besides its work, as pulumi-go-provider's `middleware/cancel`
 * keeps it: `Cancel` (the first Ctrl-C) stops every operation in flight and any started after it, and
 * a create's, read's, update's or delete's `timeout` (its `customTimeouts`, in seconds) bounds it, retries
 * included. Both reach the core as one abort signal around the method's work (../client/abort-scope.ts),
 * whose reason says what happened.
 */
import { withAbortSignal } from "../client";

/** The operations whose request carries a `timeout`, as `customTimeouts` names them. */
export type TimedOperation = "create" | "read" | "update" | "delete";

/** The longest delay a timer takes (2^31 − 1 ms); a `timeout` beyond it is no deadline. */
const LONGEST_TIMER_SECONDS = 2_147_483;

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
  private cancelled = new AbortController();

  /** Stops every operation in flight, and every one that starts after, until {@link renew}. */
  cancel(): void {
    this.cancelled.abort(
      new Error("the operation was cancelled (Ctrl-C: the engine asked the provider to cancel)"),
    );
  }

  /**
   * A new deployment begins (Handshake, Attach: a plugin started by hand serves one after another,
   * and the engine cancels each plugin at a deployment's end): operations from now on are not
   * cancelled; those already running keep the signal they had.
   */
  renew(): void {
    if (this.cancelled.signal.aborted) this.cancelled = new AbortController();
  }

  /**
   * `work` under the cancellation, and under a deadline of `timeoutSeconds` when it is above 0 (the
   * request's `timeout`, which the engine fills from `customTimeouts`).
   */
  run<T>(work: () => Promise<T> | T, timed?: Timed) {
    return async (): Promise<T> => {
      if (
        timed === undefined ||
        !(timed.timeoutSeconds > 0) ||
        timed.timeoutSeconds > LONGEST_TIMER_SECONDS
      ) {
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
