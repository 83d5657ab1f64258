/** Digest challenges (RFC 7235 §4.1, RFC 7616 §3.3) parsed, and the one this client can answer picked. */

/** Algorithms this client computes. */
export type DigestAlgorithm = "MD5" | "MD5-sess" | "SHA-256" | "SHA-256-sess";

/** One challenge of a `WWW-Authenticate` header. */
export interface AuthChallenge {
  /** The scheme, lower case: `digest`, `basic`, … */
  scheme: string;
  /** Parameters, names in lower case and values unquoted; an `op` (the spec's spelling) is put as `qop`. */
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
