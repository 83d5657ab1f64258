/**
 * The base of every error the transport throws. `code` is stable: match on it, not on the message.
 * The message alone says what happened and what to do, and ends with the call (`…: GET https://…`),
 * because Pulumi shows the user `error.message` and nothing else.
 */
export class OpsManagerError extends Error {
  /** A stable machine code, e.g. `OM_ERR_API`. */
  readonly code: string;
  /** How many attempts ended in this error, when a retry loop made them. */
  attempts?: number;
  /** The time from the first attempt until the loop gave up, in ms, when a retry loop made them. */
  elapsedMs?: number;

  constructor(code: string, message: string, cause?: unknown) {
    super(message);
    this.name = "OpsManagerError";
    this.code = code;
    if (cause !== undefined) {
      // Non-enumerable like a native `cause` (ES2022), which the ES2021 lib does not declare.
      Object.defineProperty(this, "cause", {
        value: cause,
        writable: true,
        configurable: true,
        enumerable: false,
      });
    }
  }

  /**
   * Records that `attempts` attempts over `elapsedMs` ended in this error. From two attempts on, the
   * message says so before the call it ends with: `…; 8 attempts over 11.2 s: GET https://…`.
   */
  noteAttempts(attempts: number, elapsedMs: number): void {
    if (this.attempts !== undefined) return;
    this.attempts = attempts;
    this.elapsedMs = elapsedMs;
    if (attempts < 2) return;
    const note = `; ${attempts} attempts over ${(elapsedMs / 1000).toFixed(1)} s`;
    const call = /: [A-Z]+ \S+$/.exec(this.message);
    this.message =
      call === null ? `${this.message}${note}` : `${this.message.slice(0, call.index)}${note}${call[0]}`;
  }
}
