/**
 * Saying, once per deployment and server, that the server could not show or delete a log collection
 * job, through the one `warn()` (../shared/warn.ts). A dynamic provider's host has no connection to the
 * engine (pulumi/pulumi#6065): the SDK's `pulumi.log.warn` prints `warning: …` to the host's stderr,
 * which the engine shows the user as diagnostics with no URN from CLI 3.146 (pulumi/pulumi#18253). The
 * plugin sends it to the engine's Log service, under the job whose call found it.
 */
import type { JobOperationKind } from "../../api/log-collection-job-answers";
import { JOB_OPERATIONS } from "../../api/log-collection-job-answers";
import type { Transport } from "../../api/transport";
import type { ApiError } from "../../client/errors";
import { warn } from "../shared/warn";
import { jobMemoryOf } from "./job-memory";

/** The message: which server, which answer, and what refresh and destroy do instead. */
export function untrackedJobsMessage(operation: JobOperationKind, evidence: ApiError): string {
  let server = "the server";
  try {
    server = `the server at ${new URL(evidence.url).origin}`;
  } catch {
    // A URL the client could not have sent to; the message names the path anyway.
  }
  const code = evidence.errorCode === undefined ? "" : ` ${evidence.errorCode}`;
  return (
    `LogCollectionJob: ${server} has no ${JOB_OPERATIONS[operation]} (${evidence.method} ${evidence.path} ` +
    `answered ${evidence.status}${code}). It follows the API reference that shows only the create of a job, ` +
    "so refresh keeps each job as the stack recorded it (its status stays unknown), and destroy removes a " +
    "job from the stack without deleting it on the server, where it runs its course and expires."
  );
}

/** Print {@link untrackedJobsMessage} as a warning, the first time only for this client's server. */
export function warnUntrackedJobs(
  transport: Transport,
  operation: JobOperationKind,
  evidence: ApiError,
): void {
  const { warned } = jobMemoryOf(transport);
  if (warned.has("untrackedJobs")) return;
  warned.add("untrackedJobs");
  warn(untrackedJobsMessage(operation, evidence));
}
