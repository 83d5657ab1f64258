import * as tls from "node:tls";
import type { Agent, Dispatcher } from "undici";
import { abortReason } from "./abort-scope";
import { ERROR_BODY_BYTES, parseErrorBody, parseJsonBody } from "./body";
import { type Call, callInfo, prepareCall } from "./call";
import { DigestSession } from "./digest-session";
import type { DigestOutcome, ResponseHeaders } from "./digest-types";
import { AbortedError } from "./errors/aborted-error";
import { ApiError } from "./errors/api-error";
import { AuthenticationError } from "./errors/authentication-error";
import { InvalidArgumentError } from "./errors/invalid-argument-error";
import { type Exchange, openExchange, peekedExchange, type RoundTrip, RoundTripTimer } from "./exchange";
import { resolveOptions } from "./options";
import { redact } from "./redact";
import { Refusals } from "./refusals";
import { parseRetryAfter, type RetryPolicy, withRetries } from "./retry";
import { SchemeCheck } from "./scheme";
import { transportError } from "./transport-errors";
import type { ClientOptions, ClientStats, JsonResponse, RequestOptions, SettingNames } from "./types";
import { undici } from "./undici";

/**
 * An HTTP client for one base URL and one user. All requests share one keep-alive pool and one
 * digest session, so N requests cost N + 1 round trips. Use {@link getHttpClient} to share one client
 * per process.
 *
 * @example
 * const client = new HttpClient({ baseUrl: "https://om.example.com:8443/api/public/v1.0", username: pub, password: priv });
 * const { body } = await client.request({ method: "GET", path: `/orgs/${orgId}/apiKeys`, query: { pageNum: 1 } });
 */
export class HttpClient {
  /** The URL request paths are below, e.g. `https://om.example.com:8443/api/public/v1.0`. */
  readonly baseUrl: string;
  /** What crossed the wire so far. */
  readonly stats: ClientStats;
  private readonly origin: string;
  private readonly secret: () => string;
  private readonly caPem: string | undefined;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly userAgent: string;
  private readonly settingNames: SettingNames;
  private readonly session: DigestSession;
  // Built on first use: Pulumi's serializer cannot capture an undici Agent (pulumi/pulumi#5294).
  private agent: Agent | undefined;
  private closed: boolean;
  private readonly scheme: SchemeCheck;
  private readonly refusals: Refusals;

  /** Validates every option at once; throws an `InvalidArgumentError` naming the first bad one. */
  constructor(options: ClientOptions) {
    const resolved = resolveOptions(options);
    const { password } = resolved;
    this.baseUrl = resolved.baseUrl;
    this.secret = () => password;
    this.origin = new URL(this.baseUrl).origin;
    this.caPem = resolved.caPem;
    this.timeoutMs = resolved.timeoutMs;
    this.maxResponseBytes = resolved.maxResponseBytes;
    this.retryPolicy = resolved.retryPolicy;
    this.userAgent = resolved.userAgent;
    this.settingNames = resolved.settingNames;
    this.session = new DigestSession({ username: resolved.username, password });
    this.stats = { roundTrips: 0, challenges: 0, retries: 0 };
    this.agent = undefined;
    this.closed = false;
    this.refusals = new Refusals();
    this.scheme = new SchemeCheck({
      baseUrl: resolved.shownUrl,
      origin: this.origin,
      setting: this.settingNames.baseUrl,
      ca: () => this.trustedCas(),
      timeoutMs: Math.min(this.timeoutMs, 5_000),
    });
  }

  /** Whether {@link close} was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** `reuse` (one nonce for many requests), or `fresh` while the server is taken to refuse reuse. */
  get digestMode(): "reuse" | "fresh" {
    return this.session.mode;
  }

  /**
   * Sends one request and returns the parsed JSON of a 2xx answer, retrying what is safe to retry (see
   * {@link RequestOptions.idempotent}). Throws `ApiError` (non-2xx), `AuthenticationError`,
   * `TimeoutError`, `NetworkError`/`TlsError`, `ResponseShapeError`, `ResponseTooLargeError`, or
   * `InvalidArgumentError` for a bad argument.
   */
  async request(options: RequestOptions): Promise<JsonResponse> {
    if (this.closed) throw new InvalidArgumentError("client", "is closed; create a new client");
    const call = prepareCall(this.baseUrl, options);
    return withRetries(call, this.retryPolicy, (index) => this.explainedAttempt(call, index), {
      onRetry: () => {
        this.stats.retries += 1;
      },
      refusals: this.refusals,
      signal: call.signal,
    });
  }

  /** Closes the connection pool. Requests after this fail. */
  async close(): Promise<void> {
    this.closed = true;
    const agent = this.agent;
    this.agent = undefined;
    if (agent) await agent.close();
  }

  private async explainedAttempt(call: Call, index: number): Promise<JsonResponse> {
    // An abort stops any attempt from starting, whether the call's attempts may be cut or not.
    if (call.signal?.aborted) {
      throw new AbortedError({
        ...callInfo(call),
        reason: abortReason(call.signal),
        requestSent: false,
        attemptsBefore: index,
      });
    }
    try {
      return await this.attempt(call);
    } catch (error) {
      throw await this.scheme.explain(error);
    }
  }

