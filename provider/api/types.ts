/**
 * The API's value sets and response shapes as plain types, which public declarations take instead of
 * zod's: those need `esModuleInterop`, which a `pulumi new typescript` program does not set.
 * `schemas.ts` checks each schema against its type here.
 */

/** Organization role names an organization API key can hold (spec: "Organization role values"). */
export const ORG_ROLES = ["ORG_OWNER", "ORG_MEMBER", "ORG_GROUP_CREATOR", "ORG_READ_ONLY"] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** Project (group) role names, which appear on keys with project access. */
export const GROUP_ROLES = [
  "GROUP_OWNER",
  "GROUP_READ_ONLY",
  "GROUP_DATA_ACCESS_ADMIN",
  "GROUP_DATA_ACCESS_READ_WRITE",
  "GROUP_DATA_ACCESS_READ_ONLY",
  "GROUP_AUTOMATION_ADMIN",
  "GROUP_BACKUP_ADMIN",
  "GROUP_MONITORING_ADMIN",
  "GROUP_USER_ADMIN",
] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

/** Kinds of resource a log collection job collects from. */
export const RESOURCE_TYPES = ["CLUSTER", "PROCESS", "REPLICASET"] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** Types of log a job collects; the database log may be named `MONGODB` or `DATABASE` (./database-log). */
export const LOG_TYPES = [
  "AUTOMATION_AGENT",
  "BACKUP_AGENT",
  "MONITORING_AGENT",
  "MONGODB",
  "DATABASE",
  "FTDC",
] as const;
export type LogType = (typeof LOG_TYPES)[number];

/** A role of an API key: an organization role (with `orgId`) or a project role (with `groupId`). */
export interface Role {
  orgId?: string;
  groupId?: string;
  roleName: string;
}

/** An organization API key as the server returns it; `privateKey` is redacted by the server. */
export interface ApiKey {
  id: string;
  desc?: string;
  privateKey?: string;
  publicKey: string;
  roles: Role[];
}

/** The body of a log collection job's POST. */
export interface LogCollectionJobRequest {
  resourceType: ResourceType;
  resourceName: string;
  sizeRequestedPerFileBytes: number;
  logTypes: LogType[];
  redacted: boolean;
  /** Collect logs from this time on, in ms since the epoch. */
  logCollectionFromDate?: number;
  /** Collect logs up to this time, in ms since the epoch. */
  logCollectionToDate?: number;
}

/** What the server answers a log collection job's POST with (what the provider reads of it). */
export interface LogCollectionJobResponse {
  id: string;
}

/** Where a log collection job is in its life, as its record's `status` documents it. */
export const JOB_STATUSES = ["IN_PROGRESS", "SUCCESS", "FAILURE", "MARKED_FOR_EXPIRY", "EXPIRED"] as const;
export type LogCollectionJobStatus = (typeof JOB_STATUSES)[number];

/**
 * A log collection job as the list and get-one endpoints return it, the part the provider reads.
 * `status` is any string, not only one of {@link JOB_STATUSES}: a newer server may add one, and refusing
 * its answer would make every job of the project unreadable. A field without a value yet may be `null`.
 */
export interface LogCollectionJobRecord {
  id: string;
  status: string;
  /** ISO 8601, e.g. `2019-03-07T12:21:24Z`. */
  creationDate?: string | null;
  /** ISO 8601: when the job and its archive are deleted. */
  expirationDate?: string | null;
  /** Where the archive is downloaded from, once there is one. */
  downloadUrl?: string | null;
  userId?: string | null;
  rootResourceName?: string | null;
  /** In lower case, as deployed servers echo resource types (`replicaset`). */
  rootResourceType?: string | null;
  uncompressedSizeTotalBytes?: number | null;
  /** What the job was created with, as the record echoes it (`resourceType` in lower case). */
  resourceType?: string | null;
  resourceName?: string | null;
  sizeRequestedPerFileBytes?: number | null;
  logTypes?: string[] | null;
  redacted?: boolean | null;
}
