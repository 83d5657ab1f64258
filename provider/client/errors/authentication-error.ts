import { ApiError, type ApiErrorInit } from "./api-error";
import { callHead } from "./format";

/** Why digest authentication could not get past a 401. */
export type AuthenticationFailure = "rejected" | "stale" | "unsupported-challenge";

/** A 401 that digest authentication could not get past, and why. */
export interface AuthenticationErrorInit extends Omit<ApiErrorInit, "status"> {
  /** Default 401. */
  status?: number;
  /**
   * Why: `rejected` (the server refused the credentials, the usual case), `stale` (it called every nonce
   * stale, even one fetched for this request alone, so it never judged the credentials) or
   * `unsupported-challenge` (it asked for a scheme this client does not speak). Default `rejected`.
   */
  why?: AuthenticationFailure;
  /** The schemes the server offered, for `unsupported-challenge`. */
  offered?: string;
}

/**
 * Digest authentication could not get past a 401 (code `OM_ERR_AUTH`), most often because the server
 * rejected the credentials; see `why`. The message names the call, never a credential.
 */
export class AuthenticationError extends ApiError {
  /** Why authentication failed; see {@link AuthenticationErrorInit.why}. */
  readonly why: AuthenticationFailure;
  /** The schemes the server offered, for `unsupported-challenge`. */
  readonly offered: string | undefined;

  constructor(init: AuthenticationErrorInit) {
    const full: ApiErrorInit = { ...init, status: init.status ?? 401 };
    super(full, "OM_ERR_AUTH", formatAuthenticationMessage(init, full.status));
    this.name = "AuthenticationError";
    this.why = init.why ?? "rejected";
    this.offered = init.offered;
  }

  protected override rebuild(init: ApiErrorInit): ApiError {
    return new AuthenticationError({ ...init, why: this.why, offered: this.offered });
  }
}

/** The advice after a `stale` failure, with `credentials` named as the reader knows them. */
export function staleAdvice(credentials: string): string {
  return (
    `try again; if it keeps failing, check the server's nonce lifetime and clock, and ${credentials} ` +
    "too (a server that has forgotten its client entry, as Apache httpd's mod_auth_digest does under " +
    "load, says stale whatever the credentials)"
  );
}

function formatAuthenticationMessage(init: AuthenticationErrorInit, status: number): string {
  // The server's errorCode, when it sent one, is what a user searches the error table for.
  const head = `${callHead(init)} failed: ${status}${init.errorCode ? ` ${init.errorCode}` : ""}`;
  if (init.why === "unsupported-challenge") {
    const offered = init.offered ? ` (it offered: ${init.offered})` : "";
    const advice = init.hint === undefined ? "" : `; ${init.hint}`;
    return `${head} — the server asked for an authentication scheme this client does not support${offered}${advice}`;
  }
  const detail = init.detail ? ` (server: ${init.detail})` : "";
  if (init.why === "stale") {
    return (
      `${head} — the server answered that the nonce was stale (expired) to every signed try, the last ` +
      `with a nonce it had just issued to this request alone, so the credentials were never judged${detail}; ` +
      (init.hint ?? staleAdvice("the credentials"))
    );
  }
  return `${head} — the server rejected the credentials${detail}; ${init.hint ?? "check the credentials"}`;
}
