/**
 * `GET /groups/{GROUP-ID}/logCollectionJobs`: a project's log collection jobs, paged as the keys of an
 * organization are (`pageNum`, `itemsPerPage` up to 500, `totalCount`; the documentation's "Get All Log
 * Collection Jobs for One Project"), read through ./listing-pages.ts as every listing is. Not in the
 * spec: a server that follows it alone answers 405 or 404 here (./log-collection-job-answers).
 */
import { defineListing } from "./define-listing";
import { hex24Segment } from "./ids";
import type { ListedRecord } from "./listed-record";
import type { Listing } from "./listing-pages";
import { explainJobError } from "./log-collection-job-answers";
import { sendRequest } from "./request";
import { type LogCollectionJobRecord, logCollectionJobRecordSchema } from "./schemas";

export function jobsPath(groupId: string): string {
  return `/groups/${hex24Segment("groupId", groupId)}/logCollectionJobs`;
}

/** A job of a project's listing: its id read, the rest of its record checked when first used. */
export type ListedJob = ListedRecord<LogCollectionJobRecord>;

/** A project's jobs (`verbose` is not asked: child jobs are not read). */
export function logCollectionJobListing(groupId: string): Listing<LogCollectionJobRecord> {
  const path = jobsPath(groupId);
  return defineListing({
    path,
    noun: { item: "job", items: "jobs", listing: "the project's log collection job listing" },
    schema: logCollectionJobRecordSchema,
    get: (transport, query) =>
      sendRequest(transport, { method: "GET", path, query: { ...query } }, (error) =>
        explainJobError(error, "listLogCollectionJobs", { groupId }),
      ),
  });
}
