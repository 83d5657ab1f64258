import { type CallInfo, callHead, callSuffix, notSentNote } from "./format";
import { OpsManagerError } from "./opsmanager-error";

/** What the server said in a non-2xx answer, and the request it answered. */
export interface ApiErrorInit extends CallInfo {
  status: number;
  /** `errorCode` of the server's error body, e.g. `INVALID_ATTRIBUTE`. */
  errorCode?: string;
  /** `detail` of the server's error body. */
  detail?: string;
  /** `reason` of the server's error body (the status text), e.g. `Bad Request`. */
  reason?: string;
  /** `parameters` of the server's error body. */
  parameters?: unknown[];
  /** The server's `Retry-After`, in ms, when it sent one. */
  retryAfterMs?: number;
  /** Up to 200 characters of a body that was not a JSON error (an HTML error page, say). */
  bodySnippet?: string;
  /** `Location` of a redirect. */
  location?: string;
}

/**
 * The server answered with a status that is not 2xx (code `OM_ERR_API`).
 *
 * @example
 * `PATCH /orgs/5f1…/apiKeys/5f2… failed: 400 INVALID_ATTRIBUTE — desc must be 1 to 250 characters: PATCH https://…`
 */
export class ApiError extends OpsManagerError {
  readonly status: number;
  readonly errorCode: string | undefined;
  readonly detail: string | undefined;
  readonly reason: string | undefined;
  readonly parameters: unknown[] | undefined;
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly retryAfterMs: number | undefined;
  readonly bodySnippet: string | undefined;
  /** The method of the request with a body whose challenge request this answered; see `requestSent`. */
  readonly probeFor: string | undefined;
  /**
   * `false` when this answered the bodyless `GET` that fetches the authentication challenge before a
   * request with a body (`probeFor`): that request was not sent, so the server did not act on it.
   */
  readonly requestSent: boolean;

  constructor(init: ApiErrorInit, code = "OM_ERR_API", message = formatApiErrorMessage(init)) {
    super(code, message);
    this.name = "ApiError";
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.detail = init.detail;
    this.reason = init.reason;
    this.parameters = init.parameters;
    this.method = init.method;
    this.path = init.path;
    this.url = init.url;
    this.retryAfterMs = init.retryAfterMs;
    this.bodySnippet = init.bodySnippet;
    this.probeFor = init.probeFor;
    this.requestSent = init.probeFor === undefined;
  }
}

function hintFor(init: ApiErrorInit): string | undefined {
  const { status } = init;
  if (status >= 300 && status < 400) {
    return init.location
      ? `the server redirected to ${init.location}; use that address as the base URL`
      : "the server redirected; check the base URL (https or http, host and port)";
  }
  if (status === 400) return "correct the value the server names and run again";
  if (status === 403) {
    return "the credentials are valid but not allowed this call: give the API key a role that allows it, or add this machine to the key's access list";
  }
  if (status === 404) return "check the id";
  if (status === 409) return "the resource changed meanwhile; run `pulumi refresh`, then try again";
  if (status === 429) {
    const wait =
      init.retryAfterMs === undefined
        ? ""
        : ` (the server asked to wait ${Math.ceil(init.retryAfterMs / 1000)} s)`;
    return `rate limited; try again later${wait}`;
  }
  if (status >= 500) return "the server failed; try again";
  return undefined;
}

function formatApiErrorMessage(init: ApiErrorInit): string {
  const label = init.errorCode ?? init.reason;
  let text = `${callHead(init)} failed: ${init.status}${label ? ` ${label}` : ""}`;
  if (init.detail) text += ` — ${init.detail}`;
  else if (init.bodySnippet) text += ` — the server answered with ${init.bodySnippet}`;
  const hint = hintFor(init);
  if (hint) text += ` (${hint})`;
  return text + notSentNote(init) + callSuffix(init);
}
