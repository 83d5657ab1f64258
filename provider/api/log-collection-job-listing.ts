/**
 * `GET /groups/{GROUP-ID}/logCollectionJobs`: a project's log collection jobs, paged as the keys of an
 * organization are (`pageNum`, `itemsPerPage` up to 500, `totalCount`; the documentation's "Get All Log
 * Collection Jobs for One Project"), read whole through the same reader, so that a listing is trusted
 * only when its pages agree. Not in the spec: a server that follows it alone answers 405 or 404 here
 * (./log-collection-job-answers).
 */
import { isRecord } from "../client/is-record";
import type { JsonResponse } from "../client/types";
import { hex24Segment } from "./ids";
import { ListedRecord } from "./listed-record";
import {
  type ListAllOptions,
  type Page,
  type PageRequest,
  pageQuery,
  readConsistentListing,
} from "./listing-pages";
import { explainJobError } from "./log-collection-job-answers";
import { parseResponse, unnamedRecordError } from "./parse";
import { sendRequest } from "./request";
import {
  type LogCollectionJobRecord,
  logCollectionJobListingSchema,
  logCollectionJobRecordSchema,
} from "./schemas";
import type { Transport } from "./transport";

/** How a listing of jobs names what it lists, in the messages of a listing that never agrees. */
const JOBS = { item: "job", items: "jobs", listing: "the project's log collection job listing" } as const;

export function jobsPath(groupId: string): string {
  return `/groups/${hex24Segment("groupId", groupId)}/logCollectionJobs`;
}

/**
 * A job of a project's listing: its id read, the rest of its record checked against the schema only
 * when {@link record} is first called, so that a record the server describes wrongly fails the job
 * that uses it, not every job of the project.
 */
export class ListedJob extends ListedRecord<LogCollectionJobRecord> {
  constructor(
    raw: Record<string, unknown> & { id: string },
    response: JsonResponse,
    path: string,
    index: number,
  ) {
    super(raw.id, () =>
      parseResponse(logCollectionJobRecordSchema, response, "GET", path, {
        value: raw,
        at: ["results", index],
      }),
    );
  }

  /** The record as the schema reads it; throws a `ResponseShapeError` naming its place in its page. */
  record(): LogCollectionJobRecord {
    return this.checked();
  }
}

/** One page of a project's jobs (`verbose` is not asked: child jobs are not read). */
export async function listLogCollectionJobsPage(
  transport: Transport,
  groupId: string,
  page: Partial<PageRequest> = {},
): Promise<Page<ListedJob>> {
  const path = jobsPath(groupId);
  const { pageNum, itemsPerPage } = pageQuery(page);
  const response = await sendRequest(
    transport,
    { method: "GET", path, query: { pageNum, itemsPerPage } },
    (error) => explainJobError(error, "listLogCollectionJobs", { groupId }),
  );
  const envelope = parseResponse(logCollectionJobListingSchema, response, "GET", path);
  const results = envelope.results.map((raw, index) => {
    if (!isRecord(raw) || typeof raw.id !== "string" || raw.id === "") {
      // Not even an id: the record's schema says what is wrong, as it would for the whole page.
      parseResponse(logCollectionJobRecordSchema, response, "GET", path, {
        value: raw,
        at: ["results", index],
      });
      throw unnamedRecordError(response, path, index, "id");
    }
    return new ListedJob(raw as Record<string, unknown> & { id: string }, response, path, index);
  });
  return { results, totalCount: envelope.totalCount, url: response.url };
}

/**
 * Every job of a project, handed to `onPage` page by page as they arrive, from a listing whose pages
 * agree (read again while they disagree, then an `InconsistentListingError`), as an organization's keys
 * are read. Rejects with the first page's error when the server has no listing of jobs (see
 * `isMissingOperation`).
 */
export async function listLogCollectionJobsByPage(
  transport: Transport,
  groupId: string,
  onPage: (jobs: ListedJob[]) => void,
  options: ListAllOptions = {},
): Promise<void> {
  await readConsistentListing(
    jobsPath(groupId),
    (page) => listLogCollectionJobsPage(transport, groupId, page),
    options,
    { onPage: (jobs) => onPage(jobs), noun: JOBS },
  );
}
