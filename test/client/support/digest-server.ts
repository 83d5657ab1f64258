/**
 * A real loopback server that speaks digest authentication the way Ops Manager does (MD5, qop=auth,
 * a challenge spelled with `op` as the spec shows it), checks every answer independently of the client
 * code, and records everything that crossed the wire. It can be hostile: expire nonces, refuse nonce
 * reuse, count nonces strictly per `opaque` as Apache httpd's mod_auth_digest does, judge requests out of
 * the order they were sent, and hand requests to a handler that misbehaves.
 *
 * The header parsing and the expected response are the simulator's (simulator/digest.ts). Its nonce
 * bookkeeping is this server's own, because it misbehaves where the simulator's DigestAuthenticator
 * cannot: nonces bound to an `opaque` with Apache's per-client counts, a verdict for each way a request
 * fails (a replay told from a stale nonce or a refused reuse), nonces expired on demand, requests judged
 * out of order, and the spec's `op` spelling in the challenge.
 */
import { randomBytes } from "node:crypto";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { DIGEST_REALM, digestResponse, parseDigestHeader } from "../../../simulator/digest";
import { readBody } from "../../support/http";

/** What the server decided about one request. */
export type Verdict =
  | "open" // auth disabled
  | "challenge" // no Authorization: 401 with a new nonce
  | "accepted"
  | "stale" // right credentials, expired nonce: 401 stale=true
  | "reuse-refused" // refuseReuse and the nonce was already used
  | "replay" // this (nonce, nc) was seen before
  | "nc-out-of-order" // ncPerOpaque: an older nonce, or a count not above the last one accepted
  | "client-unknown" // ncPerOpaque: the opaque's client entry was forgotten (stale=true, new opaque)
  | "unknown-nonce"
  | "bad-digest" // wrong user, password, uri or malformed header
  | "uri-mismatch";

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  body: string;
  authorization: string | undefined;
  contentType: string | undefined;
  accept: string | undefined;
  nonce: string | undefined;
  nc: string | undefined;
  opaque: string | undefined;
  verdict: Verdict;
  /** `performance.now()` when the request had arrived in full: the server's own clock. */
  receivedAt: number;
  /** `performance.now()` when the last byte of its answer was handed to the socket; unset until then. */
  answeredAt: number | undefined;
}

/** Context handed to a handler for an authenticated request. */
export interface HandlerContext {
  body: string;
  /** 1-based count of authenticated requests so far, this one included. */
  count: number;
  server: DigestServer;
}

export type Handler = (
  req: http.IncomingMessage,
  res: http.ServerResponse,
  ctx: HandlerContext,
) => void | Promise<void>;

export interface DigestServerOptions {
  /** Default `true`. `false` lets every request straight through to the handler. */
  auth?: boolean;
  username?: string;
  password?: string;
  /** Nonces older than this are expired. Default: never. */
  nonceTtlMs?: number;
  /**
   * The server's clock, in ms, that ages its nonces against `nonceTtlMs`. Default `Date.now`; a test gives
   * its own (moved by hand, or by requests received) so that expiry by age does not hang on the machine.
   */
  now?: () => number;
  /**
   * Whether an expired nonce is answered `stale=true` (default) or `stale=false`: the Ops Manager spec
   * shows `stale=false`, and no public source says a deployed server ever says `true`.
   */
  staleOnExpiry?: boolean;
  /**
   * Count nonces per `opaque` as Apache httpd's mod_auth_digest does with `AuthDigestNcCheck On` (the
   * 2.4 code Debian ships, modules/aaa/mod_auth_digest.c): a challenge to a request without credentials
   * opens a new client entry with a new opaque. An entry remembers the nonce and count of the last
   * request it accepted; a request passes only with a newer nonce (any count) or the same nonce and a
   * higher count, and only a request that passes changes the entry. A 401 to a request that carried a
   * known opaque keeps it (stale=false) and issues a newer nonce for it; one that carried a forgotten
   * opaque gets a new entry and stale=true. Any nonce issued for an opaque stays valid with it.
   */
  ncPerOpaque?: boolean;
  /**
   * With `ncPerOpaque`, how many client entries fit (Apache's default shared memory holds about 12).
   * Making one more forgets them all first, as Apache's gc drops the oldest entry of every hash
   * bucket, which is nearly every entry when buckets hold one or two. Default: unlimited.
   */
  maxClients?: number;
  /**
   * Hold requests that carry credentials until this many are held (or 10 ms have passed since the first
   * of them arrived), then judge them newest first: requests sent at once on several connections, as a
   * busy server sees them, but the same way every run.
   */
  reorder?: number;
  /** Accept each nonce for one request only (nc=00000001), as a server that refuses reuse. */
  refuseReuse?: boolean;
  /** With `refuseReuse`, say `stale=true` instead of `stale=false` to a reused nonce. */
  refuseReuseSaysStale?: boolean;
  /** Send `Authentication-Info: nextnonce="…"` with every accepted answer. */
  nextNonce?: boolean;
  /** Answers to authenticated requests. Default: 200 `{"ok":true,"method":…,"url":…}`. */
  handler?: Handler;
  /** Serve HTTPS with this key and certificate. */
  tls?: { key: string; cert: string };
  /** Replace the challenge header(s). */
  challenge?: (nonce: string, stale: boolean) => string | string[];
}

