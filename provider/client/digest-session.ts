import { buildAuthorization, createCnonce } from "./digest";
import { type AuthChallenge, parseWwwAuthenticate, selectDigestChallenge } from "./digest-challenge";
import {
  type Attempt,
  MAX_NC,
  MAX_TRIES,
  NonceBook,
  type NonceState,
  newState,
  type OpaqueUse,
  type Source,
} from "./digest-nonces";
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

interface Signed {
  authorization: string;
  /** The nonce count signed. */
  nc: number;
}

type NonceFor<R> = { state: NonceState; shared: boolean } | { outcome: DigestOutcome<R> };

type ProbeResult<R> = { kind: "state"; state: NonceState } | { kind: "done"; outcome: DigestOutcome<R> };

function challengesOf(headers: ResponseHeaders): AuthChallenge[] {
  const value = headers["www-authenticate"];
  return value === undefined ? [] : parseWwwAuthenticate(value);
}

function describeOffered(challenges: readonly AuthChallenge[]): string {
  if (challenges.length === 0) return "no WWW-Authenticate challenge";
  return challenges
    .map((c) => (c.params.algorithm ? `${c.scheme} algorithm=${c.params.algorithm}` : c.scheme))
    .join(", ");
}

/**
 * Digest state shared by every request to one origin as one user; it decides what each request sends,
 * its caller sends it. The first request fetches a challenge while the others wait; after that every
 * request is signed up front with its own nonce count (RFC 7616 §3.6), so N requests cost N + 1 round
 * trips at any concurrency. Which nonce a request signs with after a 401 is ./digest-nonces' to say;
 * docs/servers.md ("The transport: digest authentication") tells how each kind of server is met.
 */
export class DigestSession {
  /** The user name (the public key of an API key, or a user's name). */
  readonly username: string;
  // A closure, so that printing the session does not print the secret.
  private readonly secret: () => string;
  private readonly makeCnonce: () => string;
  private readonly nonces: NonceBook;
  private pending: Promise<void> | undefined;
  /** The challenge fetch that learns what the server's opaque says, while in flight. */
  private learning: Promise<void> | undefined;

  constructor(options: DigestSessionOptions) {
    const { password } = options;
    this.username = options.username;
    this.secret = () => password;
    this.makeCnonce = options.cnonce ?? createCnonce;
    this.nonces = new NonceBook();
    this.pending = undefined;
    this.learning = undefined;
  }

  /** `reuse`, or `fresh` while the server is taken to refuse reused nonces (see {@link DigestMode}). */
  get mode(): DigestMode {
    return this.nonces.signing;
  }

  /** The nonce that requests are signed with now, if any. */
  get currentNonce(): string | undefined {
    return this.nonces.current?.challenge.nonce;
  }

  /** Sends `request` through `send`, authenticating as needed. Its digest round trips are not retries. */
  async perform<R extends DigestResponseLike>(
    request: DigestRequest,
    send: DigestSend<R>,
    events: DigestEvents = {},
  ): Promise<DigestOutcome<R>> {
    const attempt: Attempt = {
      source: this.nonces.signing === "fresh" && request.hasBody ? { kind: "own" } : { kind: "session" },
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
        this.nonces.accepted(state, signed.nc, shared, attempt, response.headers);
        return { response, rejected: false };
      }
      // Whatever challenge it carries, it says nothing of the nonce: no re-sign, no change of mode.
      if (response.pastAuthentication === true) return { response, rejected: false };

      const challenge = selectDigestChallenge(challengesOf(response.headers));
      if (!challenge) return { response, rejected: true, why: "rejected" };
      // Only the first use of a nonce this request holds alone, refused without stale=true (RFC 7616
      // §3.3), judges the credentials: a 401 to a nonce others use may answer their counts.
      if (!challenge.stale && state.alone && state.count === 1) {
        return { response, rejected: true, why: "rejected" };
      }
      if (attempt.tries >= MAX_TRIES) return { response, rejected: true, why: "stale" };
      events.onChallenge?.();
      await response.discard();
      let next = this.nonces.refused(state, shared, signed.nc, challenge, attempt);
      while (next.kind === "learn") {
        const answered = await this.learnOpaques(state, request, send, events);
        if (answered) return answered;
        next = this.nonces.refused(state, shared, signed.nc, challenge, attempt);
      }
      attempt.source = next;
    }
  }

  /** Fetches a challenge to learn the server's {@link OpaqueUse}, others waiting; may answer the request. */
  private async learnOpaques<R extends DigestResponseLike>(
    refused: NonceState,
    request: DigestRequest,
    send: DigestSend<R>,
    events: DigestEvents,
  ): Promise<DigestOutcome<R> | undefined> {
    if (this.learning) {
      await this.learning;
      return undefined;
    }
    let release: () => void = () => {};
    this.learning = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      const probed = await this.probe(request, send, events, false);
      if (probed.kind === "done") return probed.outcome;
      this.nonces.learned(refused, probed.state);
      return undefined;
    } finally {
      this.learning = undefined;
      release();
    }
  }

  private async nonceFor<R extends DigestResponseLike>(
    source: Source,
    request: DigestRequest,
    send: DigestSend<R>,
    events: DigestEvents,
  ): Promise<NonceFor<R>> {
    if (source.kind === "held") return { state: source.state, shared: false };
    for (;;) {
      if (this.nonces.current && this.nonces.current.count >= MAX_NC) this.nonces.current = undefined;
      // In `fresh` mode a request with a body fetches its own challenge, so its body crosses once; a
      // bodyless one tries the nonce that passed last: refused, it costs no more than a challenge, and
      // accepted, it shows the refusals were expiries.
      const own =
        source.kind === "own" ||
        (this.nonces.signing === "fresh" && (request.hasBody || !this.nonces.current));
      if (!own && this.nonces.current) return { state: this.nonces.current, shared: true };
      if (!own && this.pending) {
        await this.pending;
        continue;
      }
      const probed = await this.probe(request, send, events, !own);
      if (probed.kind === "done") return { outcome: probed.outcome };
      return { state: probed.state, shared: !own };
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
    return { authorization, nc: state.count };
  }

  /** Fetches a challenge without credentials; with `share`, the session's nonce, which others wait for. */
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
      // A request with a body sends a bodyless GET first, so that the body crosses the wire once.
      const first = await send(undefined, request.hasBody);
      if (first.status === 401) return await this.adopt(first, events, share, request.hasBody);
      if (!request.hasBody || first.status === 429 || first.status >= 500) {
        // Unauthenticated access worked, or the server is failing: that answer is the outcome.
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
    if (share) this.nonces.current = state;
    return { kind: "state", state };
  }
}
