/**
 * Server side of HTTP Digest authentication (RFC 7616, RFC 2617) as the deployed public API does it:
 * MD5, `qop="auth"`, a fixed realm, nonces that expire, and a per-nonce record of the `nc` values used
 * so that replays are refused.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** The realm deployed servers announce. */
export const DIGEST_REALM = "MMS Public API";

/** Default nonce lifetime, as deployed servers do (about 60 s). */
export const DEFAULT_NONCE_LIFETIME_MS = 60_000;

// Nonces are remembered past their lifetime so an expired one is still told from an unknown one; only
// when the table grows large are the oldest forgotten.
const NONCE_TABLE_SOFT_LIMIT = 10_000;
const NONCE_MEMORY_MS = 10 * 60_000;

/** The `WWW-Authenticate` value for a nonce, exactly as deployed servers send it. */
export function formatChallenge(nonce: string, stale: boolean): string {
  return `Digest realm="${DIGEST_REALM}", domain="", nonce="${nonce}", algorithm=MD5, qop="auth", stale=${stale}`;
}

/**
 * The fields of an `Authorization: Digest …` header, names lowercased, quotes and escapes removed.
 * Returns undefined when the header is not a Digest credential.
 *
 * @example parseDigestHeader('Digest username="a", nc=00000001') // { username: "a", nc: "00000001" }
 */
