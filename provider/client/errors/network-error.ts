import { type CallInfo, callHead, callSuffix, notSentNote } from "./format";
import { OpsManagerError } from "./opsmanager-error";

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
}

const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED:
    "the connection was refused; check the host and port in the URL and that the server is running",
  ENOTFOUND: "the host name was not found; check the host in the URL",
  EAI_AGAIN: "the host name could not be resolved (DNS failure); check the host in the URL and the network",
  EHOSTUNREACH: "the host is unreachable; check the network and the host in the URL",
  ENETUNREACH: "the network is unreachable; check the network",
  ETIMEDOUT: "the connection timed out; check the network and the host in the URL",
  UND_ERR_CONNECT_TIMEOUT:
    "the connection could not be made in time; check the network and the host in the URL",
  ECONNRESET: "the connection was reset",
  EPIPE: "the connection was closed while the request was being written",
  UND_ERR_SOCKET: "the connection was closed by the other side",
  UND_ERR_CLOSED: "the connection was closed",
};

/**
 * A network failure (code `OM_ERR_NETWORK`). `requestSent` says whether the server may have acted.
 */
export class NetworkError extends OpsManagerError {
  readonly method: string;
  readonly path: string;
  readonly url: string;
  readonly causeCode: string | undefined;
  readonly requestSent: boolean;

  constructor(init: NetworkErrorInit, code = "OM_ERR_NETWORK", message = formatNetworkMessage(init)) {
    super(code, message, init.cause);
    this.name = "NetworkError";
    this.method = init.method;
    this.path = init.path;
    this.url = init.url;
    this.causeCode = init.causeCode;
    this.requestSent = init.requestSent;
  }
}

function formatNetworkMessage(init: NetworkErrorInit): string {
  const known = init.causeCode ? DESCRIPTIONS[init.causeCode] : undefined;
  const what = known ?? `a network error occurred${init.causeMessage ? ` (${init.causeMessage})` : ""}`;
  const code = init.causeCode ? ` [${init.causeCode}]` : "";
  const reads = init.method === "GET" || init.method === "HEAD";
  const sent =
    init.requestSent && !reads
      ? "; the request may have reached the server, so it may have been acted on — check before repeating it"
      : "";
  return `${callHead(init)} failed: ${what}${code}${sent}${notSentNote(init)}${callSuffix(init)}`;
}
