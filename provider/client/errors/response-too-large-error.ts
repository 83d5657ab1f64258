import type { CallInfo } from "./format";
import { RequestError } from "./request-error";

/** A body larger than the client reads. */
export interface ResponseTooLargeErrorInit extends CallInfo {
  status: number;
  /** The limit, `maxResponseBytes`. */
  limitBytes: number;
  /** The declared `Content-Length`, when there was one. */
  contentLength?: number;
}

/** The response body passed `maxResponseBytes` (code `OM_ERR_RESPONSE_TOO_LARGE`); reading stopped there. */
export class ResponseTooLargeError extends RequestError {
  readonly status: number;
  readonly limitBytes: number;
  readonly contentLength: number | undefined;

  constructor(init: ResponseTooLargeErrorInit) {
    const declared = init.contentLength === undefined ? "" : ` (it declared ${init.contentLength} bytes)`;
    super(
      "OM_ERR_RESPONSE_TOO_LARGE",
      `${init.method} ${init.path} answered ${init.status} with a body larger than the ${init.limitBytes}-byte ` +
        `limit${declared}; reading stopped — ask for less (a smaller page) or raise maxResponseBytes`,
      init,
    );
    this.name = "ResponseTooLargeError";
    this.status = init.status;
    this.limitBytes = init.limitBytes;
    this.contentLength = init.contentLength;
  }
}
