/**
 * Digest authentication state for one (origin, user name): the current nonce and its nonce count, and
 * the one challenge fetch in flight. It decides what each request sends; the caller does the I/O.
 */
import {
  type AuthChallenge,
  buildAuthorization,
  createCnonce,
  type DigestChallenge,
  parseAuthenticationInfo,
  parseWwwAuthenticate,
  selectDigestChallenge,
} from "./digest";

/** Response headers as undici gives them: lower-case names. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** What the session needs to see of a response. */
export interface DigestResponseLike {
  status: number;
  headers: ResponseHeaders;
  /** Reads and drops the body, so the connection can be reused. */
  discard(): Promise<void>;
}

/** The request being authenticated. */
export interface DigestRequest {
  method: string;
  /** The request target, query string included: the digest `uri`. */
  uri: string;
  /** Whether the request has a body (then challenges are fetched with a bodyless GET, not with it). */
  hasBody: boolean;
}

/**
 * Sends the request once. `authorization` is the header value, or `undefined` to send none. `probe`
 * asks for a bodyless `GET` to the same URL instead of the request itself, to fetch a challenge.
 */
export type DigestSend<R extends DigestResponseLike> = (
  authorization: string | undefined,
  probe: boolean,
) => Promise<R>;

/** The final response of {@link DigestSession.perform}. */
export type DigestOutcome<R> = (
  | { response: R; rejected: false }
  | {
      response: R;
      /** The response is a 401 that authentication could not get past. */
      rejected: true;
      why: "rejected" | "unsupported-challenge";
      /** The schemes the server offered, when none could be answered. */
      offered?: string;
    }
) & {
  /**
   * The response answers the bodyless GET sent to fetch a challenge for a request with a body, not
   * the request itself, which was not sent.
   */
  probe?: boolean;
};

/** Callbacks for counting what crossed the wire. */
export interface DigestEvents {
  /** A 401 carrying a Digest challenge was received and will be answered. */
  onChallenge?(): void;
}

/** Options of a {@link DigestSession}. */
export interface DigestSessionOptions {
  username: string;
  password: string;
  /** Client nonce source. Default: {@link createCnonce}, 122 random bits from the CSPRNG as 32 hex digits. */
  cnonce?: () => string;
}

/**
 * How the session signs: `reuse` keeps one nonce for every request (RFC 7616 §3.6), `fresh` fetches a
 * challenge for each request, after the server was seen to refuse a reused nonce.
 */
export type DigestMode = "reuse" | "fresh";

interface NonceState {
  challenge: DigestChallenge;
  /** Nonce counts handed out so far; the next request uses count + 1. */
  count: number;
  /** The nonce came from a 401 challenge (not from `nextnonce`). */
  fromChallenge: boolean;
}

interface Signed {
  authorization: string;
  /** First use of a nonce fresh from a challenge: a 401 to it means the credentials are wrong. */
  fresh: boolean;
}

type ProbeResult<R> = { kind: "state"; state: NonceState } | { kind: "done"; outcome: DigestOutcome<R> };

// RFC 7616 §3.4: nc is 8 hex digits; past that, fetch a new nonce.
const MAX_NC = 0xffffffff;

