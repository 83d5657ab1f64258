/**
 * `GET /groups/{GROUP-ID}/logCollectionJobs` (the documentation's "Get All Log Collection Jobs for One
 * Project"), paged as an organization's keys are. Not in the spec: a server that follows it alone
 * answers 405 or 404 here (./log-collection-job-answers).
 */
import { defineListing } from "./define-listing";
import { hex24Segment } from "./ids";
import type { ListedRecord } from "./listed-record";
import type { Listing } from "./listing-pages";
import { explainJobError } from "./log-collection-job-answers";
import { sendRequest } from "./request";
import { type LogCollectionJobRecord, logCollectionJobRecordSchema } from "./schemas";

/** `/groups/{GROUP-ID}/logCollectionJobs`, the project's id checked first. */
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
