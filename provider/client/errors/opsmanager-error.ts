/**
 * The base of every error the transport throws. `code` is stable: match on it, not on the message.
 * The message alone says what happened and what to do, and ends with the call (`…: GET https://…`),
 * because Pulumi shows the user `error.message` and nothing else.
 */
export class OpsManagerError extends Error {
  /** A stable machine code, e.g. `OM_ERR_API`. */
  readonly code: string;

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
}
