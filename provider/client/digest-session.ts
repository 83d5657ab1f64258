/**
 * Digest authentication state for one (origin, user name): the current nonce and its nonce count, and
 * the one challenge fetch in flight. It decides what each request sends; the caller does the I/O.
 */
import { buildAuthorization, createCnonce } from "./digest";
import {
  type AuthChallenge,
  type DigestChallenge,
  parseAuthenticationInfo,
  parseWwwAuthenticate,
  selectDigestChallenge,
} from "./digest-challenge";
import type {
  DigestEvents,
  DigestMode,
  DigestOutcome,
  DigestRequest,
  DigestResponseLike,
  DigestSend,
  DigestSessionOptions,
  ResponseHeaders,
} from "./digest-types";

interface NonceState {
  challenge: DigestChallenge;
  /** Nonce counts handed out so far; the next request uses count + 1. */
  count: number;
  /**
   * No other request holds it, nor a nonce the server counts with it: it came from a challenge to a
   * request without credentials (a new client to the server), or from a 401 to a request that held its
   * nonce alone, or from a 401 without an `opaque` or with a new one. Apache's mod_auth_digest counts
   * per `opaque` and keeps the opaque in a 401, so a 401 to a shared nonce gives one that is not.
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

/** Where a request takes the nonce of its next signed try from. */
type Source =
  /** The session's nonce, shared by every request; the first request fetches it while others wait. */
  | { kind: "session" }
  /** A nonce from a 401 to this request, which this request alone uses until it passes. */
  | { kind: "held"; state: NonceState }
  /** A nonce this request fetches for itself, with a request without credentials. */
  | { kind: "own" };

/** One request's way through {@link DigestSession.perform}. */
interface Attempt {
  source: Source;
  /** Signed tries so far. */
  tries: number;
  /** The session nonce this request saw refused, which a nonce that then passes replaces. */
  displaced: NonceState | undefined;
}

interface Signed {
  authorization: string;
  /** The nonce count signed. */
  nc: number;
}

type NonceFor<R> = { state: NonceState; shared: boolean } | { outcome: DigestOutcome<R> };

type ProbeResult<R> = { kind: "state"; state: NonceState } | { kind: "done"; outcome: DigestOutcome<R> };

// RFC 7616 §3.4: nc is 8 hex digits; past that, fetch a new nonce.
const MAX_NC = 0xffffffff;

// Signed tries per request. The last is always with a nonce the request holds alone, whose refusal
// without stale=true judges the credentials; a server that calls even that stale gets no more.
const MAX_TRIES = 4;

function newState(challenge: DigestChallenge, alone: boolean): NonceState {
  return { challenge, count: 0, alone, trust: "new" };
}

function challengesOf(headers: ResponseHeaders): AuthChallenge[] {
  const value = headers["www-authenticate"];
  return value === undefined ? [] : parseWwwAuthenticate(value);
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describeOffered(challenges: readonly AuthChallenge[]): string {
  if (challenges.length === 0) return "no WWW-Authenticate challenge";
  return challenges
    .map((c) => (c.params.algorithm ? `${c.scheme} algorithm=${c.params.algorithm}` : c.scheme))
    .join(", ");
}

/**
 * Digest state shared by every request to one origin as one user.
 *
 * - The first request fetches a challenge while the others wait: one challenge fetch at a time.
 * - After that every request is signed up front with its own nonce count (RFC 7616 §3.6): N requests
 *   cost N + 1 round trips at any concurrency, and no nonce count is used twice.
 * - A 401 with `stale=true` to the session's nonce moves every request to the nonce of that 401 (the
 *   first such 401 does; the others follow it).
 * - So does a 401 that keeps the `opaque` of the session's nonce (a count that a strict server such as
 *   Apache's mod_auth_digest saw out of order).
 * - Any other 401 to the session's nonce (an expiry as the spec's server answers it, `stale=false`) is
 *   answered by this request alone with the nonce of that 401; if that passes, the session adopts it.
 *   When the server then refuses the second use of that nonce too, before accepting any, it may refuse
 *   reuse, or that nonce may have expired as well: the session falls back, and a request with a body
 *   fetches a challenge of its own (its body crosses once) while a bodyless request tries the nonce that
 *   passed last. The first such reuse that passes ends the fallback.
 * - Only a 401 to the first use of a nonce this request holds alone, without `stale=true`, says the
 *   credentials are wrong. A request is signed at most four times, the last with such a nonce.
 * - A 401 written past authentication (`pastAuthentication`) is the request's outcome, as it is.
 */
export class DigestSession {
  /** The user name (the public key of an API key, or a user's name). */
  readonly username: string;
  // A closure, so that printing the session does not print the secret.
  private readonly secret: () => string;
  private readonly makeCnonce: () => string;
  private current: NonceState | undefined;
  private pending: Promise<void> | undefined;
  private signing: DigestMode;

  constructor(options: DigestSessionOptions) {
    const { password } = options;
    this.username = options.username;
    this.secret = () => password;
    this.makeCnonce = options.cnonce ?? createCnonce;
    this.current = undefined;
    this.pending = undefined;
    this.signing = "reuse";
  }

  /** `reuse`, or `fresh` while the server is taken to refuse reused nonces (see {@link DigestMode}). */
  get mode(): DigestMode {
    return this.signing;
  }

  /** The nonce that requests are signed with now, if any. */
  get currentNonce(): string | undefined {
    return this.current?.challenge.nonce;
  }

  /**
   * Sends `request` through `send`, authenticating as needed, and returns the final response. Digest
   * round trips (challenges, stale nonces) happen here and are not retries.
   */
  async perform<R extends DigestResponseLike>(
    request: DigestRequest,
    send: DigestSend<R>,
    events: DigestEvents = {},
  ): Promise<DigestOutcome<R>> {
    const attempt: Attempt = {
      source: this.signing === "fresh" && request.hasBody ? { kind: "own" } : { kind: "session" },
      tries: 0,
      displaced: undefined,
    };
    for (;;) {
      const got = await this.nonceFor(attempt.source, request, send, events);
      if ("outcome" in got) return got.outcome;
      const { state, shared } = got;
      attempt.tries += 1;
      const signed = this.sign(request, state);
      const response = await send(signed.authorization, false);
      if (response.status !== 401) {
        this.accepted(state, signed.nc, shared, attempt, response.headers);
        return { response, rejected: false };
      }
      // Whatever challenge it carries, it says nothing of the nonce: no re-sign, no change of mode.
      if (response.pastAuthentication === true) return { response, rejected: false };

      const challenge = selectDigestChallenge(challengesOf(response.headers));
      if (!challenge) return { response, rejected: true, why: "rejected" };
      // The verdict on the credentials: the first use of a nonce this request holds alone, refused
      // without stale=true (RFC 7616 §3.3). A 401 to a nonce others use may answer their counts.
      if (!challenge.stale && state.alone && state.count === 1) {
        return { response, rejected: true, why: "rejected" };
      }
      if (attempt.tries >= MAX_TRIES) return { response, rejected: true, why: "stale" };
      events.onChallenge?.();
      await response.discard();
      attempt.source = this.refused(state, shared, signed.nc, challenge, attempt);
    }
  }

  /** The nonce for a request's next signed try, fetching one if `source` needs it. */
  private async nonceFor<R extends DigestResponseLike>(
    source: Source,
    request: DigestRequest,
    send: DigestSend<R>,
    events: DigestEvents,
  ): Promise<NonceFor<R>> {
    if (source.kind === "held") return { state: source.state, shared: false };
    for (;;) {
      if (this.current && this.current.count >= MAX_NC) this.current = undefined;
      // In the fallback a request with a body fetches its own challenge, so its body crosses once; a
      // bodyless request tries the nonce that passed last, which costs no more than a challenge when
      // refused and is how the session learns that the refusals were expiries.
      const own = source.kind === "own" || (this.signing === "fresh" && (request.hasBody || !this.current));
      if (!own && this.current) return { state: this.current, shared: true };
      if (!own && this.pending) {
        await this.pending;
        continue;
      }
      const probed = await this.probe(request, send, events, !own);
      if (probed.kind === "done") return { outcome: probed.outcome };
      return { state: probed.state, shared: !own };
    }
  }

  /**
   * Where the next try of a request takes its nonce from after a 401 to `state` (signed at count `nc`)
   * that did not judge the credentials.
   */
  private refused(
    state: NonceState,
    shared: boolean,
    nc: number,
    challenge: DigestChallenge,
    attempt: Attempt,
  ): Source {
    // A 401 that keeps the opaque of a nonce others use ties its nonce to theirs (Apache counts per
    // opaque); without an opaque, or with a new one, its nonce is this request's alone.
    const tied = challenge.opaque !== undefined && challenge.opaque === state.challenge.opaque && shared;
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

  /** Bookkeeping after an accepted answer signed with `state` at count `nc`. */
  private accepted(
    state: NonceState,
    nc: number,
    shared: boolean,
    attempt: Attempt,
    headers: ResponseHeaders,
  ): void {
    if (nc > 1) state.trust = "reusable";
    if (this.signing === "fresh") {
      // Issue 10 #8: two expiries in a row (stale=false) look like a refusal of reuse. A second use that
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

  private sign(request: DigestRequest, state: NonceState): Signed {
    state.count += 1;
    const authorization = buildAuthorization({
      challenge: state.challenge,
      username: this.username,
      password: this.secret(),
      method: request.method,
      uri: request.uri,
      nc: state.count,
      cnonce: this.makeCnonce(),
    });
    return { authorization, nc: state.count };
  }

  /**
   * Fetches a challenge without credentials. With `share`, its nonce becomes the session's and other
   * requests wait for it; without, it is for this request alone.
   */
  private async probe<R extends DigestResponseLike>(
    request: DigestRequest,
    send: DigestSend<R>,
    events: DigestEvents,
    share: boolean,
  ): Promise<ProbeResult<R>> {
    let release: (() => void) | undefined;
    if (share) {
      this.pending = new Promise<void>((resolve) => {
        release = resolve;
      });
    }
    try {
      // A bodyless request is its own probe; a request with a body sends a bodyless GET first, so the
      // body crosses the wire once.
      const first = await send(undefined, request.hasBody);
      if (first.status === 401) return await this.adopt(first, events, share, request.hasBody);
      if (!request.hasBody || first.status === 429 || first.status >= 500) {
        // Unauthenticated access worked (or the server is failing): that answer is the outcome.
        return { kind: "done", outcome: { response: first, rejected: false, probe: request.hasBody } };
      }
      // The GET was not challenged, so this URL may not need credentials: send the request itself.
      await first.discard();
      const real = await send(undefined, false);
      if (real.status === 401) return await this.adopt(real, events, share);
      return { kind: "done", outcome: { response: real, rejected: false } };
    } finally {
      if (release) {
        this.pending = undefined;
        release();
      }
    }
  }

  private async adopt<R extends DigestResponseLike>(
    response: R,
    events: DigestEvents,
    share: boolean,
    probe = false,
  ): Promise<ProbeResult<R>> {
    const challenges = challengesOf(response.headers);
    const challenge = selectDigestChallenge(challenges);
    if (!challenge) {
      return {
        kind: "done",
        outcome: {
          response,
          rejected: true,
          why: "unsupported-challenge",
          offered: describeOffered(challenges),
          probe,
        },
      };
    }
    events.onChallenge?.();
    await response.discard();
    const state = newState(challenge, true);
    if (share) this.current = state;
    return { kind: "state", state };
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
