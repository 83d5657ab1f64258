/**
 * A log collection job's life beyond its create, as the Ops Manager documentation gives it (its pages on
 * log collection jobs, the error-code table) and MongoDB's Go client calls it (`opsmngr/logs.go`): list
 * a project's jobs, get one (`verbose=true` adds `childJobs`), extend one (PATCH `expirationDate`,
 * answered without a body), retry a failed one (PUT `…/retry`), delete one, download its archive. Only
 * the `deployed` profile has these (./profiles); the spec shows the create alone.
 */
import { gzipSync } from "node:zlib";
import {
  API_ROOT,
  type ApiRequest,
  type ApiResult,
  fail,
  invalidAttribute,
  isPlainObject,
  methodNotAllowed,
  notFound,
  pagination,
  parseJsonBody,
  unauthorized,
} from "./answers";
import type { ProfileRules } from "./profiles";
import type { SimState } from "./state";
import type { SimLogCollectionJob } from "./types";

/** How far past its creation a job's expiration may be set (documentation, "Extend a Log Collection Job"). */
export const MAX_EXTENSION_MONTHS = 6;

/** Routes a request under `/groups/{GROUP-ID}/logCollectionJobs` other than the create. */
export function handleJobRequest(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  groupId: string,
  jobId: string | undefined,
  rest: string[],
): ApiResult {
  if (rest.length > 1 || (rest.length === 1 && rest[0] !== "retry" && rest[0] !== "download")) {
    return notFound(req);
  }
  const allowed =
    jobId === undefined ? "GET, POST" : rest[0] === "retry" ? "PUT" : rest[0] ? "GET" : "GET, PATCH, DELETE";
  const known =
    jobId === undefined
      ? req.method === "GET"
      : rest[0] === "retry"
        ? req.method === "PUT"
        : rest[0] === "download"
          ? req.method === "GET"
          : ["GET", "PATCH", "DELETE"].includes(req.method);
  if (!known) return methodNotAllowed(req, allowed);
  if (!/^[0-9a-fA-F]{24}$/.test(groupId)) {
    return fail(400, "INVALID_GROUP_ID", `An invalid group ID ${groupId} was specified.`, [groupId]);
  }
  if (!state.hasGroup(groupId)) {
    return fail(404, "GROUP_NOT_FOUND", `No group with ID ${groupId} exists.`, [groupId]);
  }
  const refused = unauthorized(req, state, rules, { kind: "logCollectionJobs", groupId });
  if (refused) return refused;
  if (jobId === undefined) return listJobs(req, state, groupId);
  const job = state.jobStore.job(jobId);
  if (job === undefined || job.groupId !== groupId) {
    // The error table's code for a job the project does not have.
    return fail(
      404,
      "LOG_COLLECTION_JOB_NOT_FOUND_IN_GROUP",
      `No log collection job with ID ${jobId} exists in group ${groupId}.`,
      [jobId, groupId],
    );
  }
  if (rest[0] === "retry") return retryJob(state, job);
  if (rest[0] === "download") return downloadJob(job);
  if (req.method === "PATCH") return extendJob(req, state, job);
  if (req.method === "DELETE") {
    state.jobStore.removeJob(job.id);
    return { status: 200, body: undefined };
  }
  return { status: 200, body: jobView(req.origin, job, req.query.verbose?.toLowerCase() === "true") };
}

/** A time as job records write it: ISO 8601 in UTC, whole seconds (`2019-03-07T12:21:24Z`). */
function recordTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The bytes a finished child job collected: at most the size asked per file. */
function childBytes(job: SimLogCollectionJob): number {
  return job.status === "IN_PROGRESS" ? 0 : Math.min(job.sizeRequestedPerFileBytes, 14_686);
}

