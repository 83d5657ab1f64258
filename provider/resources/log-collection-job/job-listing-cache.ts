/**
 * One listing of each project's log collection jobs per deployment, shared by every LogCollectionJob
 * of that project, as ./org-key-cache shares an organization's key listing: refreshing 30 jobs of one
 * project costs one listing, not 30 reads. A job is gone only when two listings whose pages agreed both
 * lack it, the second started after the call. A server that has no listing of jobs at all (it follows
 * the spec, which shows only the create) is remembered per client, so that it is asked once.
 */
import { isMissingOperation, type JobOperationKind } from "../../api/log-collection-job-answers";
import { type ListedJob, listLogCollectionJobsByPage } from "../../api/log-collection-job-listing";
import type { LogCollectionJobRecord } from "../../api/schemas";
import type { Transport } from "../../api/transport";
import type { ApiError } from "../../client/errors";
import { mayServe } from "../org-api-key/org-key-cache";

/** What a refresh learns of a job: its record, that it is gone, or that the server cannot say. */
export type JobLookup = { found: LogCollectionJobRecord } | { gone: true } | { unsupported: ApiError };

/** One listing of a project's jobs, filled page by page. */
class JobListing {
  /** Every job any page of any read listed: a job on any page was really there. */
  private readonly seen = new Map<string, ListedJob>();
  readonly done: Promise<void>;

  constructor(
    transport: Transport,
    groupId: string,
    /** Its tick of {@link clock}: later than every call before it, earlier than every call after. */
    readonly startSeq: number,
    readonly startedAt: number,
  ) {
    this.done = listLogCollectionJobsByPage(transport, groupId, (jobs) => {
      for (const job of jobs) this.seen.set(job.id, job);
    });
  }

  /**
   * The job's record; `undefined` once a read whose pages agree is in without it. A listing that never
   * agreed still answers for a job one of its pages held, and fails for the others.
   */
  async find(id: string): Promise<LogCollectionJobRecord | undefined> {
    try {
      await this.done;
    } catch (error) {
      const listed = this.seen.get(id);
      if (listed !== undefined) return listed.record();
      throw error;
    }
    return this.seen.get(id)?.record();
  }
}

// Keyed by client (clients are shared and live as long as the process), then by project.
const listings = new Map<Transport, Map<string, JobListing>>();
// The answers that showed a client's server lacks an operation of jobs, by operation: each is judged
// on its own answer, never on another operation's.
const missing = new WeakMap<Transport, Map<JobOperationKind, ApiError>>();
let clock = 0;

function listing(transport: Transport, groupId: string, after?: number): JobListing {
  let map = listings.get(transport);
  if (map === undefined) {
    map = new Map();
    listings.set(transport, map);
  }
  const existing = map.get(groupId);
  if (existing !== undefined && mayServe(existing, after)) return existing;
  const entry = new JobListing(transport, groupId, ++clock, Date.now());
  const projects = map;
  projects.set(groupId, entry);
  // A failed listing is not kept: the next caller tries again (a server without the operation is
  // remembered apart, so it is not asked again).
  entry.done.catch(() => {
    if (projects.get(groupId) === entry) projects.delete(groupId);
  });
  return entry;
}

/**
 * Find job `jobId` of project `groupId` in the project's shared listing. A job missing from it is
 * looked for once more in a listing that started after both this call and that listing (shared by all
 * such callers): it is gone only when two listings whose pages agreed both lack it, as a key is.
 */
export async function findJob(transport: Transport, groupId: string, jobId: string): Promise<JobLookup> {
  const known = missingOperationOf(transport, "listLogCollectionJobs");
  if (known !== undefined) return { unsupported: known };
  const call = ++clock;
  try {
    const first = listing(transport, groupId);
    const found =
      (await first.find(jobId)) ??
      (await listing(transport, groupId, Math.max(call, first.startSeq)).find(jobId));
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
  let known = missing.get(transport);
  if (known === undefined) {
    known = new Map();
    missing.set(transport, known);
  }
  if (!known.has(operation)) known.set(operation, evidence);
}

/** The answer that showed this client's server lacks `operation`, if one did. */
export function missingOperationOf(transport: Transport, operation: JobOperationKind): ApiError | undefined {
  return missing.get(transport)?.get(operation);
}
