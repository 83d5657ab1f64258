import { type CallInfo, callHead, hostOf, notSentNote } from "./format";
import { RequestError } from "./request-error";

/** An attempt that did not complete in time. */
export interface TimeoutErrorInit extends CallInfo {
  timeoutMs: number;
  /** `true` unless the connection was never made: the server may have acted on the request. */
  requestSent: boolean;
  /** What timed out when the request was not sent: the connection (default), or its challenge GET. */
  notSentBecause?: "connect" | "challenge";
  /** The timeout setting, as the user knows it. Default `timeoutMs`. */
  setting?: string;
}

/** No complete response (connect, headers and whole body) within `timeoutMs` (code `OM_ERR_TIMEOUT`). */
export class TimeoutError extends RequestError {
  readonly timeoutMs: number;

  constructor(init: TimeoutErrorInit) {
    const reads = init.method === "GET" || init.method === "HEAD";
    const connect = "; the connection could not be made";
    let sent: string;
    if (init.requestSent) {
      sent = reads
        ? ""
        : "; the request may have reached the server, so it may have been acted on — check before repeating it";
    } else if (init.probeFor !== undefined) {
      sent = `${init.notSentBecause === "connect" ? connect : ""}${notSentNote(init)}`;
    } else if (init.notSentBecause === "challenge") {
      sent =
        "; the server did not answer the request for an authentication challenge, so the request itself was not sent";
    } else {
      sent = connect;
    }
    super(
      "OM_ERR_TIMEOUT",
      `${callHead(init)} timed out: no complete response within ${init.timeoutMs} ms${sent}; ` +
        `try again, or raise the timeout (${init.setting ?? "timeoutMs"}) if the server at ${hostOf(init.url, true)} is slow`,
      init,
    );
    this.name = "TimeoutError";
    this.timeoutMs = init.timeoutMs;
  }
}