/** One child job per log type, as `verbose=true` shows them (fields of the Go client's `ChildJob`). */
function childJobs(job: SimLogCollectionJob): Record<string, unknown>[] {
  const start = Date.parse(job.createdAt);
  const finished = job.status !== "IN_PROGRESS";
  const failed = job.outcome === "FAILURE" && finished;
  return job.logTypes.map((logType) => ({
    automationAgentId: job.id,
    errorMessage: failed ? "The agent could not collect the logs." : "null",
    finishDate: finished ? recordTime(Date.parse(job.finishDate)) : null,
    hostName: `${job.resourceName}.example.com`,
    logCollectionType: logType,
    path: `${job.resourceName}.example.com/${logType.toLowerCase()}`,
    startDate: recordTime(start),
    status: finished ? (failed ? "FAILURE" : "SUCCESS") : "IN_PROGRESS",
    uncompressedDiskSpaceBytes: failed ? 0 : childBytes(job),
  }));
}

/**
 * A job record as the list and get-one endpoints return it: the fields of the Go client's
 * `LogCollectionJob`, in the order of its tests' bodies; `resourceType` in lower case, as those records
 * echo it; a `downloadUrl` once there is an archive to download.
 */
export function jobView(origin: string, job: SimLogCollectionJob, verbose: boolean): Record<string, unknown> {
  const archive = job.status === "SUCCESS" || job.status === "MARKED_FOR_EXPIRY";
  const children = childJobs(job);
  return {
    ...(verbose ? { childJobs: children } : {}),
    creationDate: recordTime(Date.parse(job.createdAt)),
    ...(archive
      ? { downloadUrl: `${origin}${API_ROOT}/groups/${job.groupId}/logCollectionJobs/${job.id}/download` }
      : {}),
    expirationDate: recordTime(Date.parse(job.expirationDate)),
    groupId: job.groupId,
    id: job.id,
    // The time window as the create took it, in ms since the epoch (the Go client reads both as int64).
    ...(job.logCollectionFromDate === undefined ? {} : { logCollectionFromDate: job.logCollectionFromDate }),
    ...(job.logCollectionToDate === undefined ? {} : { logCollectionToDate: job.logCollectionToDate }),
    logTypes: [...job.logTypes],
    redacted: job.redacted,
    resourceName: job.resourceName,
    resourceType: job.resourceType.toLowerCase(),
    rootResourceName: job.resourceName,
    rootResourceType: job.resourceType.toLowerCase(),
    sizeRequestedPerFileBytes: job.sizeRequestedPerFileBytes,
    status: job.status,
    uncompressedSizeTotalBytes: children.reduce(
      (sum, c) => sum + (c.uncompressedDiskSpaceBytes as number),
      0,
    ),
    userId: job.userId,
  };
}

/**
 * `GET …/logCollectionJobs`: one page of the project's jobs; `pending=true` lists only the jobs still
 * running (`IN_PROGRESS`), and the page's links keep it.
 */
function listJobs(req: ApiRequest, state: SimState, groupId: string): ApiResult {
  const page = pagination(req.query);
  if ("status" in page) return page;
  const { pageNum, itemsPerPage } = page;
  const pending = req.query.pending?.toLowerCase() === "true";
  const all = state.jobStore.jobs(groupId).filter((j) => !pending || j.status === "IN_PROGRESS");
  const start = (pageNum - 1) * itemsPerPage;
  const verbose = req.query.verbose?.toLowerCase() === "true";
  const results = all.slice(start, start + itemsPerPage).map((j) => jobView(req.origin, j, verbose));
  const base = `${req.origin}${API_ROOT}/groups/${groupId}/logCollectionJobs`;
  const filter = req.query.pending === undefined ? "" : `&pending=${encodeURIComponent(req.query.pending)}`;
  const href = (n: number) => `${base}?pageNum=${n}&itemsPerPage=${itemsPerPage}${filter}`;
  const links: { href: string; rel: string }[] = [{ href: href(pageNum), rel: "self" }];
  if (pageNum > 1 && all.length > 0) {
    links.push({ href: href(Math.min(pageNum - 1, Math.ceil(all.length / itemsPerPage))), rel: "previous" });
  }
  if (start + itemsPerPage < all.length) links.push({ href: href(pageNum + 1), rel: "next" });
  return { status: 200, list: true, body: { links, results, totalCount: all.length } };
}

