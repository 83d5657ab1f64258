/** The transport's public types. */

/** HTTP methods the client sends. */
export type HttpMethod = "GET" | "HEAD" | "POST" | "PATCH" | "PUT" | "DELETE";

/** Retry policy. Delays are exponential with full jitter; `Retry-After` is honoured when present. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 8. */
  maxAttempts?: number;
  /** First backoff delay in ms. Default 250. */
  baseDelayMs?: number;
  /** Largest backoff delay in ms. Default 10_000. A server's `Retry-After` is not cut to it. */
  maxDelayMs?: number;
  /** Total time budget for all attempts and waits of one request, in ms. Default 120_000. */
  maxElapsedMs?: number;
}

/** Options of one {@link HttpClient}. Validated eagerly by the constructor (an `InvalidArgumentError`). */
export interface ClientOptions {
  /**
   * The URL that request paths are below, e.g. `https://om.example.com:8443/api/public/v1.0`: http or
   * https, no credentials, no query or fragment; a trailing slash is dropped.
   */
  baseUrl: string;
  /**
   * The URL as the user configured it, when {@link baseUrl} was derived from it: a message suggesting
   * another URL (`https://` for `http://`) suggests it in this form. Default: `baseUrl`.
   */
  configuredUrl?: string;
  /** Digest user part: the public key of an API key, or a user name. */
  username: string;
  /** Digest secret: the private key of an API key, or a user's API key. Never printed. */
  password: string;
  /** PEM text (not a file name) of one or more CA certificates, added to Node's default trust store. */
  caPem?: string;
  /** Time allowed for one attempt (connect, headers and the whole body), in ms. Default 30_000. */
  timeoutMs?: number;
  /** Largest response body read, in bytes. Default 32 MiB. */
  maxResponseBytes?: number;
  retry?: RetryOptions;
  /** `User-Agent` header. Default `pulumi-opsmanager/<version>`. */
  userAgent?: string;
  /**
   * The names the user sets these options by, so that an error message says what to change and where.
   * Default: the option names (`baseUrl`, `caPem`, `timeoutMs`).
   *
   * @example { caPem: "opsmanager:caCertificate (or OPSMANAGER_CA_CERTIFICATE)" }
   */
  settingNames?: SettingNames;
}

/** The names a user knows the client's settings by; see {@link ClientOptions.settingNames}. */
export interface SettingNames {
  /** The setting that gives the server's URL. */
  baseUrl?: string;
  /** The setting that gives the PEM of a private certificate authority (a file's path, say). */
  caPem?: string;
  /** The setting that gives the time allowed for one attempt. */
  timeoutMs?: string;
}

/** One request, relative to the API root. */
export interface RequestOptions {
  method: HttpMethod;
  /** Path below the API root, starting with `/`, each segment already percent-encoded. */
  path: string;
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** JSON body; sent with `Content-Type: application/json`. */
  body?: unknown;
  /**
   * Whether sending the request twice has the effect of sending it once, so that a failure after it was
   * sent may be retried. Default: the method's (RFC 9110 §9.2.2), so GET, HEAD, PUT and DELETE. A PATCH
   * that sets fields to the values it carries may declare `true`.
   */
  idempotent?: boolean;
  /**
   * Which 401 answers to a signed request were written past authentication, judged from the error body:
   * such a 401 is the outcome (an `ApiError`), never signed again nor read as a refused nonce. Default:
   * every 401 is authentication's.
   */
  pastAuthentication?: (answer: ErrorAnswer) => boolean;
  /**
   * Whether the abort signal of the scope the request is made in (see `withAbortSignal`) cuts an
   * attempt in flight. Default `true`. `false` for a request whose effect could not be found again were
   * its answer lost: an abort then stops it only before an attempt starts and between attempts.
   */
  cutOnAbort?: boolean;
}

/** What an error answer's body says, as {@link RequestOptions.pastAuthentication} sees it. */
export interface ErrorAnswer {
  errorCode?: string;
  detail?: string;
  reason?: string;
}

/** A successful (2xx) answer. */
export interface JsonResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, or `undefined` for an empty body. */
  body: unknown;
  /** The absolute URL requested (no credentials in it). */
  url: string;
}

/** Counters of what crossed the wire, for tests and benchmarks. */
export interface ClientStats {
  /** HTTP requests sent (every round trip, challenges and retries included). */
  roundTrips: number;
  /** 401 challenges received and answered. */
  challenges: number;
  /** Retries after a retryable failure. */
  retries: number;
}
