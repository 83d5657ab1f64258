/**
 * The pipeline's second step (./pipeline): a request's digest credentials checked (./digest), and what
 * it sent of them, scrubbed, and whether they passed, written to its record.
 */
import type { DigestAuthenticator, DigestVerdict } from "./digest";
import type { IncomingRequest } from "./read-request";
import type { RequestLog } from "./request-log";

/** Checks the `Authorization` header sent with `incoming`, against its method and target. */
export function authenticate(
  digest: DigestAuthenticator,
  log: RequestLog,
  incoming: IncomingRequest,
  authorization: string | undefined,
): DigestVerdict {
  const verdict = digest.verify(authorization, incoming.method, incoming.target);
  if (verdict.fields) incoming.entry.digest = log.scrubRecord(verdict.fields);
  if (verdict.ok) incoming.entry.authenticated = true;
  return verdict;
}
