/**
 * The call a face is serving, as a context that follows the call through every `await`: which
 * resource it is about, and the warnings it sent that are still on their way. The plugin opens one
 * around each gRPC method (../../plugin/call-context.ts); the dynamic face opens none, as Pulumi's
 * dynamic-provider host hands the provider no URN.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** One call in progress. */
export interface CallContext {
  /** The URN of the resource the call is about; empty for a call about none (Invoke). */
  readonly urn: string;
  /** Deliveries of warnings the call gave, which its answer waits for. */
  readonly deliveries: Promise<void>[];
}

const storage = new AsyncLocalStorage<CallContext>();

/** Runs `work` as the call about `urn`; what `work` starts, awaited or not, sees it. */
export function inCall<T>(urn: string, work: (call: CallContext) => T): T {
  const call: CallContext = { urn, deliveries: [] };
  return storage.run(call, () => work(call));
}

/** The call in progress, if a face opened one. */
export function currentCall(): CallContext | undefined {
  return storage.getStore();
}
