import { type CallInfo, callHead, hostOf, notSentNote, oneLine } from "./format";
import type { ErrorCode } from "./opsmanager-error";
import { RequestError } from "./request-error";

/** A failure below HTTP: the connection could not be made or broke. */
export interface NetworkErrorInit extends CallInfo {
  /** The system or undici code, e.g. `ECONNREFUSED`, `ECONNRESET`, `UND_ERR_SOCKET`. */
  causeCode?: string;
  /** The original error's message, credentials removed. */
  causeMessage?: string;
  /**
   * `true` when the request may have reached the server (the connection broke after it was written),
   * so a POST may have been acted on. `false` when nothing was sent (refused, DNS failure, TLS).
   */
  requestSent: boolean;
  /** The underlying error, reduced to name, code and message (never the request). */
  cause?: unknown;
  /** The base URL setting, as the user knows it. Default `baseUrl`. */
  baseUrlSetting?: string;
}

/** What each failure means and what to check; `setting` is how the user gives the base URL. */
const DESCRIPTIONS: Record<string, (url: string, setting: string) => string> = {
  ECONNREFUSED: (url, setting) =>
    `the connection was refused by ${hostOf(url, true)}; check the host and port of the base URL ` +
    `(${setting}) and that the server is running`,
  ENOTFOUND: (url, setting) =>
    `the host name ${hostOf(url, false)} was not found; check the host of the base URL (${setting})`,
  EAI_AGAIN: (url, setting) =>
    `the host name ${hostOf(url, false)} could not be resolved (DNS failure); check the host of the base ` +
    `URL (${setting}) and the network`,
  EHOSTUNREACH: (url, setting) =>
    `the host ${hostOf(url, false)} is unreachable; check the network and the host of the base URL (${setting})`,
  ENETUNREACH: (url) => `the network to ${hostOf(url, false)} is unreachable; check the network`,
  ETIMEDOUT: (url, setting) =>
    `the connection to ${hostOf(url, true)} timed out; check the network and the host and port of the ` +
    `base URL (${setting})`,
  UND_ERR_CONNECT_TIMEOUT: (url, setting) =>
    `the connection to ${hostOf(url, true)} could not be made in time; check the network and the host and ` +
    `port of the base URL (${setting})`,
  ECONNRESET: () => "the connection was reset",
  EPIPE: () => "the connection was closed while the request was being written",
  UND_ERR_SOCKET: () => "the connection was closed by the other side",
  UND_ERR_CLOSED: () => "the connection was closed",
};

/** A network failure (code `OM_ERR_NETWORK`). `requestSent` says whether the server may have acted. */
export class NetworkError extends RequestError {
  readonly causeCode: string | undefined;

  constructor(
    init: NetworkErrorInit,
    code: ErrorCode = "OM_ERR_NETWORK",
    message = formatNetworkMessage(init),
  ) {
    super(code, message, init, init.cause);
    this.name = "NetworkError";
    this.causeCode = init.causeCode;
  }
}

function formatNetworkMessage(init: NetworkErrorInit): string {
  const describe = init.causeCode ? DESCRIPTIONS[init.causeCode] : undefined;
  const what =
    describe?.(init.url, init.baseUrlSetting ?? "baseUrl") ??
    `a network error occurred${init.causeMessage ? ` (${oneLine(init.causeMessage)})` : ""}`;
  const code = init.causeCode ? ` [${init.causeCode}]` : "";
  const reads = init.method === "GET" || init.method === "HEAD";
  const sent =
    init.requestSent && !reads
      ? "; the request may have reached the server, so it may have been acted on — check before repeating it"
      : "";
  return `${callHead(init)} failed: ${what}${code}${sent}${notSentNote(init)}`;
}
