/**
 * A project's log collection jobs looked up in the project's shared listing
 * (../shared/listing-cache.ts): refreshing N jobs of one project costs one listing, not N reads. A
 * server that has no listing of jobs at all (it follows the spec, which shows only the create) is
 * remembered in its server's job memory (./job-memory.ts), so that it is asked once.
 */
import { isMissingOperation, type JobOperationKind } from "../../api/log-collection-job-answers";
import { logCollectionJobListing } from "../../api/log-collection-job-listing";
import type { LogCollectionJobRecord } from "../../api/schemas";
import type { Transport } from "../../api/transport";
import type { ApiError } from "../../client/errors";
import { byId, findListed } from "../shared/listing-cache";
import { jobMemoryOf } from "./job-memory";

/** What a refresh learns of a job: its record, that it is gone, or that the server cannot say. */
export type JobLookup = { found: LogCollectionJobRecord } | { gone: true } | { unsupported: ApiError };

/**
 * Find job `jobId` of project `groupId` in the project's shared listing: it is gone only when two
 * listings whose pages agreed both lack it, as a key is.
 */
export async function findJob(transport: Transport, groupId: string, jobId: string): Promise<JobLookup> {
  const known = missingOperationOf(transport, "listLogCollectionJobs");
  if (known !== undefined) return { unsupported: known };
  try {
    const found = await findListed(
      transport,
      logCollectionJobListing(groupId),
      jobId,
      byId<LogCollectionJobRecord>,
    );
    return found === undefined ? { gone: true } : { found };
  } catch (error) {
    if (!isMissingOperation(error)) throw error;
    rememberMissingOperation(transport, "listLogCollectionJobs", error);
    return { unsupported: error };
  }
}

/** Remember that this client's server lacks `operation`, as `evidence` (its answer) showed. */
export function rememberMissingOperation(
  transport: Transport,
  operation: JobOperationKind,
  evidence: ApiError,
): void {
  const { missing } = jobMemoryOf(transport);
  if (!missing.has(operation)) missing.set(operation, evidence);
}

/** The answer that showed this client's server lacks `operation`, if one did. */
export function missingOperationOf(transport: Transport, operation: JobOperationKind): ApiError | undefined {
  return jobMemoryOf(transport).missing.get(operation);
}
