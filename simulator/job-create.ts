/**
 * The spec's create of a log collection job (`POST /groups/{GROUP-ID}/logCollectionJobs`), as the
 * profile's server checks its body; the rest of a job's life is in ./jobs.
 */
import {
  type ApiRequest,
  type ApiResult,
  fail,
  invalidAttribute,
  isPlainObject,
  parseJsonBody,
  unauthorized,
} from "./answers";
import type { ProfileRules } from "./profiles";
import type { SimState } from "./state";

/** Accepted `resourceType` values of a log collection job (in any case in the `deployed` profile). */
export const RESOURCE_TYPES = ["CLUSTER", "PROCESS", "REPLICASET"] as const;

const JOB_FIELDS = ["resourceType", "resourceName", "sizeRequestedPerFileBytes", "logTypes", "redacted"];
const TIME_WINDOW = ["logCollectionFromDate", "logCollectionToDate"] as const;

function enumValue(value: string, attribute: string): ApiResult {
  return fail(400, "INVALID_ENUM_VALUE", `An invalid enumeration value ${value} was specified.`, [
    value,
    attribute,
  ]);
}

/** The time window's dates, or the error a bad one gets. */
function timeWindow(body: Record<string, unknown>): { from?: number; to?: number } | ApiResult {
  for (const name of TIME_WINDOW) {
    const value = body[name];
    if (value !== undefined && (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0)) {
      return invalidAttribute(name, "must be a whole number of milliseconds since the epoch");
    }
  }
  const from = body.logCollectionFromDate as number | undefined;
  const to = body.logCollectionToDate as number | undefined;
  if (from !== undefined && to !== undefined && from > to) {
    return invalidAttribute("logCollectionFromDate", "must not be after logCollectionToDate");
  }
  return { from, to };
}

/** Checks the body, then records the job and answers 201 with its id. */
export function createLogCollectionJob(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  groupId: string,
): ApiResult {
  if (!/^[0-9a-fA-F]{24}$/.test(groupId)) {
    return fail(400, "INVALID_GROUP_ID", `An invalid group ID ${groupId} was specified.`, [groupId]);
  }
  const parsed = parseJsonBody(req);
  if ("status" in parsed) return parsed;
  const body = parsed.value;
  if (!isPlainObject(body)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  if (!state.hasGroup(groupId)) {
    return fail(404, "GROUP_NOT_FOUND", `No group with ID ${groupId} exists.`, [groupId]);
  }
  const refused = unauthorized(req, state, rules, { kind: "logCollectionJobs", groupId });
  if (refused) return refused;
  const optional: readonly string[] = rules.timeWindow ? TIME_WINDOW : [];
  for (const name of Object.keys(body)) {
    if (!JOB_FIELDS.includes(name) && !optional.includes(name)) {
      return invalidAttribute(name, "not an attribute of a log collection job");
    }
  }
  for (const name of JOB_FIELDS) {
    if (body[name] === undefined) {
      return fail(400, "MISSING_ATTRIBUTE", `The required attribute ${name} was not specified.`, [name]);
    }
  }
  const { resourceType, resourceName, sizeRequestedPerFileBytes, logTypes, redacted } = body;
  if (typeof resourceType !== "string") return invalidAttribute("resourceType", "must be a string");
  // mongocli sends the resource type in lower case, and job records echo it so (NOTES.md).
  const typeAsKnown = rules.resourceTypeAnyCase ? resourceType.toUpperCase() : resourceType;
  if (!(RESOURCE_TYPES as readonly string[]).includes(typeAsKnown)) {
    return enumValue(resourceType, "resourceType");
  }
  if (typeof resourceName !== "string" || resourceName.length === 0) {
    return invalidAttribute("resourceName", "must be a non-empty string");
  }
  if (typeof sizeRequestedPerFileBytes !== "number" || !Number.isSafeInteger(sizeRequestedPerFileBytes)) {
    return invalidAttribute("sizeRequestedPerFileBytes", "must be a positive integer");
  }
  if (sizeRequestedPerFileBytes <= 0)
    return invalidAttribute("sizeRequestedPerFileBytes", "must be a positive integer");
  if (!Array.isArray(logTypes) || logTypes.length === 0) {
    return invalidAttribute("logTypes", "must be a non-empty array of log types");
  }
  for (const logType of logTypes) {
    if (typeof logType !== "string") return invalidAttribute("logTypes", "each log type must be a string");
    if (!rules.logTypes.includes(logType)) return enumValue(logType, "logTypes");
  }
  if (typeof redacted !== "boolean") return invalidAttribute("redacted", "must be a boolean");
  const window = timeWindow(body);
  if ("status" in window) return window;
  const job = state.jobStore.addJob({
    userId: state.apiKeyByPublicKey(req.caller)?.id,
    groupId,
    resourceType,
    resourceName,
    sizeRequestedPerFileBytes,
    logTypes: logTypes as string[],
    redacted,
    ...(window.from === undefined ? {} : { logCollectionFromDate: window.from }),
    ...(window.to === undefined ? {} : { logCollectionToDate: window.to }),
  });
  return { status: 201, body: { id: job.id } };
}
