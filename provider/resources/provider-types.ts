/**
 * The inputs and outputs of both resources as their providers receive and return them, as plain types:
 * the public declarations name these, never the zod schemas that check them (see `api/types.ts`).
 */
import type { LogCollectionJobRequest, OrgRole } from "../api/types";

/** A project role of a key: read only, this resource does not change project roles. */
export interface ProjectRole {
  groupId: string;
  roleName: string;
}

/** OrgApiKey's inputs as the provider receives them (resolved, plain JSON). */
export interface OrgApiKeyProviderInputs {
  orgId: string;
  apiKeyId?: string;
  publicKey?: string;
  desc?: string;
  roles?: OrgRole[];
  restoreOnDelete?: boolean;
}

/** OrgApiKey's outputs as stored in state. */
export interface OrgApiKeyProviderOutputs {
  orgId: string;
  apiKeyId: string;
  publicKey: string;
  desc: string;
  roles: string[];
  privateKey: string;
  projectRoles: ProjectRole[];
  restoreOnDelete: boolean;
  /** The key's desc and organization roles when it was adopted: what `restoreOnDelete` puts back. */
  adopted: { desc: string; roles: string[] };
  /** Which inputs this resource manages, and how it named the key. */
  managed: { desc: boolean; roles: boolean; by: "apiKeyId" | "publicKey" };
}

/** LogCollectionJob's inputs as the provider receives them: the POST's fields, the project, the expiration. */
export interface LogCollectionJobProviderInputs extends LogCollectionJobRequest {
  groupId: string;
  /**
   * When the job and its archive are deleted: an ISO 8601 time with a zone, in whole seconds. When
   * given, the job is extended (or cut short) to it in place; when not, the server's default stands.
   */
  expirationDate?: string;
}

/**
 * LogCollectionJob's outputs: the job's id, every input as declared, and the job as the server showed
 * it at the last refresh (`""`, or 0, where the server has not said: before the first refresh, or on a
 * server without a read of jobs).
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
