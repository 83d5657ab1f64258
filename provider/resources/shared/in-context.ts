import { ApiError } from "../../client/errors";

/**
 * The error the engine shows for a failed resource call: the original error's message with the
 * resource in front (and any advice after), as a new error whose prototype is the original, so its
 * class and fields (`status`, `errorCode`, `code`, …) still read through, and whose stack keeps the
 * original's frames, so a provider bug (a `TypeError`, say) still shows where it happened in the
 * host's log. A 409 gains what to run in Pulumi (`pulumi refresh`). The original is never changed in
 * place: several calls can hold it (every key waiting on one failed org listing).
 */
export function inContext(prefix: string, error: unknown, advice = ""): Error {
  const told = inPulumiTerms(error);
  const original = told instanceof Error ? told : new Error(String(told));
  const message = `${prefix}: ${original.message}${advice}`;
  // The error as thrown, not the copy that carries Pulumi's advice: its frames, and the cause.
  const cause = error instanceof Error ? error : original;
  const wrapped = Object.create(original) as Error;
  Object.defineProperty(wrapped, "message", { value: message, writable: true, configurable: true });
  Object.defineProperty(wrapped, "stack", {
    value: `${original.name}: ${message}${framesOf(cause)}`,
    writable: true,
    configurable: true,
  });
  Object.defineProperty(wrapped, "cause", { value: cause, writable: true, configurable: true });
  return wrapped;
}

/** The `\n    at …` lines of `error`'s stack (V8's format), or "" when it has none. */
function framesOf(error: Error): string {
  const stack = typeof error.stack === "string" ? error.stack : "";
  const first = stack.search(/\n\s+at /);
  return first < 0 ? "" : stack.slice(first);
}

/**
 * `error` with what to run in Pulumi where HTTP's advice alone would leave the user stuck: a 409 (the
 * resource changed meanwhile) is settled by a refresh before trying again. A copy; any other error as
 * it is.
 */
function inPulumiTerms(error: unknown): unknown {
  if (error instanceof ApiError && error.status === 409 && error.hint === undefined) {
    return error.withHint("the resource changed meanwhile; run `pulumi refresh`, then try again");
  }
  return error;
}
