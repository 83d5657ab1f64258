/**
 * Telling a base URL of the wrong scheme (plain HTTP to a TLS port, or TLS to a plain one) from a
 * failing server: it fails on every attempt, so it is named at once rather than retried.
 */
import * as net from "node:net";
import * as tls from "node:tls";
import { ApiError } from "./errors/api-error";
import type { CallInfo } from "./errors/format";
import { NetworkError } from "./errors/network-error";
import { SchemeMismatchError } from "./errors/scheme-mismatch-error";
import { TLS_VERIFICATION_CODES, TlsError } from "./errors/tls-error";
import { isRecord } from "./is-record";

// OpenSSL's reading of a plain HTTP answer ("HTTP/1.1 400 …") as a TLS record header.
const PLAIN_ANSWER_CODES = new Set(["ERR_SSL_WRONG_VERSION_NUMBER", "ERR_SSL_PACKET_LENGTH_TOO_LONG"]);
const PLAIN_ANSWER_TEXT = /wrong version number|packet length too long/i;
/** What nginx and Go's HTTPS servers answer, with a 400, to a plain HTTP request. */
const PLAIN_TO_TLS_PAGE = /plain HTTP request was sent to HTTPS port|HTTP request to an HTTPS server/i;

// RFC 8446 §5.1: a TLS record starts with its content type (21 alert, 22 handshake) and the major
// version 3, which no HTTP status line does.
function looksLikeTls(data: unknown): boolean {
  if (typeof data !== "string" || data.length < 2) return false;
  const type = data.charCodeAt(0);
  return (type === 0x15 || type === 0x16) && data.charCodeAt(1) === 0x03;
}

/** The errors along a `cause` chain, outermost first. */
function chain(error: unknown): Record<string, unknown>[] {
  const errors: Record<string, unknown>[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && isRecord(current); depth += 1) {
    errors.push(current);
    current = current.cause;
  }
  return errors;
}

/**
 * The scheme the server speaks when `error` (undici's or the socket's) shows it is not `protocol`:
 * `https` when a plain request got TLS bytes back, `http` when a TLS handshake got a plain answer.
 */
function serverSchemeFromError(protocol: string, error: unknown): "http" | "https" | undefined {
  const errors = chain(error);
  if (protocol === "http:") {
    // undici's parser keeps the bytes it could not read as HTTP in `data`.
    return errors.some((e) => looksLikeTls(e.data)) ? "https" : undefined;
  }
  const plain = errors.some(
    (e) =>
      (typeof e.code === "string" && PLAIN_ANSWER_CODES.has(e.code)) ||
      (typeof e.message === "string" && PLAIN_ANSWER_TEXT.test(e.message)),
  );
  return plain ? "http" : undefined;
}

/**
 * Whether the server at `origin` completes a TLS handshake. A certificate that does not verify still
 * proves the server speaks TLS, so verification stays on. Nothing is sent over the connection.
 */
function speaksTls(origin: string, ca: string[] | undefined, timeoutMs: number): Promise<boolean> {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve) => {
    const socket = tls.connect({
      host,
      port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
      // RFC 6066 §3: no server name for an IP address.
      ...(net.isIP(host) === 0 ? { servername: host } : {}),
      ...(ca ? { ca } : {}),
    });
    const done = (speaks: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(speaks);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    timer.unref();
    socket.once("secureConnect", () => done(true));
    socket.once("error", (error: NodeJS.ErrnoException) =>
      done(chain(error).some((e) => typeof e.code === "string" && TLS_VERIFICATION_CODES.includes(e.code))),
    );
    socket.once("close", () => done(false));
  });
}

/**
 * `baseUrl` with the scheme `to`, the same host, port and path: `http://om:8443` becomes
 * `https://om:8443`; a port that was the old scheme's default is kept (`http://om` → `https://om:80`).
 */
function withScheme(baseUrl: string, to: "http" | "https"): string {
  const url = new URL(baseUrl);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  const shownPort = port === (to === "https" ? "443" : "80") ? "" : `:${port}`;
  return `${to}://${url.hostname}${shownPort}${url.pathname.replace(/\/+$/, "")}`;
}

/** What {@link SchemeCheck} needs of its client. */
export interface SchemeCheckOptions {
  /** The base URL as given (it carries no credentials). */
  baseUrl: string;
  /** The origin requests go to. */
  origin: string;
  /** The base URL setting, as the user knows it. */
  setting: string | undefined;
  /** The CA certificates the client trusts, `undefined` for Node's own. */
  ca: () => string[] | undefined;
  /** Longest wait for a TLS handshake. */
  timeoutMs: number;
}

/**
 * One client's view of whether its base URL has the scheme the server speaks. Some mismatches show in
 * the failure itself ({@link mismatchIn}); a plain-HTTP request that a TLS server closed without a word
 * looks like any dropped connection until a TLS handshake tells them apart ({@link explain}), tried
 * until the server is heard answering HTTP.
 */
export class SchemeCheck {
  private readonly options: SchemeCheckOptions;
  private readonly protocol: string;
  private known: boolean;

  constructor(options: SchemeCheckOptions) {
    this.options = options;
    this.protocol = new URL(options.origin).protocol;
    this.known = false;
  }

  /** The server answered HTTP: its scheme is the URL's. */
  heard(): void {
    this.known = true;
  }

  /** A {@link SchemeMismatchError} when the raw transport `error` shows the server speaks the other scheme. */
  mismatchIn(
    call: CallInfo,
    error: unknown,
    causeCode: string | undefined,
    cause: Error,
  ): SchemeMismatchError | undefined {
    const serverScheme = serverSchemeFromError(this.protocol, error);
    if (serverScheme === undefined) return undefined;
    return new SchemeMismatchError({
      ...call,
      causeCode,
      cause,
      serverScheme,
      suggestedBaseUrl: withScheme(this.options.baseUrl, serverScheme),
      baseUrlSetting: this.options.setting,
    });
  }

  /**
   * `error` (a failed attempt's) as a scheme mismatch when it turns out to be one: a connection closed
   * before any answer by a server that completes a TLS handshake, or a TLS front end's 400 page (nginx,
   * Go) that says a plain request reached it. Otherwise `error` itself.
   */
  async explain(error: unknown): Promise<unknown> {
    if (this.protocol !== "http:") return error;
    const suggestedBaseUrl = withScheme(this.options.baseUrl, "https");
    if (
      error instanceof ApiError &&
      error.status === 400 &&
      PLAIN_TO_TLS_PAGE.test(error.bodySnippet ?? "")
    ) {
      const setting = this.options.setting ?? "baseUrl";
      return error.withHint(`the server speaks HTTPS: use ${suggestedBaseUrl} as the base URL (${setting})`);
    }
    const closed =
      error instanceof NetworkError &&
      !(error instanceof TlsError || error instanceof SchemeMismatchError) &&
      (error.causeCode === "UND_ERR_SOCKET" || error.causeCode === "ECONNRESET");
    if (!closed || this.known) return error;
    if (!(await speaksTls(this.options.origin, this.options.ca(), this.options.timeoutMs))) {
      this.known = true;
      return error;
    }
    // The failed attempt's own call: the bodyless challenge request, when that is what failed.
    const failed: CallInfo = {
      method: error.method,
      path: error.path,
      url: error.url,
      probeFor: error.probeFor,
    };
    return new SchemeMismatchError({
      ...failed,
      serverScheme: "https",
      suggestedBaseUrl,
      baseUrlSetting: this.options.setting,
      cause: error,
    });
  }
}
