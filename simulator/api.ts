/**
 * The three operations of the spec, as pure functions from a parsed, authenticated request to a status
 * and a JSON body, as the profile's server answers them (./profiles); the rest of a log collection
 * job's life, where the profile has it, in ./jobs. HTTP framing (headers, pretty, envelope, faults)
 * lives in ./server.
 */
import { STATUS_CODES } from "node:http";
import { handleJobRequest } from "./jobs";
import type { ProfileRules } from "./profiles";
import { type Operation, refusal } from "./roles";
import { GROUP_ROLES, ORG_ROLES, type SimState } from "./state";
import type { SimApiKey, SimRole } from "./types";

/** The API root every route lives under. */
export const API_ROOT = "/api/public/v1.0";

/** Largest accepted `itemsPerPage` (spec, Limits). */
export const MAX_ITEMS_PER_PAGE = 500;
/** `itemsPerPage` when none is given (spec, Limits). */
export const DEFAULT_ITEMS_PER_PAGE = 100;

/** Bounds of `desc`; the spec does not show them, so the simulator enforces 1 to 250 characters. */
export const DESC_MAX_LENGTH = 250;

/** Accepted `resourceType` values of a log collection job (in any case in the `deployed` profile). */
export const RESOURCE_TYPES = ["CLUSTER", "PROCESS", "REPLICASET"] as const;

/**
 * A response before HTTP framing. `list` marks list bodies, which are enveloped differently. A `body`
 * of `undefined` is an answer without a body; `raw` is sent as it is (a download).
 */
export interface ApiResult {
  status: number;
  body: unknown;
  list?: boolean;
  headers?: Record<string, string>;
  raw?: { contentType: string; body: Buffer };
}

/** An authenticated request, parsed. */
export interface ApiRequest {
  method: string;
  /** Path below {@link API_ROOT}, still percent-encoded. */
  relPath: string;
  query: Record<string, string>;
  rawBody: string;
  contentType: string | undefined;
  /** `scheme://host[:port]` as the client addressed the server, for absolute links. */
  origin: string;
  /** The digest user name the request was authenticated as (a public key). */
  caller: string;
}

/** An error body in the server's shape. */
export function errorBody(
  status: number,
  errorCode: string | undefined,
  detail: string,
  parameters: unknown[] = [],
): Record<string, unknown> {
  return {
    detail,
    error: status,
    ...(errorCode === undefined ? {} : { errorCode }),
    parameters,
    reason: STATUS_CODES[status] ?? "Unknown",
  };
}

export function fail(
  status: number,
  errorCode: string,
  detail: string,
  parameters: unknown[] = [],
): ApiResult {
  return { status, body: errorBody(status, errorCode, detail, parameters) };
}

/** Default error code for a status, used by injected faults that name none. */
export function defaultErrorCode(status: number): string {
  switch (status) {
    case 400:
      return "INVALID_ATTRIBUTE";
    case 403:
      return "FORBIDDEN";
    case 404:
      return "RESOURCE_NOT_FOUND";
    case 409:
      return "CONFLICT";
    case 429:
      return "RATE_LIMITED";
    case 500:
      return "UNEXPECTED_ERROR";
    case 502:
      return "BAD_GATEWAY";
    case 503:
      return "SERVICE_UNAVAILABLE";
    case 504:
      return "GATEWAY_TIMEOUT";
    default:
      return (STATUS_CODES[status] ?? "ERROR").toUpperCase().replace(/[^A-Z0-9]+/g, "_");
  }
}

const ORG_ROLE_SET: ReadonlySet<string> = new Set(ORG_ROLES);
const GROUP_ROLE_SET: ReadonlySet<string> = new Set(GROUP_ROLES);

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** How the server bends the spec's limits, as some deployed servers do. */
export interface ServerLimits {
  /** The most keys a page serves, whatever `itemsPerPage` asks (silently). Default none. */
  maxItemsPerPage?: number;
}

