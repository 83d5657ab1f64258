import { type CallInfo, callHead, notSentNote } from "./format";
import { RequestError } from "./request-error";

/** A request abandoned because its caller's abort signal fired. */
export interface AbortedErrorInit extends CallInfo {
  /** Why, as the signal's reason says it: `the operation was cancelled`, say. */
  reason: string;
  /** `true` when the request had been sent, or may have been: the server may have acted on it. */
  requestSent: boolean;
  /** The attempts made before the abort, when it stopped a retry (they failed as retryable). */
  attemptsBefore?: number;
}

/**
 * A request abandoned at its caller's word (code `OM_ERR_ABORTED`): before it was sent, between its
 * attempts, or while its answer was awaited, in which case the server may have acted on it.
 */
export class AbortedError extends RequestError {
  /** Why, as the caller's signal said it. */
  readonly reason: string;

  constructor(init: AbortedErrorInit) {
    const reads = init.method === "GET" || init.method === "HEAD";
    let message: string;
    const before = init.attemptsBefore ?? 0;
    if (!init.requestSent && before > 0) {
      message = `${callHead(init)} was not tried again after ${before === 1 ? "its first attempt" : `${before} attempts`}: ${init.reason}`;
    } else if (!init.requestSent) {
      message =
        init.probeFor === undefined
          ? `${callHead(init)} was not sent: ${init.reason}`
          : `${callHead(init)} was abandoned: ${init.reason}${notSentNote(init)}`;
    } else {
      message = `${callHead(init)} was abandoned before its answer came: ${init.reason}${reads ? "" : "; the request may have reached the server, so it may have been acted on"}`;
    }
    super("OM_ERR_ABORTED", message, init);
    this.name = "AbortedError";
    this.reason = init.reason;
  }

  /** The message already says what was tried; the count is kept, the message left as it is. */
  override noteAttempts(attempts: number, elapsedMs: number): void {
    if (this.attempts !== undefined) return;
    this.attempts = attempts;
    this.elapsedMs = elapsedMs;
  }
}
