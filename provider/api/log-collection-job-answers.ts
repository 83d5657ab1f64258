/**
 * What the server's answers to a job's endpoints beyond the create mean. "This server has no such
 * operation" (one that follows the spec, which shows only the create) must never be read as "this job
 * is gone" (the error table's `LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP`, 404).
 */
import { ApiError, AuthenticationError } from "../client/errors";
import { explainAuthorization, type Operation } from "./authorization-error";
import { explainNotFound } from "./not-found";

/** The operations beyond the create, as a message names them. */
export const JOB_OPERATIONS = {
  listLogCollectionJobs: "listing of log collection jobs",
  extendLogCollectionJob: "extension of log collection jobs",
  deleteLogCollectionJob: "delete of log collection jobs",
} as const;

export type JobOperationKind = keyof typeof JOB_OPERATIONS;

/**
 * Whether `error` says the server has no such operation: 405 or 501, or a 404 without an `errorCode` or
 * with `RESOURCE_NOT_FOUND` (a path with no route). A 404 that names a project or a job is an answer of
 * a server that has the operation.
 */
export function isMissingOperation(error: unknown): error is ApiError {
  if (!(error instanceof ApiError) || error instanceof AuthenticationError || !error.requestSent)
    return false;
  if (error.status === 405 || error.status === 501) return true;
  return error.status === 404 && (error.errorCode === undefined || error.errorCode === "RESOURCE_NOT_FOUND");
}

/** Whether `error` says the project has no such job (the error table's 404 code): it is gone. */
export function isJobGone(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 404 &&
    error.errorCode === "LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP"
  );
}

/** Advice for the error table's codes of an extension (documentation, "Extend a Log Collection Job"). */
const EXTENSION_HINTS: Record<string, string> = {
  EXPIRATION_DATE_TOO_DISTANT:
    "a job's expirationDate may be at most 6 months after the job was created (its creationDate); choose an earlier one",
  EXPIRATION_DATE_MUST_BE_IN_FUTURE: "expirationDate must be later than now; choose a later one",
  CANNOT_EXTEND_EXPIRED_JOB:
    "the job has expired, and an expired job cannot be extended; start a new job to collect the logs again",
  FRACTIONAL_TIMESTAMP: "expirationDate must be a whole number of seconds",
};

/**
 * `error` in this API's terms for `operation`: a missing operation as such, the extension's error codes
 * with what to do, a refusal as the role it needs, a "not found" naming the id.
 */
export function explainJobError(
  error: unknown,
  operation: JobOperationKind,
  ids: { groupId: string; jobId?: string },
): unknown {
  if (isMissingOperation(error)) {
    return error.withHint(
      `this server has no ${JOB_OPERATIONS[operation]}: the API reference it follows shows only their create, ` +
        "while a deployed Ops Manager documents the rest of a job's life",
    );
  }
  if (error instanceof ApiError && error.errorCode !== undefined && EXTENSION_HINTS[error.errorCode]) {
    return error.withHint(EXTENSION_HINTS[error.errorCode]!);
  }
  const asOperation: Operation = { kind: operation, groupId: ids.groupId };
  return explainAuthorization(explainNotFound(error, ids), asOperation);
}