/** Routes and answers one authenticated request, changing `state` when the operation succeeds. */
export function handleApiRequest(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  limits: ServerLimits = {},
): ApiResult {
  const segments = req.relPath.split("/").slice(1).map(decodeSegment);
  if (segments.some((s) => s === undefined || s === "")) return notFound(req);
  const [a, b, c, d, ...rest] = segments as string[];
  if (rest.length === 0 && a === "orgs" && b !== undefined && c === "apiKeys") {
    if (d === undefined) {
      return req.method === "GET" ? listApiKeys(req, state, rules, b, limits) : methodNotAllowed(req, "GET");
    }
    return req.method === "PATCH" ? patchApiKey(req, state, rules, b, d) : methodNotAllowed(req, "PATCH");
  }
  if (a === "groups" && b !== undefined && c === "logCollectionJobs") {
    if (rest.length === 0 && d === undefined && req.method === "POST") {
      return createLogCollectionJob(req, state, rules, b);
    }
    // A job's life beyond its create, where the profile's server has it (./jobs).
    if (rules.jobOperations) return handleJobRequest(req, state, rules, b, d, rest);
    if (rest.length === 0 && d === undefined) return methodNotAllowed(req, "POST");
  }
  return notFound(req);
}

export function notFound(req: ApiRequest): ApiResult {
  return fail(404, "RESOURCE_NOT_FOUND", `Cannot find resource ${API_ROOT}${req.relPath}.`, [
    `${API_ROOT}${req.relPath}`,
  ]);
}

export function methodNotAllowed(req: ApiRequest, allow: string): ApiResult {
  return {
    ...fail(405, "METHOD_NOT_ALLOWED", `Method ${req.method} is not allowed for this resource.`, [
      req.method,
    ]),
    headers: { Allow: allow },
  };
}

/** Reads `pageNum` / `itemsPerPage`; a failure is an {@link ApiResult}. */
export function pagination(
  query: Record<string, string>,
): { pageNum: number; itemsPerPage: number } | ApiResult {
  const read = (name: string, fallback: number, max: number): number | ApiResult => {
    const text = query[name];
    if (text === undefined) return fallback;
    const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
    if (!(value >= 1 && value <= max)) {
      const range = max === Number.MAX_SAFE_INTEGER ? "a positive integer" : `an integer from 1 to ${max}`;
      return fail(400, "INVALID_QUERY_PARAMETER", `Invalid query parameter ${name}: must be ${range}.`, [
        name,
        text,
      ]);
    }
    return value;
  };
  const pageNum = read("pageNum", 1, Number.MAX_SAFE_INTEGER);
  if (typeof pageNum !== "number") return pageNum;
  const itemsPerPage = read("itemsPerPage", DEFAULT_ITEMS_PER_PAGE, MAX_ITEMS_PER_PAGE);
  if (typeof itemsPerPage !== "number") return itemsPerPage;
  return { pageNum, itemsPerPage };
}

function keyLink(origin: string, key: SimApiKey): string {
  return `${origin}${API_ROOT}/orgs/${encodeURIComponent(key.orgId)}/apiKeys/${encodeURIComponent(key.id)}`;
}

/** A private key as the API shows it: only its last 12 characters. */
export function redactPrivateKey(privateKey: string): string {
  return `********-****-****-${privateKey.slice(-12)}`;
}

/** The API's view of a key: private key redacted, a self link. */
export function apiKeyView(origin: string, key: SimApiKey): Record<string, unknown> {
  return {
    id: key.id,
    desc: key.desc,
    privateKey: redactPrivateKey(key.privateKey),
    publicKey: key.publicKey,
    roles: key.roles.map((r) =>
      r.groupId !== undefined
        ? { groupId: r.groupId, roleName: r.roleName }
        : { orgId: r.orgId, roleName: r.roleName },
    ),
    links: [{ href: keyLink(origin, key), rel: "self" }],
  };
}

function orgNotFound(orgId: string): ApiResult {
  return fail(404, "ORG_NOT_FOUND", `No organization with ID ${orgId} exists.`, [orgId]);
}

/** 401 with an `errorCode` when the profile checks roles and the caller's do not allow `operation`. */
export function unauthorized(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  operation: Operation,
): ApiResult | undefined {
  if (!rules.checkRoles) return undefined;
  const refused = refusal(state, req.caller, operation);
  return refused === undefined ? undefined : fail(401, refused.errorCode, refused.detail);
}

