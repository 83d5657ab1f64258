import { z } from "zod";
import {
  type ApiKey,
  LOG_TYPES,
  type LogCollectionJobRecord,
  type LogCollectionJobRequest,
  type LogCollectionJobResponse,
  RESOURCE_TYPES,
  type Role,
} from "./types";

export type {
  ApiKey,
  GroupRole,
  LogCollectionJobRecord,
  LogCollectionJobRequest,
  LogCollectionJobResponse,
  LogType,
  OrgRole,
  ResourceType,
  Role,
} from "./types";
export { GROUP_ROLES, JOB_STATUSES, LOG_TYPES, ORG_ROLES, RESOURCE_TYPES } from "./types";

/** The latest time a JavaScript `Date` holds, in ms since the epoch (ECMA-262, Time Values). */
export const MAX_DATE_MS = 8.64e15;

/** Largest `itemsPerPage` the server accepts (spec, Limits). */
export const MAX_ITEMS_PER_PAGE = 500;

// Response schemas accept role names they do not know: a newer server may add roles, and refusing
// its answer would make every key of the org unmanageable.
export const roleSchema = z
  .object({
    orgId: z.string().optional(),
    groupId: z.string().optional(),
    roleName: z.string(),
  })
  .refine((r) => (r.orgId === undefined) !== (r.groupId === undefined), {
    message: "a role carries exactly one of orgId and groupId",
  });

// Ops Manager shows this many characters of a private key (`********-****-****-c4e26334754f`).
const VISIBLE_MAX = 12;

/**
 * `privateKey` as the spec promises it: asterisks and at most a 12-character trailing fragment. Should
 * a server send more (the key in full, or with an asterisk in front), it is masked here, at the wire,
 * so that no secret reaches state, a program or a log.
 */
export function maskPrivateKey(privateKey: string): string {
  const visible = privateKey.replace(/[*-]/g, "").length;
  if (privateKey.includes("*") && visible <= VISIBLE_MAX) return privateKey;
  return privateKey.replace(/[^*-](?=[\s\S]{4})/g, "*");
}

// The schemas hold what the provider reads; the rest (`links`, say) is dropped unread: a field never
// read cannot make a key unmanageable, nor slow a large organization's listing.
export const apiKeySchema = z.object({
  id: z.string().min(1),
  desc: z.string().optional(),
  privateKey: z.string().transform(maskPrivateKey).optional(),
  publicKey: z.string().min(1),
  roles: z.array(roleSchema).default([]),
});

/** A page of any listing, its envelope alone: its records are checked one by one when used. */
export const listingPageSchema = z.object({
  results: z.array(z.unknown()),
  totalCount: z.number().int().nonnegative(),
});

export const logCollectionJobRequestSchema = z.object({
  resourceType: z.enum(RESOURCE_TYPES),
  resourceName: z.string().min(1),
  sizeRequestedPerFileBytes: z.number().int().positive(),
  logTypes: z.array(z.enum(LOG_TYPES)).min(1),
  redacted: z.boolean(),
  // Deployed servers take an optional time window, in ms since the epoch (docs/servers.md).
  logCollectionFromDate: z.number().int().positive().max(MAX_DATE_MS).optional(),
  logCollectionToDate: z.number().int().positive().max(MAX_DATE_MS).optional(),
});

export const logCollectionJobResponseSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{24}$/i, "a 24-hexadecimal-digit id"),
});

const optionalText = z.string().nullish();

// The rest of a job record (the create's fields echoed, `childJobs`, links) is dropped unread, as for keys.
export const logCollectionJobRecordSchema = z.object({
  id: z.string().min(1),
  status: z.string().min(1),
  creationDate: optionalText,
  expirationDate: optionalText,
  downloadUrl: optionalText,
  userId: optionalText,
  rootResourceName: optionalText,
  rootResourceType: optionalText,
  uncompressedSizeTotalBytes: z.number().nonnegative().nullish(),
  resourceType: optionalText,
  resourceName: optionalText,
  sizeRequestedPerFileBytes: z.number().nullish(),
  logTypes: z.array(z.string()).nullish(),
  redacted: z.boolean().nullish(),
});

// The types in types.ts are written by hand (see there why); the build stops when a schema and its type
// part ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
export type SchemasMatchTypes = [
  Holds<Same<z.infer<typeof roleSchema>, Role>>,
  Holds<Same<z.infer<typeof apiKeySchema>, ApiKey>>,
  Holds<Same<z.infer<typeof logCollectionJobRequestSchema>, LogCollectionJobRequest>>,
  Holds<Same<z.infer<typeof logCollectionJobResponseSchema>, LogCollectionJobResponse>>,
  Holds<Same<z.infer<typeof logCollectionJobRecordSchema>, LogCollectionJobRecord>>,
];
