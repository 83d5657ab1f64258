/**
 * HTTP Digest authentication (RFC 7616, RFC 2617) as pure functions: parse challenges, compute the
 * response, format the `Authorization` header. No I/O and no state; {@link DigestSession} holds state.
 */
import { hash, randomUUID } from "node:crypto";

/** Algorithms this client computes. */
export type DigestAlgorithm = "MD5" | "MD5-sess" | "SHA-256" | "SHA-256-sess";

/** One challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** The scheme, lower case: `digest`, `basic`, … */
  scheme: string;
  /**
   * Parameters with lower-case names and unquoted values. The quality-of-protection directive is
   * always under `qop`, also when the server spelled it `op` (as the Ops Manager spec shows it).
   */
  params: Record<string, string>;
  /** A token68 credential instead of parameters (e.g. `Negotiate abc==`). */
  token68?: string;
}

/** A Digest challenge this client can answer. */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  algorithm: DigestAlgorithm;
  /** `auth`, or `undefined` for a legacy RFC 2069 challenge without qop. */
  qop: "auth" | undefined;
  opaque: string | undefined;
  /** The server says the credentials were right and the nonce has expired (RFC 7616 §3.3). */
  stale: boolean;
  /** The server wants the user name hashed (RFC 7616 §3.4.4). */
  userhash: boolean;
}

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
  /**
   * Whether the header carries a hashed user name. It does not change the response: A1 always uses
   * the real user name (RFC 7616 §3.4.4).
   */
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

// RFC 7230 §3.2.6 tchar.
const TOKEN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;
const WHITESPACE = /[ \t]*/y;

function matchAt(re: RegExp, text: string, pos: number): string | undefined {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m ? m[0] : undefined;
}

function skipSpace(text: string, pos: number): number {
  return pos + (matchAt(WHITESPACE, text, pos)?.length ?? 0);
}

/** Reads a quoted-string starting at the opening quote; returns its value and the position after it. */
function readQuoted(text: string, start: number): [string, number] {
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "\\" && i + 1 < text.length) {
      value += text[i + 1];
      i += 2;
    } else if (ch === '"') {
      return [value, i + 1];
    } else {
      value += ch;
      i += 1;
    }
  }
  // An unterminated string runs to the end: lenient, the server's bug should not hide its challenge.
  return [value, i];
}

/** Reads an unquoted parameter value: everything up to a comma or whitespace. */
function readBare(text: string, start: number): [string, number] {
  let i = start;
  while (i < text.length && text[i] !== "," && text[i] !== " " && text[i] !== "\t") i += 1;
  return [text.slice(start, i), i];
}

/** Whether `name=` follows at `pos` (an auth-param), as opposed to a new challenge's scheme. */
function paramAhead(text: string, pos: number): boolean {
  const name = matchAt(TOKEN, text, pos);
  if (!name) return false;
  const after = skipSpace(text, pos + name.length);
  return text[after] === "=";
}

function normalize(challenge: AuthChallenge): AuthChallenge {
  const { params } = challenge;
  // The Ops Manager spec shows the directive as `op`; deployed servers send `qop`.
  if (params.qop === undefined && params.op !== undefined) {
    params.qop = params.op;
    delete params.op;
  }
  return challenge;
}