/** ISO 8601 with a date, a time and a zone, as the documentation's examples write `expirationDate`. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * `PATCH …/{JOB-ID}` with `{"expirationDate": …}`: the date must be in the future, at most six months
 * after the job's creation, and the job not expired (documentation, "Extend a Log Collection Job"; the
 * error table's codes). Answered without a body.
 */
function extendJob(req: ApiRequest, state: SimState, job: SimLogCollectionJob): ApiResult {
  const parsed = parseJsonBody(req);
  if ("status" in parsed) return parsed;
  const body = parsed.value;
  if (!isPlainObject(body)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  for (const name of Object.keys(body)) {
    if (name !== "expirationDate") return invalidAttribute(name, "not an attribute of a job extension");
  }
  const { expirationDate } = body;
  if (expirationDate === undefined) {
    return fail(400, "MISSING_ATTRIBUTE", "The required attribute expirationDate was not specified.", [
      "expirationDate",
    ]);
  }
  const ms =
    typeof expirationDate === "string" && ISO_8601.test(expirationDate) ? Date.parse(expirationDate) : NaN;
  if (Number.isNaN(ms)) {
    return fail(
      400,
      "INVALID_JSON_ATTRIBUTE",
      "Received JSON for the expirationDate attribute does not match expected format.",
      ["expirationDate"],
    );
  }
  if (job.status === "EXPIRED") {
    return fail(
      403,
      "CANNOT_EXTEND_EXPIRED_JOB",
      "Cannot extend duration of logs that have already expired.",
    );
  }
  if (ms <= Date.now()) {
    return fail(
      400,
      "EXPIRATION_DATE_MUST_BE_IN_FUTURE",
      "Expiration date for log collection request job must be in the future.",
    );
  }
  const latest = new Date(job.createdAt);
  latest.setUTCMonth(latest.getUTCMonth() + MAX_EXTENSION_MONTHS);
  if (ms > latest.getTime()) {
    return fail(
      400,
      "EXPIRATION_DATE_TOO_DISTANT",
      "Expiration date for log collection request job can only be as far as 6 months in the future.",
    );
  }
  state.jobStore.updateJob(job.id, { expirationDate: new Date(ms).toISOString() });
  return { status: 200, body: undefined };
}

/** `PUT …/{JOB-ID}/retry`: a failed job runs again (the error table: only a failed job restarts). */
function retryJob(state: SimState, job: SimLogCollectionJob): ApiResult {
  if (job.status !== "FAILURE") {
    return fail(
      400,
      "ONLY_FAILED_JOB_CAN_BE_RESTARTED",
      "A log collection request job can only be restarted if it is in the FAILED state.",
    );
  }
  state.jobStore.updateJob(job.id, { status: "IN_PROGRESS", outcome: "SUCCESS" });
  return { status: 200, body: undefined };
}

/** `GET …/{JOB-ID}/download`: the archive, a gzip file; refused while in progress and once expired. */
function downloadJob(job: SimLogCollectionJob): ApiResult {
  if (job.status === "IN_PROGRESS") {
    return fail(
      403,
      "CANNOT_DOWNLOAD_JOB_IN_PROGRESS",
      "Cannot download a log collection request job in the IN_PROGRESS state.",
    );
  }
  if (job.status === "EXPIRED") {
    return fail(
      403,
      "CANNOT_DOWNLOAD_EXPIRED_JOB",
      "Cannot download a log collection request job in the EXPIRED state.",
    );
  }
  const listing = job.logTypes
    .map((t) => `${job.resourceName}.example.com/${t.toLowerCase()}.log\n`)
    .join("");
  return { status: 200, body: undefined, raw: { contentType: "application/gzip", body: gzipSync(listing) } };
}
