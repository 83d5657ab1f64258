/** HTTP Digest answers (RFC 7616, RFC 2617) as pure functions: the response, the `Authorization` header. */
import { hash, randomUUID } from "node:crypto";
import type { DigestAlgorithm, DigestChallenge } from "./digest-challenge";

/** Inputs of {@link computeDigest}. */
export interface DigestInput {
  algorithm: DigestAlgorithm;
  username: string;
  password: string;
  realm: string;
  nonce: string;
  /** Nonce count, 8 lower-case hex digits, e.g. `00000001`. Ignored without qop. */
  nc: string;
  /** Client nonce. Ignored without qop. */
  cnonce: string;
  /** `auth`, or `undefined` for the RFC 2069 form. */
  qop: "auth" | undefined;
  method: string;
  /** The request target, query string included. */
  uri: string;
  /** Whether the header carries a hashed user name; A1 still uses the real one (RFC 7616 §3.4.4). */
  userhash?: boolean;
}

/** Fields of a Digest `Authorization` header. */
export interface AuthorizationFields {
  username: string;
  realm: string;
  nonce: string;
  uri: string;
  algorithm: DigestAlgorithm;
  response: string;
  qop?: "auth" | undefined;
  nc?: string | undefined;
  cnonce?: string | undefined;
  opaque?: string | undefined;
  /** `true` when `username` is already the hash H(username:realm). */
  userhash?: boolean | undefined;
}

function hasher(algorithm: DigestAlgorithm): (text: string) => string {
  const name = algorithm.startsWith("SHA-256") ? "sha256" : "md5";
  // One-shot: no Hash object per value.
  return (text) => hash(name, text, "hex");
}

/**
 * The `response` value of a Digest answer (RFC 7616 §3.4.1–3.4.3; RFC 2069 when `qop` is undefined).
 *
 * @example
 * computeDigest({ algorithm: "MD5", username: "Mufasa", password: "Circle Of Life",
 *   realm: "testrealm@host.com", nonce: "dcd98b7102dd2f0e8b11d0f600bfb0c093", nc: "00000001",
 *   cnonce: "0a4f113b", qop: "auth", method: "GET", uri: "/dir/index.html" })
 * // "6629fae49393a05397450978507c4ef1" (RFC 2617 §3.5)
 */
export function computeDigest(input: DigestInput): string {
  const H = hasher(input.algorithm);
  let ha1 = H(`${input.username}:${input.realm}:${input.password}`);
  if (input.algorithm.endsWith("-sess")) {
    // RFC 7616 §3.4.2: the session variant hashes in both nonces.
    ha1 = H(`${ha1}:${input.nonce}:${input.cnonce}`);
  }
  const ha2 = H(`${input.method}:${input.uri}`);
  if (input.qop === undefined) return H(`${ha1}:${input.nonce}:${ha2}`);
  return H(`${ha1}:${input.nonce}:${input.nc}:${input.cnonce}:${input.qop}:${ha2}`);
}

/** The user name as sent when the challenge asks for `userhash` (RFC 7616 §3.4.4). */
export function hashUsername(algorithm: DigestAlgorithm, username: string, realm: string): string {
  return hasher(algorithm)(`${username}:${realm}`);
}

/** A nonce count as 8 lower-case hex digits (RFC 7616 §3.4). */
export function formatNc(count: number): string {
  return count.toString(16).padStart(8, "0");
}

/**
 * A random client nonce: a version 4 UUID's 122 random bits, as 32 hex digits. `randomUUID` draws on an
 * entropy cache that Node refills in batches, so a signed request does not call the CSPRNG each time.
 */
export function createCnonce(): string {
  return randomUUID().replaceAll("-", "");
}

function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

/**
 * A Digest `Authorization` header value.
 *
 * @example
 * `Digest username="Mufasa", realm="…", nonce="…", uri="/dir/index.html", algorithm=MD5,
 *  response="…", qop=auth, nc=00000001, cnonce="…"`
 */
export function formatAuthorization(fields: AuthorizationFields): string {
  // RFC 7616 §3.4: a user name that cannot go in a quoted string is sent as username* (RFC 5987).
  const user = /^[\x20-\x7e]*$/.test(fields.username)
    ? `username=${quote(fields.username)}`
    : `username*=UTF-8''${encodeURIComponent(fields.username)}`;
  const parts = [
    user,
    `realm=${quote(fields.realm)}`,
    `nonce=${quote(fields.nonce)}`,
    `uri=${quote(fields.uri)}`,
    `algorithm=${fields.algorithm}`,
    `response=${quote(fields.response)}`,
  ];
  if (fields.qop) {
    parts.push(`qop=${fields.qop}`, `nc=${fields.nc ?? formatNc(1)}`, `cnonce=${quote(fields.cnonce ?? "")}`);
  }
  if (fields.opaque !== undefined) parts.push(`opaque=${quote(fields.opaque)}`);
  if (fields.userhash) parts.push("userhash=true");
  return `Digest ${parts.join(", ")}`;
}

/** What {@link buildAuthorization} signs. */
export interface SignInput {
  challenge: DigestChallenge;
  username: string;
  password: string;
  method: string;
  uri: string;
  /** The nonce count to use, from 1. */
  nc: number;
  cnonce?: string;
}

/** Computes the response for `challenge` and formats the whole `Authorization` header value. */
export function buildAuthorization(input: SignInput): string {
  const { challenge } = input;
  const nc = formatNc(input.nc);
  const cnonce = input.cnonce ?? createCnonce();
  const response = computeDigest({
    algorithm: challenge.algorithm,
    username: input.username,
    password: input.password,
    realm: challenge.realm,
    nonce: challenge.nonce,
    nc,
    cnonce,
    qop: challenge.qop,
    method: input.method,
    uri: input.uri,
  });
  return formatAuthorization({
    username: challenge.userhash
      ? hashUsername(challenge.algorithm, input.username, challenge.realm)
      : input.username,
    realm: challenge.realm,
    nonce: challenge.nonce,
    uri: input.uri,
    algorithm: challenge.algorithm,
    response,
    qop: challenge.qop,
    nc: challenge.qop ? nc : undefined,
    cnonce: challenge.qop ? cnonce : undefined,
    opaque: challenge.opaque,
    userhash: challenge.userhash,
  });
}
