import { ApiError } from "../client/errors";

/**
 * Whether `error` says the project is gone (`GROUP_NOT_FOUND`, 404): nothing in it (a job, a key's
 * assignment) can outlive it.
 */
export function isProjectGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && error.errorCode === "GROUP_NOT_FOUND";
}
