/**
 * What every route of the simulated API shares: the shapes of a parsed request and of an answer before
 * HTTP framing, error bodies in the server's shape, pagination, JSON bodies and the role check. The
 * routes themselves are in ./api (routing), ./api-keys, ./job-create and ./jobs.
 */
import { STATUS_CODES } from "node:http";
import type { ProfileRules } from "./profiles";
import { type Operation, refusal } from "./roles";
import type { SimState } from "./state";

/** The API root every route lives under. */
export const API_ROOT = "/api/public/v1.0";

/** Largest accepted `itemsPerPage` (spec, Limits). */
export const MAX_ITEMS_PER_PAGE = 500;
/** `itemsPerPage` when none is given (spec, Limits). */
export const DEFAULT_ITEMS_PER_PAGE = 100;

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

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

/**
 * 401 with an `errorCode` (or the refusal's own status) when the profile checks roles and the caller's
 * do not allow `operation`.
 */
export function unauthorized(
  req: ApiRequest,
  state: SimState,
  rules: ProfileRules,
  operation: Operation,
): ApiResult | undefined {
  if (!rules.checkRoles) return undefined;
  const refused = refusal(state, req.caller, operation);
  return refused === undefined ? undefined : fail(refused.status ?? 401, refused.errorCode, refused.detail);
}