/** Parses one header value (RFC 7235 §4.1: a comma-separated list of challenges). */
function parseOne(text: string, into: AuthChallenge[]): void {
  let pos = 0;
  let current: AuthChallenge | undefined;
  while (pos < text.length) {
    pos = skipSpace(text, pos);
    if (text[pos] === ",") {
      pos += 1;
      continue;
    }
    if (pos >= text.length) break;
    if (current && paramAhead(text, pos)) {
      const name = matchAt(TOKEN, text, pos) as string;
      pos = skipSpace(text, pos + name.length) + 1;
      pos = skipSpace(text, pos);
      const [value, next] = text[pos] === '"' ? readQuoted(text, pos) : readBare(text, pos);
      current.params[name.toLowerCase()] = value;
      pos = next;
      continue;
    }
    const scheme = matchAt(TOKEN, text, pos);
    if (!scheme) {
      // Not a token where a scheme or parameter should start: skip to the next list element.
      const comma = text.indexOf(",", pos);
      pos = comma < 0 ? text.length : comma + 1;
      continue;
    }
    current = { scheme: scheme.toLowerCase(), params: {} };
    into.push(current);
    pos = skipSpace(text, pos + scheme.length);
    if (!paramAhead(text, pos)) {
      const token68 = matchAt(TOKEN68, text, pos);
      if (token68) {
        const after = skipSpace(text, pos + token68.length);
        if (after >= text.length || text[after] === ",") {
          current.token68 = token68;
          pos = after;
        }
      }
    }
  }
}

/**
 * Every challenge in one or more `WWW-Authenticate` header values, in order.
 *
 * @example
 * parseWwwAuthenticate('Basic realm="x", Digest realm="MMS Public API", nonce="n", algorithm=MD5, op="auth"')
 * // [{ scheme: "basic", params: { realm: "x" } },
 * //  { scheme: "digest", params: { realm: "MMS Public API", nonce: "n", algorithm: "MD5", qop: "auth" } }]
 */
export function parseWwwAuthenticate(headers: string | readonly string[]): AuthChallenge[] {
  const list = typeof headers === "string" ? [headers] : headers;
  const challenges: AuthChallenge[] = [];
  for (const header of list) parseOne(header, challenges);
  return challenges.map(normalize);
}

/** The parameters of an `Authentication-Info` header (RFC 7616 §3.5), e.g. `nextnonce`. */
export function parseAuthenticationInfo(header: string): Record<string, string> {
  // The header is a bare parameter list; parse it as the parameters of a dummy scheme.
  const [challenge] = parseWwwAuthenticate(`x ${header}`);
  return challenge?.params ?? {};
}

const ALGORITHMS: Record<string, DigestAlgorithm> = {
  md5: "MD5",
  "md5-sess": "MD5-sess",
  "sha-256": "SHA-256",
  "sha-256-sess": "SHA-256-sess",
};

/**
 * The Digest challenge among `challenges` this client can answer: the first Digest challenge with a
 * supported algorithm and qop (RFC 7616 §3.7: servers list challenges in order of preference).
 */
export function selectDigestChallenge(challenges: readonly AuthChallenge[]): DigestChallenge | undefined {
  for (const c of challenges) {
    if (c.scheme !== "digest") continue;
    const { params } = c;
    const algorithm = ALGORITHMS[(params.algorithm ?? "MD5").toLowerCase()];
    if (!algorithm || params.nonce === undefined) continue;
    let qop: "auth" | undefined;
    if (params.qop !== undefined) {
      const offered = params.qop.split(",").map((q) => q.trim().toLowerCase());
      // auth-int would need the body's hash; every server that offers it also offers auth.
      if (!offered.includes("auth")) continue;
      qop = "auth";
    }
    return {
      realm: params.realm ?? "",
      nonce: params.nonce,
      algorithm,
      qop,
      opaque: params.opaque,
      stale: (params.stale ?? "").toLowerCase() === "true",
      userhash: (params.userhash ?? "").toLowerCase() === "true",
    };
  }
  return undefined;
}

function hasher(algorithm: DigestAlgorithm): (text: string) => string {
  const name = algorithm.startsWith("SHA-256") ? "sha256" : "md5";
  // One-shot: no Hash object per value (three per signed request).
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
 * A random client nonce: the 122 random bits of a version 4 UUID from the system's CSPRNG, as 32 hex
 * digits. `randomUUID` draws its entropy from a cache Node refills in batches (its documented
 * `disableEntropyCache` option), so a signed request does not ask the CSPRNG each time.
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
