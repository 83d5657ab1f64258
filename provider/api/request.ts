import { ApiError, AuthenticationError, ResponseShapeError, staleAdvice } from "../client/errors";
import type { ErrorAnswer, JsonResponse, RequestOptions } from "../client/types";
import type { Transport } from "./transport";

/**
 * Sends one request of this API, its failure told in Ops Manager's terms ({@link inOpsManagerTerms}),
 * then by `explain`, which knows the operation (which id a 404 is about, which role a refusal needs).
 */
export async function sendRequest(
  transport: Transport,
  options: RequestOptions,
  explain: (error: unknown) => unknown = (error) => error,
): Promise<JsonResponse> {
  try {
    return await transport.request({ ...options, pastAuthentication: namesErrorCode });
  } catch (error) {
    throw explain(inOpsManagerTerms(error));
  }
}

/**
 * Which 401s Ops Manager wrote past authentication: a body naming an `errorCode` (a caller without the
 * role, `USER_UNAUTHORIZED`), where a digest refusal (RFC 7616 §3.3) carries no application error.
 */
const namesErrorCode = (answer: ErrorAnswer) => answer.errorCode !== undefined;

const CREDENTIALS = "the public key and private key";

/** What to check when an answer is not this API's: the address, and a version whose bodies these are. */
export const WRONG_SHAPE_HINT =
  "check that the base URL points at the Ops Manager API and that the server version is supported";

/**
 * `error` with the advice Ops Manager's meaning adds to HTTP's (an API key's credentials, a 403's role
 * or access-list entry, its Digest algorithms, a body not its own), as a copy: several callers may hold
 * the original. Any other error as it is.
 */
export function inOpsManagerTerms(error: unknown): unknown {
  if (error instanceof AuthenticationError) {
    switch (error.why) {
      case "rejected":
        return error.withHint(
          `check ${CREDENTIALS} (or user name and API key), that the API key is enabled, and that this ` +
            "machine's address is on its access list",
        );
      case "stale":
        return error.withHint(staleAdvice(CREDENTIALS));
      case "unsupported-challenge":
        return error.withHint("Ops Manager's public API uses HTTP Digest with MD5 or SHA-256");
    }
  }
  if (error instanceof ApiError && error.status === 403 && error.hint === undefined) {
    return error.withHint(
      "the credentials are valid but not allowed this call: give the API key a role that allows it, or add this machine to the key's access list",
    );
  }
  if (error instanceof ResponseShapeError && error.hint === undefined)
    return error.withHint(WRONG_SHAPE_HINT);
  return error;
}
