import type { CallInfo } from "./errors/format";
import { NetworkError } from "./errors/network-error";
import { TimeoutError } from "./errors/timeout-error";
import { TLS_VERIFICATION_CODES, TlsError } from "./errors/tls-error";
import { isRecord } from "./is-record";
import type { SchemeCheck } from "./scheme";
import type { SettingNames } from "./types";

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

/** What the mapping needs to know of the round trip that failed. */
export interface FailedRoundTrip {
  /** The call as an error may show it (the probe's, when the probe failed). */
  info: CallInfo;
  /** The bodyless GET that fetches a challenge failed, not the request itself. */
  probe: boolean;
  /** The client's own timer cut the round trip. */
  timedOut: boolean;
  timeoutMs: number;
  settingNames: SettingNames;
  scheme: SchemeCheck;
  /** Redacts the call's secrets from the cause's message. */
  clean(text: string): string;
}

/**
 * An undici or socket error as a `TimeoutError`, `SchemeMismatchError`, `TlsError` or `NetworkError`
 * that says whether the request may have reached the server, its cause reduced to name, code and message.
 */
export function transportError(error: unknown, trip: FailedRoundTrip): Error {
  const { info, probe } = trip;
  // A probe's failure says nothing about the real request, which was not sent.
  const mayReachServer = !probe;
  const codes = errorCodes(error);
  const code = pickCode(codes);
  if (trip.timedOut || codes.some((c) => TIMEOUT_CODES.has(c))) {
    const connectOnly = codes.includes("UND_ERR_CONNECT_TIMEOUT");
    return new TimeoutError({
      ...info,
      timeoutMs: trip.timeoutMs,
      requestSent: mayReachServer && !connectOnly,
      notSentBecause: probe && !connectOnly ? "challenge" : "connect",
      setting: trip.settingNames.timeoutMs,
    });
  }
  const cause = sanitizeCause(error, code, trip.clean);
  const mismatch = trip.scheme.mismatchIn(info, error, code, cause);
  if (mismatch !== undefined) return mismatch;
  if (code !== undefined && TLS_VERIFICATION_CODES.includes(code)) {
    return new TlsError({
      ...info,
      causeCode: code,
      causeMessage: cause.message,
      cause,
      setting: trip.settingNames.caPem ?? "caPem",
    });
  }
  const sent = mayReachServer && !(code !== undefined && NOT_SENT_CODES.has(code));
  return new NetworkError({
    ...info,
    causeCode: code,
    causeMessage: cause.message,
    requestSent: sent,
    cause,
    baseUrlSetting: trip.settingNames.baseUrl,
  });
}

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

/** A copy of the failure with name, code and message only: never the request or its headers. */
function sanitizeCause(error: unknown, code: string | undefined, clean: (text: string) => string): Error {
  const message = clean(isRecord(error) && typeof error.message === "string" ? error.message : String(error));
  const copy = new Error(message);
  copy.name = isRecord(error) && typeof error.name === "string" ? error.name : "Error";
  if (code !== undefined) Object.assign(copy, { code });
  // The stack would point into undici internals and says nothing to a user.
  copy.stack = `${copy.name}: ${message}`;
  return copy;
}
