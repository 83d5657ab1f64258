import {
  AbortedError,
  ApiError,
  NetworkError,
  type RequestError,
  ResponseShapeError,
  ResponseTooLargeError,
  TimeoutError,
} from "../client/errors";
import type { RequestOptions } from "../client/types";
import { explainAuthorization, type Operation } from "./authorization-error";
import { explainNotFound, type PathIds } from "./not-found";
import { sendRequest } from "./request";
import type { Transport } from "./transport";

/**
 * One request of an operation of this API: a refusal told as the role the operation needs, a "not
 * found" as the id in its path that the server does not know.
 */
export function sendOperation(
  transport: Transport,
  operation: Operation,
  options: RequestOptions,
  ids: PathIds,
) {
  return sendRequest(transport, options, (error) =>
    explainAuthorization(explainNotFound(error, ids), operation),
  );
}

/**
 * Whether a failed POST may have been acted on by the server: a 5xx other than 503, a timeout, an
 * abort or a connection broken after it was sent, or a 2xx whose body could not be read.
 */
export function mayHaveActed(error: unknown): error is RequestError {
  if (error instanceof ApiError) return error.requestSent && error.status >= 500 && error.status !== 503;
  if (error instanceof NetworkError || error instanceof TimeoutError || error instanceof AbortedError) {
    return error.requestSent;
  }
  if (error instanceof ResponseShapeError || error instanceof ResponseTooLargeError) {
    return error.status >= 200 && error.status < 300;
  }
  return false;
}

/**
 * Whether a failed request never reached the server: no connection, only its challenge GET failed, or
 * it was abandoned before it was sent.
 */
export function wasNotSent(error: unknown): boolean {
  return (
    (error instanceof ApiError ||
      error instanceof NetworkError ||
      error instanceof TimeoutError ||
      error instanceof AbortedError) &&
    !error.requestSent
  );
}

/** Whether `error`, or an error it was made from (its `cause`s), is a request its caller abandoned. */
export function wasAborted(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth += 1) {
    if (at instanceof AbortedError) return true;
  }
  return false;
}
