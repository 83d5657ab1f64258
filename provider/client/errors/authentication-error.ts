import { ApiError, type ApiErrorInit } from "./api-error";
import { callHead, callSuffix } from "./format";

/** A 401 that digest authentication could not get past, and why. */
export interface AuthenticationErrorInit extends Omit<ApiErrorInit, "status"> {
  /** Default 401. */
  status?: number;
  /**
   * Why: `rejected` (the server refused credentials we sent, the usual case) or `unsupported-challenge`
   * (the server asked for an authentication scheme this client does not speak). Default `rejected`.
   */
  why?: "rejected" | "unsupported-challenge";
  /** The schemes the server offered, for `unsupported-challenge`. */
  offered?: string;
}

/**
 * The server rejected the credentials (code `OM_ERR_AUTH`): a 401 after a correctly signed digest
 * answer to a fresh challenge. The message names the URL and never a credential.
 */
export class AuthenticationError extends ApiError {
  constructor(init: AuthenticationErrorInit) {
    const full: ApiErrorInit = { ...init, status: init.status ?? 401 };
    super(full, "OM_ERR_AUTH", formatAuthenticationMessage(init, full.status));
    this.name = "AuthenticationError";
  }
}

function formatAuthenticationMessage(init: AuthenticationErrorInit, status: number): string {
  // The server's errorCode, when it sent one, is what a user searches the error table for.
  const head = `${callHead(init)} failed: ${status}${init.errorCode ? ` ${init.errorCode}` : ""}`;
  if (init.why === "unsupported-challenge") {
    const offered = init.offered ? ` (it offered: ${init.offered})` : "";
    return (
      `${head} — the server asked for an authentication scheme this client does not support${offered}; ` +
      `Ops Manager's public API uses HTTP Digest with MD5 or SHA-256` +
      callSuffix(init)
    );
  }
  const detail = init.detail ? ` (server: ${init.detail})` : "";
  return (
    `${head} — the server rejected the credentials${detail}; check the public key and private key ` +
    `(or user name and API key), that the API key is enabled, and that this machine's address is on ` +
    `its access list` +
    callSuffix(init)
  );
}
