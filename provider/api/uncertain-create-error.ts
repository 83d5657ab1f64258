/**
 * A create whose outcome is not known: the server may have acted on the POST (a 5xx answer, a timeout,
 * or a connection cut after the request was sent). The POST is never sent again on its own, so that no
 * second job starts. Code `OM_ERR_UNCERTAIN_CREATE`; `cause` is the transport's error.
 */
export class UncertainCreateError extends Error {
  readonly code = "OM_ERR_UNCERTAIN_CREATE";

  constructor(what: string, check: string, cause: Error) {
    super(
      `${cause.message}. The server may have created the ${what}: it was not sent again, so that no second ${what} starts. ` +
        `Before running \`pulumi up\` again, ${check}.`,
      { cause },
    );
    this.name = "UncertainCreateError";
  }
}
