/**
 * The HTTP client: one undici keep-alive pool and one digest session per client, JSON in and out,
 * retries of what is safe to retry, and every failure turned into one of the errors in `./errors`.
 */
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import * as tls from "node:tls";
import type { Agent, Dispatcher } from "undici";
import {
  type DigestOutcome,
  type DigestResponseLike,
  DigestSession,
  type ResponseHeaders,
} from "./digest-session";
import { ApiError } from "./errors/api-error";
import { AuthenticationError } from "./errors/authentication-error";
import { type CallInfo, quoteSnippet } from "./errors/format";
import { InvalidArgumentError } from "./errors/invalid-argument-error";
import { NetworkError } from "./errors/network-error";
import { ResponseShapeError } from "./errors/response-shape-error";
import { ResponseTooLargeError } from "./errors/response-too-large-error";
import { TimeoutError } from "./errors/timeout-error";
import { TLS_VERIFICATION_CODES, TlsError } from "./errors/tls-error";
import { isRecord } from "./is-record";
import { parseRetryAfter, type RetryPolicy, resolveRetryPolicy, withRetries } from "./retry";
import { SchemeCheck } from "./scheme";
import type {
  ClientOptions,
  ClientStats,
  HttpMethod,
  JsonResponse,
  RequestOptions,
  SettingNames,
} from "./types";
import { undici } from "./undici";

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Error bodies are read only this far: enough for any JSON error or the start of an HTML page. */
const ERROR_BODY_BYTES = 64 * 1024;
const METHODS: readonly HttpMethod[] = ["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"];
// setTimeout's largest delay.
const MAX_TIMEOUT_MS = 2_147_483_647;

/** Codes of failures before anything was written: the server cannot have seen the request. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "EPROTO",
]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * The base URL that request paths are below, as the client uses it: the origin and the path without a
 * trailing slash (`https://om.example.com:8443/api/public/v1.0/` becomes
 * `https://om.example.com:8443/api/public/v1.0`). Throws an `InvalidArgumentError` naming `option`
 * for a URL without an http(s) scheme, with credentials, or with a query or fragment.
 */
