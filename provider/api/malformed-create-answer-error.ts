import { ResponseShapeError } from "../client/errors";

/**
 * A create the server did make, whose answer named the new id but did not match the schema (an id that
 * is not 24 hex digits, say). Still a {@link ResponseShapeError} with its code and message; `createdId`
 * is the id as the server gave it, so that the caller can record what exists rather than lose it.
 */
export class MalformedCreateAnswerError extends ResponseShapeError {
  /** The id the server gave the resource it created. */
  readonly createdId: string;

  constructor(cause: ResponseShapeError, createdId: string) {
    super(cause.answer());
    if (cause.attempts !== undefined) this.noteAttempts(cause.attempts, cause.elapsedMs ?? 0);
    this.name = "MalformedCreateAnswerError";
    this.createdId = createdId;
  }
}
