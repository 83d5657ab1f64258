import { ApiError, type ApiErrorInit } from "./api-error";
import { callHead } from "./format";

/** A 401 that digest authentication could not get past, and why. */
export interface AuthenticationErrorInit extends Omit<ApiErrorInit, "status"> {
  /** Default 401. */
  status?: number;
  /**
   * Why: `rejected` (the server refused credentials we sent, the usual case), `stale` (the server called
   * every nonce stale, even one fetched for this request alone, so it never judged the credentials) or
   * `unsupported-challenge` (the server asked for an authentication scheme this client does not speak).
   * Default `rejected`.
   */
  why?: "rejected" | "stale" | "unsupported-challenge";
  /** The schemes the server offered, for `unsupported-challenge`. */
  offered?: string;
}

/**
 * The server rejected the credentials (code `OM_ERR_AUTH`): a 401 after a correctly signed digest
 * answer to a fresh challenge. The message names the call and never a credential.
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
      `Ops Manager's public API uses HTTP Digest with MD5 or SHA-256`
    );
  }
  const detail = init.detail ? ` (server: ${init.detail})` : "";
  if (init.why === "stale") {
    return (
      `${head} — the server answered that the nonce was stale (expired) to every signed try, the last ` +
      `with a nonce it had just issued to this request alone, so the credentials were never judged${detail}; ` +
      `try again; if it keeps failing, check the server's nonce lifetime and clock, and the public key ` +
      `and private key too (a server that has forgotten its client entry, as Apache httpd's ` +
      `mod_auth_digest does under load, says stale whatever the credentials)`
    );
  }
  return (
    `${head} — the server rejected the credentials${detail}; check the public key and private key ` +
    `(or user name and API key), that the API key is enabled, and that this machine's address is on ` +
    `its access list`
  );
}