export function resolveBaseUrl(baseUrl: string, option = "baseUrl"): string {
  if (typeof baseUrl !== "string" || baseUrl.trim() === "") {
    throw new InvalidArgumentError(option, "must be the server's URL, e.g. https://om.example.com:8443");
  }
  const text = baseUrl.trim();
  // A URL with credentials is never quoted: they would be printed.
  const hasUserInfo = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text);
  const shown = hasUserInfo ? "" : ` (got ${JSON.stringify(text.slice(0, 200))})`;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new InvalidArgumentError(option, `must start with https:// or http://${shown}`);
  }
  if (hasUserInfo) {
    throw new InvalidArgumentError(
      option,
      "must not contain a user name or password; give the credentials as the username and password options",
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(option, `is not a valid URL${shown}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new InvalidArgumentError(option, `must start with https:// or http://${shown}`);
  }
  if (!url.hostname) throw new InvalidArgumentError(option, `must name a host${shown}`);
  if (url.search || text.includes("?")) {
    throw new InvalidArgumentError(option, `must not have a query string${shown}`);
  }
  if (url.hash || text.includes("#"))
    throw new InvalidArgumentError(option, `must not have a fragment${shown}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

function checkPositiveInteger(option: string, value: number | undefined, max: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidArgumentError(option, `must be an integer from 1 to ${max} (got ${String(value)})`);
  }
}

function checkHeaderText(option: string, value: string): void {
  // Control characters would break (or inject into) the request headers.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for control characters.
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new InvalidArgumentError(option, "must not contain control characters such as line breaks");
  }
}

let cachedUserAgent: string | undefined;

/** `pulumi-opsmanager/<version>`, the version read from this package's package.json. */
function defaultUserAgent(): string {
  if (cachedUserAgent === undefined) {
    let version = "unknown";
    let dir = __dirname;
    for (let i = 0; i < 5; i += 1) {
      const file = path.join(dir, "package.json");
      try {
        if (existsSync(file)) {
          const pkg: unknown = JSON.parse(readFileSync(file, "utf8"));
          if (isRecord(pkg) && pkg.name === "pulumi-opsmanager" && typeof pkg.version === "string") {
            version = pkg.version;
            break;
          }
        }
      } catch {
        // An unreadable package.json only costs the version in the User-Agent.
      }
      dir = path.dirname(dir);
    }
    cachedUserAgent = `pulumi-opsmanager/${version}`;
  }
  return cachedUserAgent;
}

/** The codes along an error's `cause` chain, outermost first. */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && isRecord(current); depth += 1) {
    if (typeof current.code === "string") codes.push(current.code);
    current = current.cause;
  }
  return codes;
}

/** The most telling code: a TLS or system code over undici's wrapper codes. */
function pickCode(codes: readonly string[]): string | undefined {
  return (
    codes.find((c) => TLS_VERIFICATION_CODES.includes(c)) ??
    codes.find((c) => !c.startsWith("UND_ERR_") && c !== "ABORT_ERR") ??
    codes[0]
  );
}

interface Exchange extends DigestResponseLike {
  /** Reads the whole body; past `limit` bytes stops, destroys the stream, and throws. */
  readAll(limit: number): Promise<Buffer>;
  /** Reads at most `limit` bytes and drops the rest. */
  readSome(limit: number): Promise<Buffer>;
}

interface Call extends CallInfo {
  method: HttpMethod;
  /** As the caller declared it; `undefined` for the method's own (RFC 9110 §9.2.2). */
  idempotent: boolean | undefined;
  /** The request target: path and query, the digest `uri`. */
  target: string;
  body: string | undefined;
  /** Authorization headers sent for this call, to redact from anything the server sends back. */
  sentAuthorizations: string[];
}

/**
 * An HTTP client for one API root and one user. All requests share one keep-alive pool and one
 * digest session, so N requests cost N + 1 round trips. Use {@link getHttpClient} to share one client
 * per process.
 *
 * @example
 * const client = new HttpClient({ baseUrl: "https://om.example.com:8443", username: pub, password: priv });
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
  // Built on first use: an undici Agent must not be captured by Pulumi's serializer (NOTES.md).
  private agent: Agent | undefined;
  private closed: boolean;
  private readonly scheme: SchemeCheck;

  /** Validates every option at once; throws an `InvalidArgumentError` naming the first bad one. */
  constructor(options: ClientOptions) {
    if (!isRecord(options)) throw new InvalidArgumentError("options", "must be an object");
    this.baseUrl = resolveBaseUrl(options.baseUrl);
    if (options.configuredUrl !== undefined) resolveBaseUrl(options.configuredUrl, "configuredUrl");
    if (typeof options.username !== "string" || options.username === "") {
      throw new InvalidArgumentError("username", "must not be empty (the public key, or a user name)");
    }
    checkHeaderText("username", options.username);
    if (typeof options.password !== "string" || options.password === "") {
      throw new InvalidArgumentError("password", "must not be empty (the private key, or a user's API key)");
    }
    if (options.caPem !== undefined) {
      if (typeof options.caPem !== "string" || !options.caPem.includes("-----BEGIN CERTIFICATE-----")) {
        throw new InvalidArgumentError(
          "caPem",
          "must be the PEM text of one or more certificates (-----BEGIN CERTIFICATE-----…), not a file name",
        );
      }
    }
    checkPositiveInteger("timeoutMs", options.timeoutMs, MAX_TIMEOUT_MS);
    checkPositiveInteger("maxResponseBytes", options.maxResponseBytes, Number.MAX_SAFE_INTEGER);
    if (options.retry !== undefined && !isRecord(options.retry)) {
      throw new InvalidArgumentError("retry", "must be an object");
    }
    this.retryPolicy = resolveRetryPolicy(options.retry);
    if (options.userAgent !== undefined) {
      if (typeof options.userAgent !== "string" || options.userAgent === "") {
        throw new InvalidArgumentError("userAgent", "must be a non-empty string");
      }
      checkHeaderText("userAgent", options.userAgent);
    }
    if (options.settingNames !== undefined) {
      if (!isRecord(options.settingNames))
        throw new InvalidArgumentError("settingNames", "must be an object");
      for (const [name, value] of Object.entries(options.settingNames)) {
        if (value !== undefined && (typeof value !== "string" || value === "")) {
          throw new InvalidArgumentError(`settingNames.${name}`, "must be a non-empty string");
        }
      }
    }

    const { password } = options;
    this.secret = () => password;
    this.origin = new URL(this.baseUrl).origin;
    this.caPem = options.caPem;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.userAgent = options.userAgent ?? defaultUserAgent();
    this.settingNames = { ...options.settingNames };
    this.session = new DigestSession({ username: options.username, password });
    this.stats = { roundTrips: 0, challenges: 0, retries: 0 };
    this.agent = undefined;
    this.closed = false;
    this.scheme = new SchemeCheck({
      baseUrl: (options.configuredUrl ?? options.baseUrl).trim(),
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
   * Sends one request and returns the parsed JSON of a 2xx answer. Retries what is safe to retry.
   * Throws `ApiError` (non-2xx), `AuthenticationError`, `TimeoutError`, `NetworkError`/`TlsError`,
   * `ResponseShapeError`, `ResponseTooLargeError`, or `InvalidArgumentError` for a bad argument.
   */
  async request(options: RequestOptions): Promise<JsonResponse> {
    const call = this.prepare(options);
    const attempt = () =>
      this.attempt(call).catch(async (error: unknown) => {
        throw await this.scheme.explain(error);
      });
    return withRetries(call, this.retryPolicy, attempt, {
      onRetry: () => {
        this.stats.retries += 1;
      },
    });
  }

  /** Closes the connection pool. Requests after this fail. */
  async close(): Promise<void> {
    this.closed = true;
    const agent = this.agent;
    this.agent = undefined;
    if (agent) await agent.close();
  }

  private prepare(options: RequestOptions): Call {
    if (this.closed) throw new InvalidArgumentError("client", "is closed; create a new client");
    if (!isRecord(options)) throw new InvalidArgumentError("request", "must be an object");
    const method = options.method;
    if (!METHODS.includes(method)) {
      throw new InvalidArgumentError(
        "method",
        `must be one of ${METHODS.join(", ")} (got ${String(method)})`,
      );
    }
    const relative = options.path;
    if (typeof relative !== "string" || !relative.startsWith("/")) {
      throw new InvalidArgumentError("path", "must start with / (a path below the API root)");
    }
    if (/[?#]/.test(relative)) {
      throw new InvalidArgumentError("path", "must not contain ? or #; give query parameters as query");
    }
    checkHeaderText("path", relative);
    const url = new URL(this.baseUrl + relative);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value));
    }
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (options.idempotent !== undefined && typeof options.idempotent !== "boolean") {
      throw new InvalidArgumentError("idempotent", "must be true or false");
    }
    return {
      method,
      idempotent: options.idempotent,
      path: relative,
      url: url.href,
      target: `${url.pathname}${url.search}`,
      body,
      sentAuthorizations: [],
    };
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
    if (outcome.rejected) {
      const parsed = this.parseErrorBody(call, await response.readSome(ERROR_BODY_BYTES), response.headers);
      throw new AuthenticationError({
        ...info,
        status: response.status,
        errorCode: parsed.errorCode,
        detail: parsed.detail,
        reason: parsed.reason,
        why: outcome.why,
        offered: outcome.offered === undefined ? undefined : this.redact(outcome.offered, call),
      });
    }
    if (response.status < 200 || response.status >= 300) {
      const parsed = this.parseErrorBody(call, await response.readSome(ERROR_BODY_BYTES), response.headers);
      const location = response.headers.location;
      throw new ApiError({
        ...info,
        status: response.status,
        ...parsed,
        retryAfterMs: parseRetryAfter(response.headers["retry-after"]),
        location: typeof location === "string" ? this.redact(location, call) : undefined,
      });
    }
    const raw = await response.readAll(this.maxResponseBytes);
    return {
      status: response.status,
      headers: response.headers,
      body: this.parseJson(call, response.status, response.headers, raw),
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

  /** One round trip. The timer covers connect, headers and the whole body, until read or discarded. */
  private async send(call: Call, authorization: string | undefined, probe: boolean): Promise<Exchange> {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": this.userAgent };
    if (authorization !== undefined) {
      headers.authorization = authorization;
      call.sentAuthorizations.push(authorization);
    }
    const withBody = !probe && call.body !== undefined;
    if (withBody) headers["content-type"] = "application/json";

    const controller = new AbortController();
    let timedOut = false;
    let body: Dispatcher.ResponseData["body"] | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
      // undici's body timeout restarts with every chunk; a trickling body is cut here.
      body?.destroy();
    }, this.timeoutMs);
    timer.unref();
    const finish = (): void => clearTimeout(timer);
    const fail = (error: unknown): Error => {
      finish();
      return this.transportError(call, error, timedOut, probe);
    };
    const info = callInfo(call, probe);

    this.stats.roundTrips += 1;
    let data: Dispatcher.ResponseData;
    try {
      data = await undici().request.call(this.dispatcher(), {
        origin: this.origin,
        path: call.target,
        method: probe ? "GET" : call.method,
        headers,
        body: withBody ? call.body : undefined,
        signal: controller.signal,
      });
    } catch (error) {
      throw fail(error);
    }
    body = data.body;
    this.scheme.heard();
    const stream = data.body;
    const responseHeaders = data.headers as ResponseHeaders;
    const status = data.statusCode;

    const read = async (limit: number, strict: boolean): Promise<Buffer> => {
      const declared = Number(firstValue(responseHeaders["content-length"]));
      if (strict && Number.isFinite(declared) && declared > limit) {
        stream.destroy();
        finish();
        throw new ResponseTooLargeError({
          ...info,
          status,
          limitBytes: limit,
          contentLength: declared,
        });
      }
      const chunks: Buffer[] = [];
      let total = 0;
      try {
        for await (const chunk of stream) {
          const buffer = chunk as Buffer;
          if (total + buffer.length > limit) {
            // Stop at the cap: a huge body is never buffered.
            stream.destroy();
            if (strict) {
              finish();
              throw new ResponseTooLargeError({ ...info, status, limitBytes: limit });
            }
            chunks.push(buffer.subarray(0, limit - total));
            total = limit;
            break;
          }
          chunks.push(buffer);
          total += buffer.length;
        }
      } catch (error) {
        if (error instanceof ResponseTooLargeError) throw error;
        throw fail(error);
      }
      finish();
      return Buffer.concat(chunks, total);
    };

    if (status === 401 && authorization !== undefined) {
      return this.peekedExchange(call, status, responseHeaders, read(ERROR_BODY_BYTES, false));
    }
    return {
      status,
      headers: responseHeaders,
      discard: async () => {
        try {
          await stream.dump({ limit: ERROR_BODY_BYTES });
        } catch {
          // A body we do not use may fail to drain; the connection is then closed, which is fine.
        } finally {
          finish();
        }
      },
      readAll: (limit) => read(limit, true),
      readSome: (limit) => read(limit, false),
    };
  }

  /**
   * A 401 to a signed request, its body read (up to the error-body cap) before the digest session
   * sees it. A body that names an `errorCode`, the field every `ApiError` carries, was written past
   * authentication: a digest server's own refusal (RFC 7616 §3.3) carries no application error. The
   * session must then not sign the request again (its body would cross twice) nor read the 401 as a
   * refused nonce. The check stays here, not in `api/`, because the session runs inside `request()`
   * and `api/` sees only its outcome; it names no code, and what a code means (a role the caller lacks)
   * is said in `api/` alone.
   */
  private async peekedExchange(
    call: Call,
    status: number,
    headers: ResponseHeaders,
    reading: Promise<Buffer>,
  ): Promise<Exchange> {
    let body: Buffer | undefined;
    let failure: unknown;
    try {
      body = await reading;
    } catch (error) {
      // A body that breaks off fails only a read for the error message; dropping it never failed.
      failure = error;
    }
    const bodyRead = async (limit: number): Promise<Buffer> => {
      if (body === undefined) throw failure;
      return body.subarray(0, limit);
    };
    return {
      status,
      headers,
      pastAuthentication:
        body !== undefined && this.parseErrorBody(call, body, headers).errorCode !== undefined,
      discard: async () => {},
      readAll: bodyRead,
      readSome: bodyRead,
    };
  }

  /** Maps an undici or socket error to a `TimeoutError`, `TlsError` or `NetworkError`. */
  private transportError(call: Call, error: unknown, timedOut: boolean, probe: boolean): Error {
    // A probe's failure says nothing about the real request, which was not sent.
    const mayReachServer = !probe;
    const info = callInfo(call, probe);
    const codes = errorCodes(error);
    const code = pickCode(codes);
    if (timedOut || codes.some((c) => TIMEOUT_CODES.has(c))) {
      const connectOnly = codes.includes("UND_ERR_CONNECT_TIMEOUT");
      return new TimeoutError({
        ...info,
        timeoutMs: this.timeoutMs,
        requestSent: mayReachServer && !connectOnly,
        notSentBecause: probe && !connectOnly ? "challenge" : "connect",
        setting: this.settingNames.timeoutMs,
      });
    }
    const cause = this.sanitizeCause(call, error, code);
    const mismatch = this.scheme.mismatchIn(info, error, code, cause);
    if (mismatch !== undefined) return mismatch;
    if (code !== undefined && TLS_VERIFICATION_CODES.includes(code)) {
      return new TlsError({
        ...info,
        causeCode: code,
        causeMessage: cause.message,
        cause,
        setting: this.settingNames.caPem ?? "caPem",
      });
    }
    const sent = mayReachServer && !(code !== undefined && NOT_SENT_CODES.has(code));
    return new NetworkError({
      ...info,
      causeCode: code,
      causeMessage: cause.message,
      requestSent: sent,
      cause,
      baseUrlSetting: this.settingNames.baseUrl,
    });
  }

  /** A copy of the failure with name, code and message only: never the request or its headers. */
  private sanitizeCause(call: Call, error: unknown, code: string | undefined): Error {
    const message = this.redact(
      isRecord(error) && typeof error.message === "string" ? error.message : String(error),
      call,
    );
    const copy = new Error(message);
    copy.name = isRecord(error) && typeof error.name === "string" ? error.name : "Error";
    if (code !== undefined) Object.assign(copy, { code });
    // The stack would point into undici internals and says nothing to a user.
    copy.stack = `${copy.name}: ${message}`;
    return copy;
  }

  /**
   * Removes the password and every Authorization header this call sent (as sent, JSON-escaped, or
   * HTML-escaped) from text a server sent back, and any digest `response=` hash.
   */
  private redact(text: string, call?: Call): string {
    let out = text;
    for (const value of [...(call?.sentAuthorizations ?? []), this.secret()]) {
      const forms = new Set([value, JSON.stringify(value).slice(1, -1), escapeHtml(value)]);
      for (const form of forms) out = out.split(form).join("[redacted]");
    }
    // The hashes themselves are hex, which no escaping or URL-encoding changes: removing them by value
    // also catches an echo escaped twice, or quoted inside a redirect's URL.
    for (const header of call?.sentAuthorizations ?? []) {
      const hash = /response\s*=\s*"?([0-9a-f]{32,64})/i.exec(header)?.[1];
      if (hash !== undefined) out = out.split(hash).join("[redacted]");
    }
    return out.replace(/(response\s*=\s*(?:\\?["'])?)[0-9a-f]{32,64}/gi, "$1[redacted]");
  }

  private decode(raw: Buffer, headers: ResponseHeaders): string {
    const type = firstValue(headers["content-type"]) ?? "";
    const charset = /charset\s*=\s*"?([\w-]+)/i.exec(type)?.[1]?.toLowerCase();
    const latin1 = charset === "iso-8859-1" || charset === "latin1" || charset === "us-ascii";
    return raw.toString(latin1 ? "latin1" : "utf8");
  }

  private parseErrorBody(
    call: Call,
    raw: Buffer,
    headers: ResponseHeaders,
  ): { errorCode?: string; detail?: string; reason?: string; parameters?: unknown[]; bodySnippet?: string } {
    // The body goes into an error message: a hostile or buggy server may echo credentials back.
    const text = this.redact(this.decode(raw, headers), call);
    if (text.trim() === "") return {};
    if (/^\s*[{[]/.test(text)) {
      try {
        const json: unknown = JSON.parse(text);
        if (isRecord(json)) {
          return {
            errorCode: typeof json.errorCode === "string" ? json.errorCode : undefined,
            detail: typeof json.detail === "string" ? json.detail : undefined,
            reason: typeof json.reason === "string" ? json.reason : undefined,
            parameters: Array.isArray(json.parameters) ? json.parameters : undefined,
          };
        }
      } catch {
        // Not JSON after all: quoted below.
      }
    }
    const type = firstValue(headers["content-type"])?.split(";")[0]?.trim();
    return { bodySnippet: `${type ? `${type} ` : ""}${quoteSnippet(text)}` };
  }

  private parseJson(call: Call, status: number, headers: ResponseHeaders, raw: Buffer): unknown {
    if (raw.length === 0) return undefined;
    const text = this.decode(raw, headers);
    if (text.trim() === "") return undefined;
    const type = firstValue(headers["content-type"])?.split(";")[0]?.trim().toLowerCase();
    if (type !== undefined && type !== "" && !/^application\/([\w.-]+\+)?json$/.test(type)) {
      throw new ResponseShapeError({
        ...callInfo(call),
        status,
        description: `the body is ${type}, not JSON${type === "text/html" ? " (a proxy or login page, perhaps)" : ""}`,
        bodySnippet: quoteSnippet(this.redact(text, call)),
      });
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      const why = error instanceof Error ? ` (${this.redact(error.message, call).slice(0, 120)})` : "";
      throw new ResponseShapeError({
        ...callInfo(call),
        status,
        description: `the body is not valid JSON${why}`,
        bodySnippet: quoteSnippet(this.redact(text, call)),
      });
    }
  }
}

/**
 * Only what an error may carry: never the request body or headers. For a probe, the bodyless GET that
 * fetched the challenge, which is what failed, with the method of the request that was not sent.
 */
function callInfo(call: Call, probe = false): CallInfo {
  if (probe) return { method: "GET", path: call.path, url: call.url, probeFor: call.method };
  return { method: call.method, path: call.path, url: call.url };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
