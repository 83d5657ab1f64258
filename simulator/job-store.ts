/**
 * The simulator's log collection jobs and their life: a new job is completed with the defaults of a
 * deployed server, and a job moves on (finishes, expires) as time passes, when it is read.
 */
import type { Prng } from "./prng";
import type { NewSimLogCollectionJob, SimJobChange, SimLogCollectionJob } from "./types";

/** How long a log collection job stays `IN_PROGRESS`, unless the simulator's options say otherwise. */
export const DEFAULT_JOB_DURATION_MS = 30_000;
/**
 * How long a job lives before it expires: the job records of MongoDB's Go client's tests
 * (opsmngr/logs_test.go) expire 30 days after their creation.
 */
export const JOB_LIFETIME_MS = 30 * 24 * 3600_000;

function copyJob(job: SimLogCollectionJob): SimLogCollectionJob {
  return { ...job, logTypes: [...job.logTypes] };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The jobs of every group, in creation order, with O(1) lookups by id. */
export class JobStore {
  private readonly jobList: SimLogCollectionJob[] = [];
  private readonly jobIds = new Map<string, SimLogCollectionJob>();
  /** How long a job stays `IN_PROGRESS` (the simulator's `jobDurationMs`). */
  jobDurationMs = DEFAULT_JOB_DURATION_MS;

  /**
   * @param prng The state's generator, shared with the keys, so ids follow from the seed.
   * @param adminKeyId The creator of a job that names none.
   * @param changed Called after every change, for the state file.
   */
  constructor(
    private readonly prng: Prng,
    private readonly adminKeyId: string,
    private readonly changed: () => void,
  ) {}

  /** Stores a new log collection job, with a fresh id unless it names one; the rest as {@link completeJob}. */
  addJob(job: NewSimLogCollectionJob): SimLogCollectionJob {
    if (job.id !== undefined && this.jobIds.has(job.id)) {
      throw new Error(`a log collection job with id ${job.id} already exists`);
    }
    const stored = this.completeJob(job);
    this.insertJob(stored);
    this.changed();
    return copyJob(stored);
  }

  /**
   * A whole job from `job`: a fresh id, created now by the admin key, `IN_PROGRESS` for
   * {@link jobDurationMs}, then `SUCCESS`, expiring {@link JOB_LIFETIME_MS} after creation, unless
   * `job` says otherwise.
   */
  completeJob(job: NewSimLogCollectionJob): SimLogCollectionJob {
    let id = job.id;
    if (id === undefined) {
      do id = this.prng.hex(24);
      while (this.jobIds.has(id));
    }
    const createdAt = job.createdAt ?? iso(Date.now());
    const created = Date.parse(createdAt);
    return {
      ...job,
      id,
      logTypes: [...job.logTypes],
      createdAt,
      userId: job.userId ?? this.adminKeyId,
      expirationDate: job.expirationDate ?? iso(created + JOB_LIFETIME_MS),
      status: job.status ?? "IN_PROGRESS",
      finishDate: job.finishDate ?? iso(created + this.jobDurationMs),
      outcome: job.outcome ?? "SUCCESS",
    };
  }

  /** Copies of the log collection jobs of one group (default all), in creation order, as of now. */
  jobs(groupId?: string): SimLogCollectionJob[] {
    return this.jobList
      .filter((j) => groupId === undefined || j.groupId === groupId)
      .map((j) => copyJob(this.advance(j)));
  }

  /** A copy of one job as of now. */
  job(id: string): SimLogCollectionJob | undefined {
    const job = this.jobIds.get(id);
    return job === undefined ? undefined : copyJob(this.advance(job));
  }

  /** Changes a job; throws for an unknown id. A job put back `IN_PROGRESS` finishes anew. */
  updateJob(id: string, change: SimJobChange): SimLogCollectionJob {
    const job = this.jobIds.get(id);
    if (!job) throw new Error(`no log collection job with id ${id}`);
    if (change.status === "IN_PROGRESS" && change.finishDate === undefined) {
      job.finishDate = iso(Date.now() + this.jobDurationMs);
    }
    Object.assign(job, change);
    this.changed();
    return copyJob(this.advance(job));
  }

  /** Removes a job; an unknown id is ignored. */
  removeJob(id: string): void {
    const job = this.jobIds.get(id);
    if (!job) return;
    this.jobIds.delete(id);
    this.jobList.splice(this.jobList.indexOf(job), 1);
    this.changed();
  }

  /** Moves a job on as time has passed: a running job finishes, a job past its expiration expires. */
  private advance(job: SimLogCollectionJob): SimLogCollectionJob {
    const now = Date.now();
    let moved = false;
    if (job.status === "IN_PROGRESS" && now >= Date.parse(job.finishDate)) {
      job.status = job.outcome;
      moved = true;
    }
    if (job.status !== "EXPIRED" && now >= Date.parse(job.expirationDate)) {
      job.status = "EXPIRED";
      moved = true;
    }
    if (moved) this.changed();
    return job;
  }

  /** Stores `job` as it is (a job read from the state file). */
  insertJob(job: SimLogCollectionJob): void {
    this.jobList.push(job);
    this.jobIds.set(job.id, job);
  }

  /** The stored jobs as they are, for the state file. */
  records(): SimLogCollectionJob[] {
    return this.jobList;
  }
}
