/**
 * The two servers the simulator can play: the API reference as written (`spec`), and the Ops Manager
 * that users run (`deployed`), where it differs from that reference. Sources of each difference:
 * NOTES.md ("The deployed server, where it differs from the spec"), the Ops Manager API documentation
 * (log collection jobs, organization API keys, the error-code table) and MongoDB's Go client
 * (`opsmngr/logs.go` and `opsmngr/logs_test.go`: `MONGODB` in requests, `replicaset` in job records,
 * the job endpoints beyond the create; `opsmngr/organization_api_keys.go`, `accesslist_api_keys.go`,
 * `project_api_keys.go`: the API key endpoints beyond the list and update).
 */
import type { SimulatorProfile } from "./types";

/** What a profile decides. */
export interface ProfileRules {
  name: SimulatorProfile;
  /** `logTypes` values a log collection job accepts; any other is 400 `INVALID_ENUM_VALUE`. */
  logTypes: readonly string[];
  /** Whether `resourceType` is accepted in any case (and stored as sent). */
  resourceTypeAnyCase: boolean;
  /** Whether a job takes the optional `logCollectionFromDate` / `logCollectionToDate`. */
  timeWindow: boolean;
  /** Status of `API_KEY_NOT_FOUND`. */
  apiKeyNotFoundStatus: 400 | 404;
  /** Whether a caller's roles are checked (a 401 with an `errorCode` when they do not allow the call). */
  checkRoles: boolean;
  /** Whether an expired nonce with right credentials is answered `stale=true`. */
  staleOnExpiry: boolean;
  /** `Retry-After` of a 429 fault that names none; `undefined` sends no header. */
  defaultRetryAfterSeconds: number | undefined;
  /**
   * Whether log collection jobs have the life the Ops Manager documentation gives them (list, get one,
   * extend, retry, delete, download: ./jobs), or only the spec's create.
   */
  jobOperations: boolean;
  /**
   * Whether organization API keys have the life the Ops Manager documentation gives them (create, get
   * one, delete, the access list, project assignment: ./api-key-routes), or only the spec's list and
   * update.
   */
  apiKeyOperations: boolean;
}

export const PROFILES: Readonly<Record<SimulatorProfile, ProfileRules>> = {
  // The spec's operations as written: its log type names, upper-case resource types, five body fields.
  // Its error statuses are "not shown": the simulator keeps the shapes it always answered with.
  spec: {
    name: "spec",
    logTypes: ["AUTOMATION_AGENT", "BACKUP_AGENT", "MONITORING_AGENT", "DATABASE", "FTDC"],
    resourceTypeAnyCase: false,
    timeWindow: false,
    apiKeyNotFoundStatus: 404,
    checkRoles: false,
    staleOnExpiry: true,
    defaultRetryAfterSeconds: 1,
    jobOperations: false,
    apiKeyOperations: false,
  },
  // The documentation names the database log MONGODB and does not say DATABASE is accepted too, so
  // DATABASE is refused here; the error table lists API_KEY_NOT_FOUND as 400 and RATE_LIMITED without
  // Retry-After; deployed servers answer an expired nonce with stale=false (NOTES.md).
  deployed: {
    name: "deployed",
    logTypes: ["AUTOMATION_AGENT", "BACKUP_AGENT", "MONITORING_AGENT", "MONGODB", "FTDC"],
    resourceTypeAnyCase: true,
    timeWindow: true,
    apiKeyNotFoundStatus: 400,
    checkRoles: true,
    staleOnExpiry: false,
    defaultRetryAfterSeconds: undefined,
    jobOperations: true,
    apiKeyOperations: true,
  },
};

/** The rules of `profile` (default `deployed`); throws a `RangeError` for an unknown name. */
export function profileRules(profile: SimulatorProfile | undefined): ProfileRules {
  const name = profile ?? "deployed";
  const rules = (PROFILES as Record<string, ProfileRules | undefined>)[name];
  if (rules === undefined) {
    throw new RangeError(`profile must be "deployed" or "spec", got ${JSON.stringify(name)}`);
  }
  return rules;
}
