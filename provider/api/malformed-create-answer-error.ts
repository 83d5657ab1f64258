import { ResponseShapeError } from "../client/errors";

/**
 * A create the server made whose answer named the new id but did not match the schema (an id not 24 hex
 * digits, say): a {@link ResponseShapeError} whose `createdId` lets the caller record what exists.
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
