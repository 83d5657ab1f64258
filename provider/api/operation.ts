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
