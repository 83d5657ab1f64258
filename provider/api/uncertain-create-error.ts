import { ApiError, RequestError, ResponseShapeError, ResponseTooLargeError } from "../client/errors";

/**
 * A create whose outcome is not known: the server may have acted on the POST (a 5xx, a timeout, a
 * connection cut after sending), which is never sent again on its own, so that no second job starts.
 * Code `OM_ERR_UNCERTAIN_CREATE`; `cause` is the transport's error about the POST.
 */
export class UncertainCreateError extends RequestError {
  /** What to check before trying again, in Ops Manager's terms ("check the project's …"). */
  readonly check: string;

  constructor(what: string, check: string, cause: RequestError) {
    // HTTP's own advice for a 5xx ("try again") is the one thing not to do here: the check comes first.
    const answer = cause instanceof ApiError ? cause.withHint("the server failed").message : cause.message;
    super(
      "OM_ERR_UNCERTAIN_CREATE",
      `${answer}. The server may have created the ${what}: it was not sent again, so that no second ${what} starts`,
      { ...cause.call(), requestSent: cause.requestSent },
      cause,
    );
    this.name = "UncertainCreateError";
    this.check = check;
  }

  /**
   * Whether the server answered the POST (a status was read: a 5xx, or a 2xx whose body could not be
   * read): it has done with it, so whatever it made is there from then on. Without an answer (a timeout,
   * a connection cut) it may still act on it later; so may a server behind a gateway that answered 502
   * or 504 for it (RFC 9110 §15.6.3, §15.6.5: the gateway's answer, not the server's, which may still be
   * at work on the request).
   */
  get answered(): boolean {
    const cause = this.cause;
    if (cause instanceof ApiError) return cause.status !== 502 && cause.status !== 504;
    return cause instanceof ResponseShapeError || cause instanceof ResponseTooLargeError;
  }
}
