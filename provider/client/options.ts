/** The client's options, checked eagerly as undici does (an `InvalidArgumentError`), and their defaults. */
import { InvalidArgumentError } from "./errors/invalid-argument-error";
import { isRecord } from "./is-record";
import { packageVersion } from "./package-version";
import { type RetryPolicy, resolveRetryPolicy } from "./retry";
import type { ClientOptions, HttpMethod, SettingNames } from "./types";

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
// setTimeout's largest delay.
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The methods the client sends. */
export const METHODS: readonly HttpMethod[] = ["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE"];

/** {@link ClientOptions} checked, with every default filled in. */
export interface ResolvedOptions {
  baseUrl: string;
  /** The URL a message that suggests another one starts from: `configuredUrl`, else `baseUrl`. */
  shownUrl: string;
  username: string;
  password: string;
  caPem: string | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  retryPolicy: RetryPolicy;
  userAgent: string;
  settingNames: SettingNames;
}

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

/** Checks every option at once; throws an `InvalidArgumentError` naming the first bad one. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  if (!isRecord(options)) throw new InvalidArgumentError("options", "must be an object");
  const baseUrl = resolveBaseUrl(options.baseUrl);
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
  const retryPolicy = resolveRetryPolicy(options.retry);
  if (options.userAgent !== undefined) {
    if (typeof options.userAgent !== "string" || options.userAgent === "") {
      throw new InvalidArgumentError("userAgent", "must be a non-empty string");
    }
    checkHeaderText("userAgent", options.userAgent);
  }
  if (options.settingNames !== undefined) {
    if (!isRecord(options.settingNames)) throw new InvalidArgumentError("settingNames", "must be an object");
    for (const [name, value] of Object.entries(options.settingNames)) {
      if (value !== undefined && (typeof value !== "string" || value === "")) {
        throw new InvalidArgumentError(`settingNames.${name}`, "must be a non-empty string");
      }
    }
  }
  return {
    baseUrl,
    shownUrl: (options.configuredUrl ?? options.baseUrl).trim(),
    username: options.username,
    password: options.password,
    caPem: options.caPem,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    retryPolicy,
    userAgent: options.userAgent ?? defaultUserAgent(),
    settingNames: { ...options.settingNames },
  };
}

function checkPositiveInteger(option: string, value: number | undefined, max: number): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    throw new InvalidArgumentError(option, `must be an integer from 1 to ${max} (got ${String(value)})`);
  }
}

/** Throws when `value`, bound for a request header, holds control characters. */
export function checkHeaderText(option: string, value: string): void {
  // Control characters would break (or inject into) the request headers.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the check is for control characters.
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new InvalidArgumentError(option, "must not contain control characters such as line breaks");
  }
}

/** `pulumi-opsmanager/<version>`, this package's version. */
function defaultUserAgent(): string {
  return `pulumi-opsmanager/${packageVersion()}`;
}
