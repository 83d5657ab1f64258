/** A {@link DigestSession}'s nonces, without I/O: which one each try signs with, and what answers change. */
import { type DigestChallenge, parseAuthenticationInfo } from "./digest-challenge";
import type { DigestMode, ResponseHeaders } from "./digest-types";

/** A nonce and what the session knows of it. */
export interface NonceState {
  challenge: DigestChallenge;
  /** Nonce counts handed out so far; the next request uses count + 1. */
  count: number;
  /**
   * No other request holds it, nor a nonce the server counts with it: a 401 that keeps the `opaque` of a
   * shared nonce gives one that is not alone where the server counts per opaque (see {@link OpaqueUse}).
   */
  alone: boolean;
  /** What the server has shown of this nonce's reuse; see {@link NonceTrust}. */
  trust: NonceTrust;
}

/**
 * What the server has shown of a nonce: `new`, nothing; `replacement`, it replaced a session nonce
 * refused without `stale=true`, and no reuse of it passed yet; `reusable`, a use past the first passed.
 * A refused second use of a `replacement` tells a server that wants one nonce per request.
 */
type NonceTrust = "new" | "replacement" | "reusable";

/**
 * What the server's `opaque` says, learned at the first 401 without `stale=true` that keeps a shared
 * nonce's opaque. `per-client`: a challenge without credentials brought a new opaque (Apache's
 * mod_auth_digest counts nonces per opaque, strictly in order), so a kept opaque ties a nonce to the
 * others'. `server-wide`: it brought the same (Tomcat's sends one to every client and counts per
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

/** What a refused try leads to: a {@link Source}, or `learn` the server's {@link OpaqueUse} and ask again. */
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

  /** The next try's nonce source after a 401 to `state` (at `nc`) that did not judge the credentials. */
  refused(
    state: NonceState,
    shared: boolean,
    nc: number,
    challenge: DigestChallenge,
    attempt: Attempt,
  ): Refusal {
    // A kept opaque ties the new nonce to the others' only where the server counts per opaque
    // (OpaqueUse). The 401 cannot tell: a refusal of the credentials and one of a count out of order
    // read the same, so a challenge is fetched to learn it, once.
    const kept = challenge.opaque !== undefined && challenge.opaque === state.challenge.opaque && shared;
    if (kept && !challenge.stale && this.opaques === "unknown") return { kind: "learn" };
    const tied = kept && this.opaques !== "server-wide";
    const next = newState(challenge, !tied);
    const alone: Source = tied ? { kind: "own" } : { kind: "held", state: next };
    if (attempt.tries + 1 >= MAX_TRIES || !shared || this.signing === "fresh") return alone;
    // Another request already replaced the session's nonce: sign again with the newer one.
    if (this.current !== undefined && this.current !== state) return { kind: "session" };
    if (challenge.stale || tied) {
      // RFC 7616 §3.3: stale=true means the credentials were right and the nonce expired. Where the
      // opaque ties, a request fetching its own nonce would open a new client entry, and Apache forgets
      // its entries in bulk when its small table fills: every request moves to the new nonce instead.
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
   * What a challenge without credentials (`fetched`) shows next to the opaque the 401 to `refused` kept:
   * the same, the server gives it to every client; another, a new client entry every request moves to.
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
      // Two expiries in a row (stale=false) look like a refusal of reuse; a second use that passes
      // shows the server takes reuse after all.
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
