import { ApiError } from "../../client/errors";

/**
 * The error the engine shows for a failed resource call: the original error's message with the
 * resource in front (and any advice after), as a new error whose prototype is the original, so its
 * class and fields (`status`, `errorCode`, `code`, …) still read through. Its stack is the new message
 * over the original's frames, so a provider bug (a `TypeError`, say) still shows where it happened in
 * the host's log. What an answer means in Pulumi (run `pulumi refresh` after a conflict) is added here.
 *
 * Several calls can hold the same error object (every key waiting on one failed org listing), so the
 * original is never changed in place.
 */
export function inContext(prefix: string, error: unknown, advice = ""): Error {
  const told = inPulumiTerms(error);
  const original = told instanceof Error ? told : new Error(String(told));
  const message = `${prefix}: ${original.message}${advice}`;
  const cause = error instanceof Error ? error : original;
  const wrapped = Object.create(original) as Error;
  Object.defineProperty(wrapped, "message", { value: message, writable: true, configurable: true });
  Object.defineProperty(wrapped, "stack", {
    // The frames of the error as thrown, not of a copy made above to add Pulumi's advice.
    value: `${original.name}: ${message}${framesOf(cause)}`,
    writable: true,
    configurable: true,
  });
  // The cause is the error as thrown, not the copy that carries Pulumi's advice.
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
