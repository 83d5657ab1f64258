import { ApiError } from "../client/errors";

/**
 * Whether `error` says the API key no longer exists: `API_KEY_NOT_FOUND`, which the error table lists
 * as 400 and servers also answer as 404 (the Terraform Atlas provider takes both alike too).
 */
export function isApiKeyGone(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.errorCode === "API_KEY_NOT_FOUND" &&
    (error.status === 400 || error.status === 404)
  );
}
