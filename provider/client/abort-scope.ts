/**
 * The abort signal a caller sets around a piece of work: every request made within it, at any depth,
 * is abandoned when the signal aborts, and none starts after. The caller says why in the signal's
 * `reason`; the client only repeats it.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<AbortSignal>();

/**
 * Runs `work` with `signal` over every request it makes; inside another scope, either signal aborts
 * them.
 *
 * @example
 * await withAbortSignal(AbortSignal.timeout(5_000), () => client.request({ method: "GET", path: "/orgs" }));
 */
export function withAbortSignal<T>(signal: AbortSignal, work: () => T): T {
  const outer = scope.getStore();
  return scope.run(outer === undefined ? signal : AbortSignal.any([outer, signal]), work);
}

/** The signal of the scope this runs in, or `undefined` outside any. */
export function currentAbortSignal(): AbortSignal | undefined {
  return scope.getStore();
}

/** What a signal's `reason` says, for a message: an error's message, or the reason as text. */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? "it was aborted" : String(reason);
}