  private async attempt(call: Call): Promise<JsonResponse> {
    const outcome: DigestOutcome<Exchange> = await this.session.perform(
      { method: call.method, uri: call.target, hasBody: call.body !== undefined },
      (authorization, probe) => this.send(call, authorization, probe),
      {
        onChallenge: () => {
          this.stats.challenges += 1;
        },
      },
    );
    const { response } = outcome;
    const info = callInfo(call, outcome.probe === true);
    const clean = (text: string) => this.redact(text, call);
    if (outcome.rejected) {
      const parsed = parseErrorBody(await response.readSome(ERROR_BODY_BYTES), response.headers, clean);
      throw new AuthenticationError({
        ...info,
        status: response.status,
        errorCode: parsed.errorCode,
        detail: parsed.detail,
        reason: parsed.reason,
        why: outcome.why,
        offered: outcome.offered === undefined ? undefined : clean(outcome.offered),
      });
    }
    if (response.status < 200 || response.status >= 300) {
      const parsed = parseErrorBody(await response.readSome(ERROR_BODY_BYTES), response.headers, clean);
      const location = response.headers.location;
      throw new ApiError({
        ...info,
        status: response.status,
        ...parsed,
        retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
        location: typeof location === "string" ? clean(location) : undefined,
      });
    }
    const raw = await response.readAll(this.maxResponseBytes);
    return {
      status: response.status,
      headers: response.headers,
      body: parseJsonBody(callInfo(call), response.status, response.headers, raw, clean),
      url: call.url,
    };
  }

  // Private CAs are added to Node's roots, never in place of them and never by turning checks off.
  private trustedCas(): string[] | undefined {
    return this.caPem === undefined ? undefined : [...tls.rootCertificates, this.caPem];
  }

  private dispatcher(): Agent {
    if (this.closed) throw new InvalidArgumentError("client", "is closed; create a new client");
    if (!this.agent) {
      const ca = this.trustedCas();
      const slack = 1_000;
      this.agent = new (undici().Agent)({
        connect: { timeout: this.timeoutMs, ...(ca ? { ca } : {}) },
        // The per-attempt timer is the real deadline; these only back it up.
        headersTimeout: this.timeoutMs + slack,
        bodyTimeout: this.timeoutMs + slack,
      });
    }
    return this.agent;
  }

  private async send(call: Call, authorization: string | undefined, probe: boolean): Promise<Exchange> {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": this.userAgent };
    if (authorization !== undefined) {
      headers.authorization = authorization;
      call.sentAuthorizations.push(authorization);
    }
    const withBody = !probe && call.body !== undefined;
    if (withBody) headers["content-type"] = "application/json";

    const cut = call.cutOnAbort ? call.signal : undefined;
    if (cut?.aborted) {
      throw new AbortedError({ ...callInfo(call, probe), reason: abortReason(cut), requestSent: false });
    }
    const timer = new RoundTripTimer(this.timeoutMs);
    this.stats.roundTrips += 1;
    let data: Dispatcher.ResponseData;
    try {
      data = await undici().request.call(this.dispatcher(), {
        origin: this.origin,
        path: call.target,
        method: probe ? "GET" : call.method,
        headers,
        body: withBody ? call.body : undefined,
        signal: cut === undefined ? timer.signal : AbortSignal.any([timer.signal, cut]),
      });
    } catch (error) {
      timer.finish();
      throw this.transportError(call, error, timer, probe);
    }
    timer.watch(data.body);
    this.scheme.heard();
    this.refusals.answered();
    const trip: RoundTrip = {
      call,
      probe,
      status: data.statusCode,
      headers: data.headers as ResponseHeaders,
      stream: data.body,
      timer,
    };
    const fail = (error: unknown) => this.transportError(call, error, timer, probe);
    const exchange = openExchange(trip, fail);
    if (trip.status === 401 && authorization !== undefined) {
      return peekedExchange(exchange, (text) => this.redact(text, call), call.pastAuthentication);
    }
    return exchange;
  }

  private transportError(call: Call, error: unknown, timer: RoundTripTimer, probe: boolean): Error {
    if (call.cutOnAbort && call.signal?.aborted && !timer.timedOut) {
      return new AbortedError({
        ...callInfo(call, probe),
        reason: abortReason(call.signal),
        requestSent: !probe,
      });
    }
    return transportError(error, {
      info: callInfo(call, probe),
      probe,
      timedOut: timer.timedOut,
      timeoutMs: this.timeoutMs,
      settingNames: this.settingNames,
      scheme: this.scheme,
      clean: (text) => this.redact(text, call),
    });
  }

  /** `text` from the server without this client's password or anything `call` sent to authenticate. */
  private redact(text: string, call: Call): string {
    return redact(text, { password: this.secret(), authorizations: call.sentAuthorizations });
  }
}