export function parseDigestHeader(header: string | undefined): Record<string, string> | undefined {
  if (header === undefined) return undefined;
  const match = /^\s*Digest\s+/i.exec(header);
  if (!match) return undefined;
  const fields: Record<string, string> = {};
  const re = /\s*([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*(?:,|$)/y;
  re.lastIndex = match[0].length;
  while (re.lastIndex < header.length) {
    const m = re.exec(header);
    if (!m) break;
    const name = (m[1] ?? "").toLowerCase();
    fields[name] = m[2] !== undefined ? m[2].replace(/\\(.)/g, "$1") : (m[3] ?? "");
  }
  return fields;
}

function md5(text: string): string {
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** The expected `response` for qop=auth (RFC 2617 §3.2.2.1). */
export function digestResponse(p: {
  username: string;
  password: string;
  method: string;
  uri: string;
  nonce: string;
  nc: string;
  cnonce: string;
  qop: string;
}): string {
  const ha1 = md5(`${p.username}:${DIGEST_REALM}:${p.password}`);
  const ha2 = md5(`${p.method}:${p.uri}`);
  return md5(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`);
}

/** The outcome of checking one request's credentials. */
export type DigestVerdict =
  | { ok: true; username: string; fields: Record<string, string> }
  | {
      ok: false;
      /** The `WWW-Authenticate` value to answer with (always a fresh nonce). */
      challenge: string;
      /** True when the credentials were right but the nonce had expired. */
      stale: boolean;
      /** Why it failed, for debugging; never contains a secret. */
      reason: string;
      fields?: Record<string, string>;
    };

interface NonceRecord {
  issuedAt: number;
  /** How many requests the server had checked when it issued this nonce. */
  issuedAtRequest: number;
  ncs: Set<number>;
  /** Expired on demand (`expireAll`), whatever its age. */
  expired?: boolean;
}

/** Issues nonces and verifies digest credentials against them. */
export class DigestAuthenticator {
  /** How long a nonce is accepted, in ms. */
  lifetimeMs: number;
  /**
   * How many requests, counted by the server from when a nonce was issued, it is accepted for;
   * `undefined`: no such limit. A lifetime that ages with the traffic, not with a clock.
   */
  lifetimeRequests: number | undefined = undefined;
  /** Requests checked so far. */
  private checked = 0;
  /** When true, each nonce is accepted once, with nc 00000001. */
  refuseReuse = false;
  /**
   * Whether an expired nonce with right credentials is answered `stale=true` (RFC 7616 §3.3, the spec's
   * profile) or, as deployed servers do, `stale=false` like any refused nonce.
   */
  staleOnExpiry = true;
  private readonly nonces = new Map<string, NonceRecord>();
  private readonly passwordOf: (username: string) => string | undefined;
  private readonly now: () => number;

  constructor(passwordOf: (username: string) => string | undefined, lifetimeMs: number, now = Date.now) {
    this.passwordOf = passwordOf;
    this.lifetimeMs = lifetimeMs;
    this.now = now;
  }

  /** A new random nonce, remembered from now. */
  issueNonce(): string {
    const now = this.now();
    if (this.nonces.size >= NONCE_TABLE_SOFT_LIMIT) {
      const horizon = Math.max(this.lifetimeMs * 2, NONCE_MEMORY_MS);
      // The map iterates in the order nonces were issued, oldest first: stop at the first one to keep,
      // so a client that makes thousands of challenges does not cost a scan of the table each time.
      for (const [nonce, record] of this.nonces) {
        if (now - record.issuedAt <= horizon) break;
        this.nonces.delete(nonce);
      }
    }
    const nonce = randomBytes(24).toString("base64");
    this.nonces.set(nonce, { issuedAt: now, issuedAtRequest: this.checked, ncs: new Set() });
    return nonce;
  }

  /**
   * Expires every nonce issued so far, as its lifetime passing would; nonces issued from now on live
   * their lifetime. A test's way to meet an expired nonce without waiting for a clock.
   */
  expireAll(): void {
    for (const record of this.nonces.values()) record.expired = true;
  }

  /** A challenge with a fresh nonce. */
  challenge(stale = false): string {
    return formatChallenge(this.issueNonce(), stale);
  }

  /**
   * Checks an `Authorization` header for a request.
   * @param target the request target as received: path and query string.
   */
  verify(header: string | undefined, method: string, target: string): DigestVerdict {
    this.checked += 1;
    const fields = parseDigestHeader(header);
    const fail = (reason: string, stale = false): DigestVerdict => ({
      ok: false,
      challenge: this.challenge(stale),
      stale,
      reason,
      ...(fields ? { fields } : {}),
    });
    if (!fields) return fail(header === undefined ? "no Authorization header" : "not a Digest credential");
    const { username, realm, nonce, uri, response, nc, cnonce } = fields;
    // The spec's text spells the directive `op`; accept either name.
    const qop = fields.qop ?? fields.op;
    if (username === undefined || nonce === undefined || uri === undefined || response === undefined) {
      return fail("missing username, nonce, uri or response");
    }
    if (realm !== DIGEST_REALM) return fail("wrong realm");
    if (fields.algorithm !== undefined && fields.algorithm.toUpperCase() !== "MD5") {
      return fail("unsupported algorithm");
    }
    if (qop !== "auth" || nc === undefined || cnonce === undefined)
      return fail("qop=auth with nc and cnonce required");
    if (!/^[0-9a-fA-F]{8}$/.test(nc)) return fail("malformed nc");
    if (uri !== target) return fail("uri does not match the request target");
    const password = this.passwordOf(username);
    if (password === undefined) return fail("unknown username");
    const expected = digestResponse({ username, password, method, uri, nonce, nc, cnonce, qop });
    if (!sameText(expected, response.toLowerCase())) return fail("wrong response");
    const record = this.nonces.get(nonce);
    if (!record) return fail("unknown nonce");
    const aged =
      this.lifetimeRequests !== undefined && this.checked - record.issuedAtRequest > this.lifetimeRequests;
    if (record.expired || aged || this.now() - record.issuedAt > this.lifetimeMs) {
      return fail("nonce expired", this.staleOnExpiry);
    }
    const count = Number.parseInt(nc, 16);
    if (this.refuseReuse && (count !== 1 || record.ncs.size > 0)) return fail("nonce reuse refused");
    if (count === 0 || record.ncs.has(count)) return fail("nc replayed");
    record.ncs.add(count);
    return { ok: true, username, fields };
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
