import { type RequestError, ResponseShapeError } from "../client/errors";
import type { JsonResponse } from "../client/types";
import { explainAuthorization } from "./authorization-error";
import { type DatabaseLogMemory, logTypeKey, sendNamingDatabaseLog } from "./database-log";
import { idSegment, quoteValue } from "./ids";
import { InputError } from "./input-error";
import { explainJobError } from "./log-collection-job-answers";
import { jobsPath } from "./log-collection-job-listing";
import { MalformedCreateAnswerError } from "./malformed-create-answer-error";
import { explainNotFound } from "./not-found";
import { mayHaveActed } from "./operation";
import { issuePath, parseResponse } from "./parse";
import { sendRequest } from "./request";
import {
  type LogCollectionJobRequest,
  logCollectionJobRequestSchema,
  logCollectionJobResponseSchema,
} from "./schemas";
import { parseTimestamp, wireTimestamp } from "./timestamps";
import type { Transport } from "./transport";
import { UncertainCreateError } from "./uncertain-create-error";

/**
 * `POST /groups/{GROUP-ID}/logCollectionJobs`: start a job that downloads the logs of a deployment, its
 * body checked against the spec's rules first. When the server may have acted but the answer cannot be
 * read (a 2xx without an id, say), the error is an `UncertainCreateError`; a malformed id comes as a
 * `MalformedCreateAnswerError` carrying it, so that the job is still recorded. `databaseLog` is what
 * the server showed of the database log's name (see `sendNamingDatabaseLog`); default: nothing yet.
 *
 * @returns the id of the new job (24 hex digits).
 */
export async function createLogCollectionJob(
  transport: Transport,
  groupId: string,
  request: LogCollectionJobRequest,
  databaseLog: DatabaseLogMemory = {},
): Promise<{ id: string }> {
  const path = jobsPath(groupId);
  const parsed = logCollectionJobRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError(issuePath(issue.path) || "request", issue.message);
  }
  // MONGODB and DATABASE name one log: both in one list repeat it.
  if (new Set(parsed.data.logTypes.map(logTypeKey)).size !== parsed.data.logTypes.length) {
    throw new InputError(
      "logTypes",
      "must not repeat a log type",
      quoteValue(parsed.data.logTypes.join(",")),
    );
  }
  // Field order as the spec lists it, and nothing else: the server rejects unknown attributes. The
  // time window goes only when given: a server that follows the spec alone would refuse it.
  const { resourceType, resourceName, sizeRequestedPerFileBytes, logTypes, redacted } = parsed.data;
  const { logCollectionFromDate: from, logCollectionToDate: to } = parsed.data;
  const body = {
    resourceType,
    resourceName,
    sizeRequestedPerFileBytes,
    logTypes,
    redacted,
    ...(from === undefined ? {} : { logCollectionFromDate: from }),
    ...(to === undefined ? {} : { logCollectionToDate: to }),
  };
  const uncertain = (cause: RequestError) =>
    new UncertainCreateError(
      "log collection job",
      `check the project's log collection jobs in Ops Manager (project ${groupId})`,
      cause,
    );
  let response: JsonResponse;
  try {
    response = await sendNamingDatabaseLog(databaseLog, logTypes, (named) =>
      // A job carries nothing that tells it from another: a POST cut in flight would leave a job no one
      // can find, so an abort waits for its answer.
      sendRequest(transport, { method: "POST", path, body: { ...body, logTypes: named }, cutOnAbort: false }),
    );
  } catch (error) {
    if (mayHaveActed(error)) throw uncertain(error);
    throw explainAuthorization(explainNotFound(error, { groupId }), {
      kind: "createLogCollectionJob",
      groupId,
    });
  }
  const id = (response.body as { id?: unknown } | undefined)?.id;
  try {
    return { id: parseResponse(logCollectionJobResponseSchema, response, "POST", path).id };
  } catch (error) {
    // The job exists even though its id looks wrong: hand the id on so that it is still recorded.
    if (typeof id === "string" && id.length > 0 && error instanceof ResponseShapeError) {
      throw new MalformedCreateAnswerError(error, id);
    }
    // A 2xx without an id: the job was made, but there is nothing to record it by.
    throw uncertain(error as ResponseShapeError);
  }
}

/** The path of one job: `/groups/{GROUP-ID}/logCollectionJobs/{JOB-ID}`, its ids checked first. */
function jobPath(groupId: string, jobId: string): string {
  // Any path-safe id, not only 24 hex digits: a job recorded from an odd answer can still be deleted.
  return `${jobsPath(groupId)}/${idSegment("jobId", jobId)}`;
}

/**
 * `PATCH /groups/{GROUP-ID}/logCollectionJobs/{JOB-ID}` with `{"expirationDate": …}`, answered without
 * a body (documentation, "Extend a Log Collection Job"), the date as the server writes dates: UTC, whole
 * seconds. The server's limits come back as its own error codes. Not in the spec (`isMissingOperation`).
 */
export async function extendLogCollectionJob(
  transport: Transport,
  groupId: string,
  jobId: string,
  expirationDate: string,
): Promise<void> {
  const path = jobPath(groupId, jobId);
  const parsed = parseTimestamp(expirationDate);
  if ("rule" in parsed) throw new InputError("expirationDate", parsed.rule, quoteValue(expirationDate));
  await sendRequest(
    transport,
    {
      method: "PATCH",
      path,
      body: { expirationDate: wireTimestamp(parsed.ms) },
      // It sets the date to the value sent: sending it twice is sending it once.
      idempotent: true,
    },
    (error) => explainJobError(error, "extendLogCollectionJob", { groupId, jobId }),
  );
}

/**
 * `DELETE /groups/{GROUP-ID}/logCollectionJobs/{JOB-ID}`: the job and its archive, finished or not. Not
 * in the spec (see `isMissingOperation`); for a job already gone, see `isJobGone`.
 */
export async function deleteLogCollectionJob(
  transport: Transport,
  groupId: string,
  jobId: string,
): Promise<void> {
  const path = jobPath(groupId, jobId);
  await sendRequest(transport, { method: "DELETE", path }, (error) =>
    explainJobError(error, "deleteLogCollectionJob", { groupId, jobId }),
  );
}
