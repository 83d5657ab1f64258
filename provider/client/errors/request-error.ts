import type { CallInfo } from "./format";
import { type ErrorCode, OpsManagerError } from "./opsmanager-error";

/** The call a {@link RequestError} is about, and whether it reached the server. */
export interface RequestErrorInit extends CallInfo {
  /** Whether the request may have reached the server. Default: `true` unless `probeFor` is set. */
  requestSent?: boolean;
}

/** An error about one request, whose message starts with it (`GET /orgs/… failed: …`); its URL is `url`. */
export class RequestError extends OpsManagerError {
  /** The method of the request that failed, e.g. `PATCH`. */
  readonly method: string;
  /** The path below the API root, without a query: `/orgs/5f1…/apiKeys`. */
  readonly path: string;
  /** The absolute URL, query included, never with credentials. */
  readonly url: string;
  /** The method of the request whose challenge request this is about ({@link CallInfo.probeFor}). */
  readonly probeFor: string | undefined;
  /** `false` when the request cannot have reached the server (no connection, or only its challenge GET). */
  readonly requestSent: boolean;

  constructor(code: ErrorCode, message: string, init: RequestErrorInit, cause?: unknown) {
    super(code, message, cause);
    this.name = "RequestError";
    this.method = init.method;
    this.path = init.path;
    this.url = init.url;
    this.probeFor = init.probeFor;
    this.requestSent = init.requestSent ?? init.probeFor === undefined;
  }

  /** The call's fields, for building another error about the same call. */
  call(): CallInfo {
    return { method: this.method, path: this.path, url: this.url, probeFor: this.probeFor };
  }
}
