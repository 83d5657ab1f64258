/**
 * The nonce bookkeeping of a {@link DigestSession}: the nonce every request shares, what the server has
 * shown of its reuse, and what a refused or an accepted answer changes. No I/O: the session's request
 * loop sends, and asks the book where each request takes its nonce from.
 */
import { type DigestChallenge, parseAuthenticationInfo } from "./digest-challenge";
import type { DigestMode, ResponseHeaders } from "./digest-types";

/** A nonce and what the session knows of it. */
export interface NonceState {
  challenge: DigestChallenge;
  /** Nonce counts handed out so far; the next request uses count + 1. */
  count: number;
  /**
   * No other request holds it, nor a nonce the server counts with it: it came from a challenge to a
   * request without credentials (a new client to the server), or from a 401 to a request that held its
   * nonce alone, or from a 401 without an `opaque`, with a new one, or with the one the server hands
   * every client. Apache's mod_auth_digest counts per `opaque`, one per client, and keeps the opaque in
   * a 401, so a 401 to a shared nonce gives one that is not.
   */
  alone: boolean;
  /** What the server has shown of this nonce's reuse; see {@link NonceTrust}. */
  trust: NonceTrust;
}

/**
 * What the server has shown of a nonce: `new`, nothing yet; `replacement`, it replaced the session's
 * nonce after the server refused that one without `stale=true`, and no reuse of it has passed yet;
 * `reusable`, the server accepted a use of it past the first. A refused second use of a
 * `replacement` is what tells a server that wants one nonce per request.
 */
type NonceTrust = "new" | "replacement" | "reusable";

/**
 * What the server's `opaque` says, learned at the first 401 without `stale=true` that keeps the opaque
 * of a shared nonce: `unknown` until then; `per-client`, a challenge to a request without credentials
 * brought a new opaque (Apache's mod_auth_digest opens a client entry per opaque and counts its nonces
 * strictly in order), so a 401 that keeps the opaque ties its nonce to the other requests'; `server-wide`,
 * it brought the same one (Tomcat's DigestAuthenticator sends one opaque to every client and counts per
 * nonce), so a kept opaque ties nothing.
 */
export type OpaqueUse = "unknown" | "per-client" | "server-wide";

/** Where a request takes the nonce of its next signed try from. */
export type Source =
  /** The session's nonce, shared by every request; the first request fetches it while others wait. */
  | { kind: "session" }
  /** A nonce from a 401 to this request, which this request alone uses until it passes. */
  | { kind: "held"; state: NonceState }
  /** A nonce this request fetches for itself, with a request without credentials. */
  | { kind: "own" };

/**
 * What a refused try leads to: a {@link Source}, or `learn`: fetch a challenge without credentials to
 * learn the server's {@link OpaqueUse}, then ask again.
 */
export type Refusal = Source | { kind: "learn" };

/** One request's way through {@link DigestSession.perform}. */
export interface Attempt {
  source: Source;
  /** Signed tries so far. */
  tries: number;
  /** The session nonce this request saw refused, which a nonce that then passes replaces. */
  displaced: NonceState | undefined;
}

/** The last nonce count (RFC 7616 §3.4: nc is 8 hex digits); past it, fetch a new nonce. */
export const MAX_NC = 0xffffffff;

/**
 * Signed tries per request. The last is always with a nonce the request holds alone, whose refusal
 * without stale=true judges the credentials; a server that calls even that stale gets no more.
 */
export const MAX_TRIES = 4;