function newState(challenge: DigestChallenge, fromChallenge: boolean): NonceState {
  return { challenge, count: 0, fromChallenge };
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
 * - A 401 with `stale=true` adopts the new nonce (once, if no other request already did) and retries.
 * - A 401 to a reused nonce is answered once with the nonce of that 401; if that passes, the server
 *   refuses reuse and the session switches to a fresh challenge per request.
 * - A 401 to the first use of a nonce fresh from a challenge means the credentials are wrong.
 */
export class DigestSession {
  /** The user name (the public key of an API key, or a user's name). */
  readonly username: string;
  // A closure, so that printing the session does not print the secret.
  private readonly secret: () => string;
  private readonly makeCnonce: () => string;
  private current: NonceState | undefined;
  private pending: Promise<void> | undefined;
  private freshPerRequest: boolean;

  constructor(options: DigestSessionOptions) {
    const { password } = options;
    this.username = options.username;
    this.secret = () => password;
    this.makeCnonce = options.cnonce ?? createCnonce;
    this.current = undefined;
    this.pending = undefined;
    this.freshPerRequest = false;
  }

  /** `reuse` until the server is seen to refuse a reused nonce, then `fresh`. */
  get mode(): DigestMode {
    return this.freshPerRequest ? "fresh" : "reuse";
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
    // A nonce taken from a 401 to this request, for exactly one use by it.
    let reserved: NonceState | undefined;
    let reservedByRechallenge = false;
    let staleRetried = false;
    let rechallenged = false;
    for (;;) {
      let state: NonceState;
      if (reserved) {
        state = reserved;
        reserved = undefined;
      } else {
        if (this.current && this.current.count >= MAX_NC) this.current = undefined;
        if (!this.freshPerRequest && this.current) {
          state = this.current;
        } else if (!this.freshPerRequest && this.pending) {
          await this.pending;
          continue;
        } else {
          const probed = await this.probe(request, send, events);
          if (probed.kind === "done") return probed.outcome;
          reserved = probed.state;
          continue;
        }
      }
      const byRechallenge = reservedByRechallenge;
      reservedByRechallenge = false;

      const signed = this.sign(request, state);
      const response = await send(signed.authorization, false);
      if (response.status !== 401) {
        if (byRechallenge) {
          // The reused nonce was refused and a fresh one passed: this server wants one nonce per request.
          this.freshPerRequest = true;
          this.current = undefined;
        }
        this.takeNextNonce(response.headers, state);
        return { response, rejected: false };
      }

      const challenges = challengesOf(response.headers);
      const challenge = selectDigestChallenge(challenges);
      if (!challenge) {
        return { response, rejected: true, why: "rejected" };
      }
      if (challenge.stale && !staleRetried) {
        // RFC 7616 §3.3: stale=true means the credentials were right and the nonce expired.
        staleRetried = true;
        events.onChallenge?.();
        await response.discard();
        const next = newState(challenge, true);
        if (this.freshPerRequest) reserved = next;
        else if (this.current === state || this.current === undefined) this.current = next;
        // Otherwise another request already adopted a newer nonce: sign again with that one.
        continue;
      }
      if (!signed.fresh && !rechallenged) {
        // A reused (or nextnonce) nonce was refused; answer this 401's nonce once before judging.
        rechallenged = true;
        events.onChallenge?.();
        await response.discard();
        reserved = newState(challenge, true);
        reservedByRechallenge = !this.freshPerRequest;
        continue;
      }
      return { response, rejected: true, why: "rejected" };
    }
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
    return { authorization, fresh: state.fromChallenge && state.count === 1 };
  }

  /** Fetches a challenge without credentials; in `reuse` mode other requests wait for it. */
  private async probe<R extends DigestResponseLike>(
    request: DigestRequest,
    send: DigestSend<R>,
    events: DigestEvents,
  ): Promise<ProbeResult<R>> {
    let release: (() => void) | undefined;
    if (!this.freshPerRequest) {
      this.pending = new Promise<void>((resolve) => {
        release = resolve;
      });
    }
    try {
      // A bodyless request is its own probe; a request with a body sends a bodyless GET first, so the
      // body crosses the wire once.
      const first = await send(undefined, request.hasBody);
      if (first.status === 401) return await this.adopt(first, events, request.hasBody);
      if (!request.hasBody || first.status === 429 || first.status >= 500) {
        // Unauthenticated access worked (or the server is failing): that answer is the outcome.
        return { kind: "done", outcome: { response: first, rejected: false, probe: request.hasBody } };
      }
      // The GET was not challenged, so this URL may not need credentials: send the request itself.
      await first.discard();
      const real = await send(undefined, false);
      if (real.status === 401) return await this.adopt(real, events);
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
    if (!this.freshPerRequest) this.current = state;
    return { kind: "state", state };
  }

  /** RFC 7616 §3.5: `Authentication-Info: nextnonce="…"` names the nonce to use next. */
  private takeNextNonce(headers: ResponseHeaders, used: NonceState): void {
    const info = firstHeader(headers["authentication-info"]);
    if (!info || this.freshPerRequest || this.current !== used) return;
    const next = parseAuthenticationInfo(info).nextnonce;
    if (!next || next === used.challenge.nonce) return;
    this.current = newState({ ...used.challenge, nonce: next, stale: false }, false);
  }
}
