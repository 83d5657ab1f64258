/**
 * LogCollectionJob's inputs and outputs as its provider receives and returns them, as plain types: the
 * public declarations name these, never the zod schemas that check them (see `api/types.ts`).
 */
import type { LogCollectionJobRequest } from "../../api/types";

/** LogCollectionJob's inputs as the provider receives them: the POST's fields, the project, the expiration. */
export interface LogCollectionJobProviderInputs extends LogCollectionJobRequest {
  groupId: string;
  /**
   * When the job and its archive are deleted: an ISO 8601 time with a zone, in whole seconds. When
   * given, the job is extended (or cut short) to it in place; when not, the server's default stands.
   */
  expirationDate?: string;
  /** The named server (`opsmanager:servers.<name>`) the job is on; absent: the default server. */
  server?: string;
}

/**
 * LogCollectionJob's outputs: the job's id, every input as declared, and the job as the server showed
 * it at the last refresh (`""`, or 0, where the server has not said: before the first refresh, since a
 * create reads nothing back, or on a server without a read of jobs).
 */
export interface LogCollectionJobProviderOutputs extends LogCollectionJobProviderInputs {
  jobId: string;
  /** `IN_PROGRESS`, `SUCCESS`, `FAILURE`, `MARKED_FOR_EXPIRY` or `EXPIRED` (or a newer server's). */
  status: string;
  /** ISO 8601. */
  creationDate: string;
  /** The server's, ISO 8601; the declared one once an update has set it. */
  expirationDate: string;
  /** Where the archive is downloaded from (with the provider's credentials), once there is one. */
  downloadUrl: string;
  /** The id of the user or API key that created the job. */
  userId: string;
  rootResourceName: string;
  /** In lower case, as the server echoes resource types (`replicaset`). */
  rootResourceType: string;
  uncompressedSizeTotalBytes: number;
  /** Whether the program declares `expirationDate` (so that refresh can show its drift). */
  managed: { expirationDate: boolean };
}