export interface DigestServer {
  /** `http://127.0.0.1:<port>` (or https). */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  /** Requests whose (nonce, nc) pair had been seen before. Must stay 0. */
  replays: number;
  /** Every nonce the server issued, in order. */
  issued: string[];
  /** Makes every nonce issued so far expired. */
  expireAll(): void;
  /** Forgets the recorded requests. */
  clearRecords(): void;
  count(verdict: Verdict): number;
  close(): Promise<void>;
}

export const REALM = DIGEST_REALM;
export const DEFAULT_USER = "pubkey-abcdefgh";
export const DEFAULT_PASSWORD = "0b1c6f52-8a5e-4f8e-a1d2-secret-private-key";

/** Starts the server on 127.0.0.1, port 0. */
export async function startDigestServer(options: DigestServerOptions = {}): Promise<DigestServer> {
  const username = options.username ?? DEFAULT_USER;
  const password = options.password ?? DEFAULT_PASSWORD;
  const auth = options.auth ?? true;
  const now = options.now ?? Date.now;
  const nonces = new Map<
    string,
    {
      issuedAt: number;
      seq: number;
      expired: boolean;
      uses: number;
      seen: Set<string>;
      opaque: string | undefined;
    }
  >();
  // ncPerOpaque: each client entry's last accepted nonce (by issue order) and count, by opaque.
  const clients = new Map<string, { seq: number; nc: number }>();
  let opaques = 0;
  let authenticated = 0;

  const issue = (opaque?: string): string => {
    const nonce = randomBytes(24).toString("base64");
    nonces.set(nonce, {
      issuedAt: now(),
      seq: state.issued.length,
      expired: false,
      uses: 0,
      seen: new Set(),
      opaque,
    });
    state.issued.push(nonce);
    return nonce;
  };

  /** The opaque a 401 carries: the request's own if its entry is known, else a new entry's. */
  const opaqueFor = (sent: string | undefined): string | undefined => {
    if (!options.ncPerOpaque) return undefined;
    if (sent !== undefined && clients.has(sent)) return sent;
    if (options.maxClients !== undefined && clients.size >= options.maxClients) clients.clear();
    opaques += 1;
    const opaque = opaques.toString(16);
    clients.set(opaque, { seq: -1, nc: 0 });
    return opaque;
  };

  const challengeHeader = (stale: boolean, opaque: string | undefined): string | string[] => {
    const nonce = issue(opaque);
    if (options.challenge) return options.challenge(nonce, stale);
    const withOpaque = opaque === undefined ? "" : `, opaque="${opaque}"`;
    // Exactly as the Ops Manager spec shows it, `op` included.
    return `Digest realm="${REALM}", domain="", nonce="${nonce}", algorithm=MD5, op="auth", stale=${stale}${withOpaque}`;
  };

  const unauthorized = (res: http.ServerResponse, stale: boolean, sentOpaque: string | undefined): void => {
    const body = JSON.stringify({
      detail: "You are not authorized for this resource.",
      error: 401,
      errorCode: null,
      parameters: [],
      reason: "Unauthorized",
    });
    res.writeHead(401, {
      "www-authenticate": challengeHeader(stale, opaqueFor(sentOpaque)),
      "content-type": "application/json;charset=ISO-8859-1",
      "content-length": Buffer.byteLength(body),
      connection: "keep-alive",
    });
    res.end(body);
  };

  const verify = (req: http.IncomingMessage, rec: RecordedRequest): { verdict: Verdict; nonce?: string } => {
    const header = req.headers.authorization;
    if (!header) return { verdict: "challenge" };
    const p = parseDigestHeader(header);
    rec.opaque = p?.opaque;
    if (!p?.nonce || !p.response || !p.uri || !p.nc || !p.cnonce || p.qop !== "auth")
      return { verdict: "bad-digest" };
    rec.nonce = p.nonce;
    rec.nc = p.nc;
    if (!/^[0-9a-f]{8}$/.test(p.nc)) return { verdict: "bad-digest" };
    if (p.uri !== req.url) return { verdict: "uri-mismatch" };
    const expected = digestResponse({
      username,
      password,
      method: req.method ?? "",
      uri: p.uri,
      nonce: p.nonce,
      nc: p.nc,
      cnonce: p.cnonce,
      qop: "auth",
    });
    if (p.username !== username || p.realm !== REALM || p.response !== expected)
      return { verdict: "bad-digest" };
    const entry = nonces.get(p.nonce);
    if (!entry || entry.opaque !== p.opaque) return { verdict: "unknown-nonce" };
    if (entry.seen.has(p.nc)) return { verdict: "replay" };
    entry.seen.add(p.nc);
    const expired =
      entry.expired || (options.nonceTtlMs !== undefined && now() - entry.issuedAt > options.nonceTtlMs);
    if (expired) return { verdict: "stale" };
    if (options.ncPerOpaque) {
      const client = p.opaque === undefined ? undefined : clients.get(p.opaque);
      if (!client) return { verdict: "client-unknown" };
      const nc = Number.parseInt(p.nc, 16);
      if (entry.seq < client.seq || (entry.seq === client.seq && nc <= client.nc)) {
        return { verdict: "nc-out-of-order" };
      }
      client.seq = entry.seq;
      client.nc = nc;
    }
    if (options.refuseReuse && entry.uses > 0) return { verdict: "reuse-refused" };
    entry.uses += 1;
    return { verdict: "accepted", nonce: p.nonce };
  };

  // reorder: requests waiting to be judged, and the timer that judges a group that stays small.
  let waiting: (() => void)[] = [];
  let flushTimer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const group = waiting.reverse();
    waiting = [];
    // Each resumed request is judged synchronously, so the group is judged in this order.
    for (const resume of group) resume();
  };
  const held = (): Promise<void> =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (waiting.length >= (options.reorder ?? 1)) flush();
      else flushTimer ??= setTimeout(flush, 10);
    });

  const listener = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const receivedAt = performance.now();
    const rec: RecordedRequest = {
      method: req.method ?? "",
      url: req.url ?? "",
      body,
      authorization: req.headers.authorization,
      contentType: req.headers["content-type"],
      accept: req.headers.accept,
      nonce: undefined,
      nc: undefined,
      opaque: undefined,
      verdict: "open",
      receivedAt,
      answeredAt: undefined,
    };
    res.once("finish", () => {
      rec.answeredAt = performance.now();
    });
    state.requests.push(rec);
    if (auth) {
      if (options.reorder !== undefined && req.headers.authorization !== undefined) await held();
      const { verdict } = verify(req, rec);
      rec.verdict = verdict;
      if (verdict === "replay") state.replays += 1;
      if (verdict !== "accepted") {
        const stale =
          (verdict === "stale" && options.staleOnExpiry !== false) ||
          verdict === "client-unknown" ||
          (verdict === "reuse-refused" && options.refuseReuseSaysStale === true);
        unauthorized(res, stale, rec.opaque);
        return;
      }
      if (options.nextNonce) res.setHeader("authentication-info", `nextnonce="${issue()}", qop=auth`);
    }
    authenticated += 1;
    const handler: Handler =
      options.handler ??
      ((rq, rs) => {
        const json = JSON.stringify({ ok: true, method: rq.method, url: rq.url });
        rs.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
        rs.end(json);
      });
    try {
      await handler(req, res, { body, count: authenticated, server: state });
    } catch (error) {
      res.destroy(error as Error);
    }
  };

  const server = options.tls
    ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, (q, r) => void listener(q, r))
    : http.createServer((q, r) => void listener(q, r));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  const state: DigestServer = {
    origin: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    port,
    requests: [],
    replays: 0,
    issued: [],
    expireAll: () => {
      for (const entry of nonces.values()) entry.expired = true;
    },
    clearRecords: () => {
      state.requests.length = 0;
    },
    count: (verdict) => state.requests.filter((r) => r.verdict === verdict).length,
    close: () =>
      new Promise<void>((resolve) => {
        flush();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return state;
}

/** Sends a JSON answer. */
export function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const json = JSON.stringify(value);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(json),
    ...headers,
  });
  res.end(json);
}