function listApiKeys(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
  limits: ServerLimits,
): ApiResult {
  const page = pagination(req.query);
  if ("status" in page) return page;
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "listApiKeys", orgId });
  if (refused) return refused;
  const { pageNum } = page;
  const itemsPerPage = Math.min(page.itemsPerPage, limits.maxItemsPerPage ?? MAX_ITEMS_PER_PAGE);
  const totalCount = state.countApiKeys(orgId);
  const start = (pageNum - 1) * itemsPerPage;
  const results = state.pageOfApiKeys(orgId, start, itemsPerPage).map((k) => apiKeyView(req.origin, k));
  const base = `${req.origin}${API_ROOT}/orgs/${encodeURIComponent(orgId)}/apiKeys`;
  const pretty = req.query.pretty;
  const href = (n: number) =>
    `${base}?pageNum=${n}&itemsPerPage=${itemsPerPage}${pretty === undefined ? "" : `&pretty=${encodeURIComponent(pretty)}`}`;
  const links: { href: string; rel: string }[] = [{ href: href(pageNum), rel: "self" }];
  if (pageNum > 1 && totalCount > 0) {
    links.push({ href: href(Math.min(pageNum - 1, Math.ceil(totalCount / itemsPerPage))), rel: "previous" });
  }
  if (start + itemsPerPage < totalCount) links.push({ href: href(pageNum + 1), rel: "next" });
  return { status: 200, list: true, body: { links, results, totalCount } };
}

export function parseJsonBody(req: ApiRequest): { value: unknown } | ApiResult {
  const mediaType = req.contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    return fail(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type ${req.contentType ?? "(none)"} is not supported; send application/json.`,
      [req.contentType ?? ""],
    );
  }
  try {
    return { value: JSON.parse(req.rawBody) as unknown };
  } catch {
    return fail(400, "INVALID_JSON", "Received JSON is malformed.");
  }
}

export function invalidAttribute(name: string, why: string): ApiResult {
  return fail(400, "INVALID_ATTRIBUTE", `Invalid attribute ${name} specified: ${why}.`, [name]);
}

function patchApiKey(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  orgId: string,
  keyId: string,
): ApiResult {
  const page = pagination(req.query);
  if ("status" in page) return page;
  const parsed = parseJsonBody(req);
  if ("status" in parsed) return parsed;
  const body = parsed.value;
  if (!isPlainObject(body)) return fail(400, "INVALID_JSON", "Received JSON is not an object.");
  if (!state.hasOrg(orgId)) return orgNotFound(orgId);
  const refused = unauthorized(req, state, rules, { kind: "patchApiKey", orgId });
  if (refused) return refused;
  const key = state.apiKey(keyId);
  if (!key || key.orgId !== orgId) {
    // The error table's status (400) in the deployed profile.
    const status = rules.apiKeyNotFoundStatus;
    return fail(status, "API_KEY_NOT_FOUND", `No API Key with ID ${keyId} exists.`, [keyId]);
  }
  for (const name of Object.keys(body)) {
    if (name !== "desc" && name !== "roles")
      return invalidAttribute(name, "not an attribute of an API key update");
  }
  const { desc, roles } = body;
  if (desc === undefined && roles === undefined) {
    return fail(400, "MISSING_ATTRIBUTE", "The required attribute desc or roles was not specified.", [
      "desc",
      "roles",
    ]);
  }
  const change: { desc?: string; roles?: SimRole[] } = {};
  if (desc !== undefined) {
    // Length in UTF-16 code units, as a Java server counts it.
    if (typeof desc !== "string" || desc.length < 1 || desc.length > DESC_MAX_LENGTH) {
      return invalidAttribute("desc", `must be a string of 1 to ${DESC_MAX_LENGTH} characters`);
    }
    change.desc = desc;
  }
  if (roles !== undefined) {
    if (!Array.isArray(roles) || roles.length === 0) {
      return invalidAttribute("roles", "must be a non-empty array of organization role names");
    }
    const names: string[] = [];
    for (const role of roles) {
      if (typeof role !== "string") return invalidAttribute("roles", "each role must be a string");
      if (GROUP_ROLE_SET.has(role)) return invalidAttribute("roles", `${role} is not an organization role`);
      if (!ORG_ROLE_SET.has(role)) {
        return fail(400, "INVALID_ENUM_VALUE", `An invalid enumeration value ${role} was specified.`, [
          role,
          "roles",
        ]);
      }
      if (!names.includes(role)) names.push(role);
    }
    // The new list replaces the key's organization roles; its project roles stay.
    change.roles = [
      ...names.map((roleName) => ({ orgId, roleName })),
      ...key.roles.filter((r) => r.groupId !== undefined),
    ];
  }
  return { status: 200, body: apiKeyView(req.origin, state.updateApiKey(keyId, change)) };
}

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

function createLogCollectionJob(
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
  const job = state.addJob({
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
