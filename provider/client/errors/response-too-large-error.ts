import { type CallInfo, callSuffix } from "./format";
import { OpsManagerError } from "./opsmanager-error";

/** A body larger than the client reads. */
export interface ResponseTooLargeErrorInit extends CallInfo {
  status: number;
  /** The limit, `maxResponseBytes`. */
  limitBytes: number;
  /** The declared `Content-Length`, when there was one. */
  contentLength?: number;
}

/**
 * The response body passed `maxResponseBytes` (code `OM_ERR_RESPONSE_TOO_LARGE`); reading stopped there.
 */
export class ResponseTooLargeError extends OpsManagerError {
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly status: number;
  readonly limitBytes: number;
  readonly contentLength: number | undefined;

  constructor(init: ResponseTooLargeErrorInit) {
    const declared = init.contentLength === undefined ? "" : ` (it declared ${init.contentLength} bytes)`;
    super(
      "OM_ERR_RESPONSE_TOO_LARGE",
      `${init.method} ${init.path} answered ${init.status} with a body larger than the ${init.limitBytes}-byte ` +
        `limit${declared}; reading stopped — ask for less (a smaller page) or raise maxResponseBytes` +
        callSuffix(init),
    );
    this.name = "ResponseTooLargeError";
    this.method = init.method;
    this.path = init.path;
    this.url = init.url;
    this.status = init.status;
    this.limitBytes = init.limitBytes;
    this.contentLength = init.contentLength;
  }
}
