/**
 * How the simulator's answers look on the wire, as the deployed server frames them: its headers, the
 * 401 that carries a digest challenge, the answer of an injected fault, and the `envelope` and `pretty`
 * query parameters.
 */
import { STATUS_CODES } from "node:http";
import { type ApiResult, defaultErrorCode, errorBody } from "./answers";
import type { ProfileRules } from "./profiles";
import type { Fault } from "./types";

/** The `X-Vendor-Service-Version` value the simulator sends on every non-401 response. */
export const SERVICE_VERSION =
  "gitHash=5e1d2c3b4a59687766554433221100ffeeddccbb; versionString=8.0.0.500.20260101T0000Z";

/** An answer ready to send: status, headers (without `Content-Length`) and body. */
export interface Framed {
  status: number;
  headers: Record<string, string>;
  text: string | Buffer;
}

const UNAUTHORIZED_BODY = JSON.stringify(
  errorBody(401, undefined, "You are not authorized for this resource."),
);

/** The headers of a JSON answer, as the deployed server sends them. */
export function jsonHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    "X-Vendor-Service-Version": SERVICE_VERSION,
    Vary: "Accept-Encoding",
    "Content-Type": "application/json",
    "Strict-Transport-Security": "max-age=300",
    ...extra,
  };
}

/** A 401 carrying the digest `challenge`, in the deployed server's content type. */
export function challengeAnswer(challenge: string): Framed {
  return {
    status: 401,
    headers: { "WWW-Authenticate": challenge, "Content-Type": "application/json;charset=ISO-8859-1" },
    text: UNAUTHORIZED_BODY,
  };
}

/** What an injected fault answers: its raw body, or an error body for its status (500 by default). */
export function faultAnswer(fault: Fault, rules: ProfileRules, challenge: () => string): Framed {
  const retryAfter =
    fault.retryAfterSeconds ??
    (fault.status === 429 && fault.raw === undefined ? rules.defaultRetryAfterSeconds : undefined);
  const extra: Record<string, string> = retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) };
  if (fault.raw) {
    return {
      status: fault.raw.status,
      headers: { "Content-Type": fault.raw.contentType, ...extra },
      text: fault.raw.body,
    };
  }
  const status = fault.status ?? 500;
  if (status === 401) return challengeAnswer(challenge());
  const detail =
    status === 429
      ? "Too many requests; the rate limit was exceeded. Retry later."
      : `The server answered ${status} ${STATUS_CODES[status] ?? ""}.`.replace(" .", ".");
  const body = errorBody(status, fault.errorCode ?? defaultErrorCode(status), detail);
  return { status, headers: jsonHeaders(extra), text: JSON.stringify(body) };
}

/** An operation's result as the wire carries it, with `envelope` and `pretty` applied. */
export function frame(result: ApiResult, query: Record<string, string>): Framed {
  if (result.raw !== undefined) {
    const { "Content-Type": _json, ...headers } = jsonHeaders(result.headers);
    return {
      status: result.status,
      text: result.raw.body,
      headers: { ...headers, "Content-Type": result.raw.contentType },
    };
  }
  let status = result.status;
  let body = result.body;
  if (query.envelope?.toLowerCase() === "true") {
    body = result.list ? { ...(body as Record<string, unknown>), status } : { status, envelope: body };
    status = 200;
  }
  // An answer without a body (a job's extension or delete) stays empty, enveloped or not.
  const text =
    body === undefined
      ? ""
      : query.pretty?.toLowerCase() === "true"
        ? JSON.stringify(body, null, 2)
        : JSON.stringify(body);
  return { status, text, headers: jsonHeaders(result.headers) };
}
