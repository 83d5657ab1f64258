import { callHead, hostOf, notSentNote } from "./format";
import { NetworkError, type NetworkErrorInit } from "./network-error";

/** A base URL whose scheme the server does not speak, and what it does speak. */
export interface SchemeMismatchErrorInit extends Omit<NetworkErrorInit, "requestSent"> {
  /** What the server speaks: `https` (plain HTTP was sent to a TLS port) or `http` (the reverse). */
  serverScheme: "http" | "https";
  /** The base URL with the scheme the server speaks (and the same host, port and path). */
  suggestedBaseUrl: string;
}

/**
 * The base URL says `http://` and the server speaks TLS, or says `https://` and the server answers
 * plain HTTP (code `OM_ERR_SCHEME_MISMATCH`). Nothing the server could act on was sent, and every
 * attempt would fail the same way, so it is not retried. The message names the setting to change.
 *
 * @example `GET /orgs/…/apiKeys failed: the server at om.example.com:8443 speaks HTTPS, not plain HTTP; use https://om.example.com:8443 as the base URL (baseUrl)`
 */
export class SchemeMismatchError extends NetworkError {
  readonly serverScheme: "http" | "https";
  readonly suggestedBaseUrl: string;

  constructor(init: SchemeMismatchErrorInit) {
    const { serverScheme, suggestedBaseUrl, ...rest } = init;
    super({ ...rest, requestSent: false }, "OM_ERR_SCHEME_MISMATCH", formatMessage(init));
    this.name = "SchemeMismatchError";
    this.serverScheme = serverScheme;
    this.suggestedBaseUrl = suggestedBaseUrl;
  }
}

function formatMessage(init: SchemeMismatchErrorInit): string {
  const server = hostOf(init.url, true);
  const setting = init.baseUrlSetting ?? "baseUrl";
  const head = `${callHead(init)} failed: the server at ${server}`;
  const code = init.causeCode ? ` [${init.causeCode}]` : "";
  if (init.serverScheme === "https") {
    return (
      `${head} speaks HTTPS, not plain HTTP${code}; use ${init.suggestedBaseUrl} as the base URL (${setting})` +
      notSentNote(init)
    );
  }
  return (
    `${head} answers plain HTTP, not HTTPS${code}; use ${init.suggestedBaseUrl} as the base URL (${setting}), ` +
    `or the port where the server serves HTTPS` +
    notSentNote(init)
  );
}
