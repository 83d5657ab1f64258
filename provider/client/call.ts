/** One request as the client carries it through its attempts, and what of it an error may show. */
import { currentAbortSignal } from "./abort-scope";
import type { CallInfo } from "./errors/format";
import { InvalidArgumentError } from "./errors/invalid-argument-error";
import { isRecord } from "./is-record";
import { checkHeaderText, METHODS } from "./options";
import type { HttpMethod, RequestOptions } from "./types";

/** A checked request. */
export interface Call extends CallInfo {
  method: HttpMethod;
  /** As the caller declared it; `undefined` for the method's own (RFC 9110 §9.2.2). */
  idempotent: boolean | undefined;
  /** As the caller declared it ({@link RequestOptions.pastAuthentication}). */
  pastAuthentication: RequestOptions["pastAuthentication"];
  /** The request target: path and query, the digest `uri`. */
  target: string;
  body: string | undefined;
  /** Authorization headers sent for this call, to redact from anything the server sends back. */
  sentAuthorizations: string[];
  /** The abort signal of the scope the call was made in (see ./abort-scope.ts). */
  signal: AbortSignal | undefined;
  /** As the caller declared it ({@link RequestOptions.cutOnAbort}). */
  cutOnAbort: boolean;
}

/** Checks `options` and builds the call below `baseUrl`; throws an `InvalidArgumentError` naming what is bad. */
export function prepareCall(baseUrl: string, options: RequestOptions): Call {
  if (!isRecord(options)) throw new InvalidArgumentError("request", "must be an object");
  const method = options.method;
  if (!METHODS.includes(method)) {
    throw new InvalidArgumentError("method", `must be one of ${METHODS.join(", ")} (got ${String(method)})`);
  }
  const relative = options.path;
  if (typeof relative !== "string" || !relative.startsWith("/")) {
    throw new InvalidArgumentError("path", "must start with / (a path below the API root)");
  }
  if (/[?#]/.test(relative)) {
    throw new InvalidArgumentError("path", "must not contain ? or #; give query parameters as query");
  }
  checkHeaderText("path", relative);
  const url = new URL(baseUrl + relative);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.append(name, String(value));
  }
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (options.idempotent !== undefined && typeof options.idempotent !== "boolean") {
    throw new InvalidArgumentError("idempotent", "must be true or false");
  }
  if (options.pastAuthentication !== undefined && typeof options.pastAuthentication !== "function") {
    throw new InvalidArgumentError("pastAuthentication", "must be a function");
  }
  if (options.cutOnAbort !== undefined && typeof options.cutOnAbort !== "boolean") {
    throw new InvalidArgumentError("cutOnAbort", "must be true or false");
  }
  return {
    method,
    idempotent: options.idempotent,
    pastAuthentication: options.pastAuthentication,
    path: relative,
    url: url.href,
    target: `${url.pathname}${url.search}`,
    body,
    sentAuthorizations: [],
    signal: currentAbortSignal(),
    cutOnAbort: options.cutOnAbort ?? true,
  };
}

/**
 * Only what an error may carry: never the request body or headers. For a probe, the bodyless GET that
 * fetched the challenge, which is what failed, with the method of the request that was not sent.
 */
export function callInfo(call: Call, probe = false): CallInfo {
  if (probe) return { method: "GET", path: call.path, url: call.url, probeFor: call.method };
  return { method: call.method, path: call.path, url: call.url };
}
