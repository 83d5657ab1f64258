/** What a {@link DigestSession} exchanges with its caller, who does the I/O through {@link DigestSend}. */

/** Response headers as undici gives them: lower-case names. */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** What the session needs to see of a response. */
export interface DigestResponseLike {
  status: number;
  headers: ResponseHeaders;
  /**
   * Set on a 401 to a signed request that the server wrote after taking the credentials (a caller
   * without the role, say): the outcome, since signing the request again would only send it again.
   */
  pastAuthentication?: boolean;
  /** Reads and drops the body, so the connection can be reused. */
  discard(): Promise<void>;
}

/** The request being authenticated. */
export interface DigestRequest {
  method: string;
  /** The request target, query string included: the digest `uri`. */
  uri: string;
  /** Whether the request has a body (then challenges are fetched with a bodyless GET). */
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
      /**
       * `rejected`: the first use of a nonce this request held alone was refused: wrong credentials;
       * `stale`: even such a nonce was called stale; `unsupported-challenge`: none could be answered.
       */
      why: "rejected" | "stale" | "unsupported-challenge";
      /** The schemes the server offered, when none could be answered. */
      offered?: string;
    }
) & {
  /** The response answers the bodyless GET that fetches a challenge; the request itself was not sent. */
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
 * How the session signs: `reuse` keeps one nonce for every request (RFC 7616 §3.6); `fresh`, after the
 * server refused the second use of a nonce it had just issued, fetches a challenge for each request
 * with a body (so that the body crosses once) and signs a bodyless one with the nonce that passed last,
 * going back to `reuse` when the server accepts that.
 */
export type DigestMode = "reuse" | "fresh";