/** A nonce from `challenge`, not yet used. */
export function newState(challenge: DigestChallenge, alone: boolean): NonceState {
  return { challenge, count: 0, alone, trust: "new" };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The session's nonce and signing mode, and the rules that move them (see {@link DigestSession}). */
export class NonceBook {
  /** The nonce that requests share, if any. */
  current: NonceState | undefined;
  /** `reuse`, or `fresh` while the server is taken to refuse reused nonces (see {@link DigestMode}). */
  signing: DigestMode;
  /** What the server's opaque says (see {@link OpaqueUse}). */
  opaques: OpaqueUse;

  constructor() {
    this.current = undefined;
    this.signing = "reuse";
    this.opaques = "unknown";
  }

  /**
   * Where the next try of a request takes its nonce from after a 401 to `state` (signed at count `nc`)
   * that did not judge the credentials.
   */
  refused(
    state: NonceState,
    shared: boolean,
    nc: number,
    challenge: DigestChallenge,
    attempt: Attempt,
  ): Refusal {
    // A 401 that keeps the opaque of a nonce others use ties its nonce to theirs when the server counts
    // per opaque (Apache); without an opaque, with a new one, or with the one the server gives every
    // client (Tomcat), its nonce is this request's alone. Which server it is shows once: a refusal of
    // the credentials or of a count out of order reads the same.
    const kept = challenge.opaque !== undefined && challenge.opaque === state.challenge.opaque && shared;
    if (kept && !challenge.stale && this.opaques === "unknown") return { kind: "learn" };
    const tied = kept && this.opaques !== "server-wide";
    const next = newState(challenge, !tied);
    const alone: Source = tied ? { kind: "own" } : { kind: "held", state: next };
    // The last try is with a nonce this request holds alone.
    if (attempt.tries + 1 >= MAX_TRIES || !shared || this.signing === "fresh") return alone;
    // Another request already replaced the session's nonce: sign again with the newer one.
    if (this.current !== undefined && this.current !== state) return { kind: "session" };
    if (challenge.stale || tied) {
      // RFC 7616 §3.3: stale=true means the credentials were right and the nonce expired. A server that
      // keeps the opaque goes on counting that client: a request fetching its own nonce would open a
      // new client entry, and Apache forgets its entries in bulk when its small table fills. Either
      // way every request moves to the new nonce.
      next.alone = false;
      this.current = next;
      return { kind: "session" };
    }
    if (state.trust === "replacement" && nc > 1) {
      // The server refused the second use of a nonce it had just issued: it wants one nonce per request.
      this.signing = "fresh";
      this.current = undefined;
      return alone;
    }
    attempt.displaced = state;
    return alone;
  }

  /**
   * What a challenge to a request without credentials (`fetched`) shows next to the opaque that the
   * 401 to `refused` kept: the same opaque, and the server gives it to every client; another, and it
   * opened a new client entry, whose nonce every request moves to.
   */
  learned(refused: NonceState, fetched: NonceState): void {
    if (fetched.challenge.opaque === refused.challenge.opaque) {
      this.opaques = "server-wide";
      return;
    }
    this.opaques = "per-client";
    if (this.current === refused || this.current === undefined) {
      fetched.alone = false;
      this.current = fetched;
    }
  }

  /** Bookkeeping after an accepted answer signed with `state` at count `nc`. */
  accepted(state: NonceState, nc: number, shared: boolean, attempt: Attempt, headers: ResponseHeaders): void {
    if (nc > 1) state.trust = "reusable";
    if (this.signing === "fresh") {
      // Two expiries in a row (stale=false) look like a refusal of reuse. A second use that
      // passes shows the server takes reuse after all: every request reuses nonces again.
      if (nc > 1) this.signing = "reuse";
      state.alone = false;
      this.current = state;
    } else if (!shared && attempt.displaced && this.current === attempt.displaced) {
      // The session's nonce was refused and this one, from that 401, passed: the session uses it now.
      if (state.trust === "new") state.trust = "replacement";
      state.alone = false;
      this.current = state;
    }
    this.takeNextNonce(headers, state);
  }

  /** RFC 7616 §3.5: `Authentication-Info: nextnonce="…"` names the nonce to use next. */
  private takeNextNonce(headers: ResponseHeaders, used: NonceState): void {
    const info = firstHeader(headers["authentication-info"]);
    if (!info || this.signing === "fresh" || this.current !== used) return;
    const next = parseAuthenticationInfo(info).nextnonce;
    if (!next || next === used.challenge.nonce) return;
    this.current = newState({ ...used.challenge, nonce: next, stale: false }, false);
  }
}
