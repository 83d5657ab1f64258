/** The stable code of every error in the family: one per class, except that a subclass may keep its parent's. */
export const ERROR_CODES = [
  "OM_ERR_API",
  "OM_ERR_AUTH",
  "OM_ERR_FORBIDDEN",
  "OM_ERR_NETWORK",
  "OM_ERR_TIMEOUT",
  "OM_ERR_ABORTED",
  "OM_ERR_TLS",
  "OM_ERR_SCHEME_MISMATCH",
  "OM_ERR_RESPONSE_SHAPE",
  "OM_ERR_RESPONSE_TOO_LARGE",
  "OM_ERR_UNCERTAIN_CREATE",
  "OM_ERR_INCONSISTENT_LISTING",
  "OM_ERR_INVALID_ARGUMENT",
  "OM_ERR_INPUT",
  "OM_ERR_CONFIG",
  "OM_ERR_RESOURCE",
] as const;

/** One of {@link ERROR_CODES}: what `code` can be on any error this package throws. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The base of every error this package throws. `code` is stable: match on it, not on the message.
 * The message alone says what happened and what to do, because Pulumi shows the user `error.message`
 * and nothing else. `cause`, when there is one, is the standard ES2022 `Error.cause`.
 */
export class OpsManagerError extends Error {
  /** A stable machine code, e.g. `OM_ERR_API`. */
  readonly code: ErrorCode;
  /** How many attempts ended in this error, when a retry loop made them. */
  attempts?: number;
  /** The time from the first attempt until the loop gave up, in ms, when a retry loop made them. */
  elapsedMs?: number;

  constructor(code: ErrorCode, message: string, cause?: unknown) {
    // Without a cause, no `cause` property at all, as for a native error made without one.
    super(message, cause === undefined ? undefined : { cause });
    this.name = "OpsManagerError";
    this.code = code;
  }

  /** Notes the attempts that ended here; from two on, the message ends so: `…; 8 attempts over 11.2 s`. */
  noteAttempts(attempts: number, elapsedMs: number): void {
    if (this.attempts !== undefined) return;
    this.attempts = attempts;
    this.elapsedMs = elapsedMs;
    if (attempts < 2) return;
    this.message += `; ${attempts} attempts over ${(elapsedMs / 1000).toFixed(1)} s`;
  }
}
