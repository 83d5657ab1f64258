/**
 * A request with a body is preceded by a bodyless GET that fetches the digest challenge, so that the
 * body crosses the wire once. When that GET fails, the request itself was never sent: the error names
 * the GET, says the request was not sent, and the failure is retried as a GET's would be. Against one
 * plain loopback server whose answer to a request without credentials each test sets.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { apiRoot } from "../../provider/api/api-root";
import { ApiError, HttpClient, NetworkError, TimeoutError } from "../../provider/client";
import type { ClientOptions } from "../../provider/client/types";

interface Seen {
  method: string;
  url: string;
  signed: boolean;
  body: string;
  status: number;
}

const CHALLENGE =
  'Digest realm="MMS Public API", domain="", nonce="bm9uY2UtY2hhbGxlbmdlLXJlcXVlc3Q=", algorithm=MD5, qop="auth", stale=false';
const ROOT = "/api/public/v1.0";

let server: http.Server;
let origin: string;
let seen: Seen[] = [];
/** How the server answers a request without credentials; by default, with the challenge. */
let bare: (res: http.ServerResponse, count: number) => void = challenge;
let clients: HttpClient[] = [];

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function challenge(res: http.ServerResponse): void {
  json(
    res,
    401,
    { detail: "You are not authorized for this resource.", error: 401, reason: "Unauthorized" },
    {
      "www-authenticate": CHALLENGE,
    },
  );
}

function makeClient(options: Partial<ClientOptions> = {}): HttpClient {
  const client = new HttpClient({
    baseUrl: apiRoot(origin),
    username: "pub-challenge",
    password: "priv-challenge-0f6e",
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 4 },
    ...options,
  });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry: Seen = {
        method: req.method ?? "",
        url: req.url ?? "",
        signed: req.headers.authorization !== undefined,
        body: Buffer.concat(chunks).toString("utf8"),
        status: 0,
      };
      seen.push(entry);
      res.on("finish", () => {
        entry.status = res.statusCode;
      });
      // The digest answer itself is checked by the other client suites; here only its presence counts.
      if (!entry.signed) bare(res, seen.filter((s) => !s.signed).length);
      else json(res, req.method === "POST" ? 201 : 200, { id: "5f00000000000000000000cc" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  seen = [];
  bare = challenge;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the bodyless GET that fetches the challenge for a request with a body", () => {
  it.each(["POST", "PATCH"] as const)(
    "answered 500 before a %s, fails naming that GET, says the request itself was not sent, and sends nothing more",
    async (method) => {
      bare = (res) =>
        json(res, 500, {
          detail: "Unexpected error.",
          error: 500,
          errorCode: "UNEXPECTED_ERROR",
          reason: "Internal Server Error",
        });
      const client = makeClient();
      const error = await client
        .request({ method, path: "/groups/g1/jobs", body: { a: 1 } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 500,
        errorCode: "UNEXPECTED_ERROR",
        detail: "Unexpected error.",
        method: "GET",
        requestSent: false,
      });
      const message = (error as Error).message;
      expect(message).toMatch(
        new RegExp(
          `^GET /groups/g1/jobs \\(the bodyless request that fetches the authentication challenge, sent before the ${method}\\) failed: 500 UNEXPECTED_ERROR — Unexpected error\\.`,
        ),
      );
      expect(message).toContain(`the ${method} itself was not sent, so the server did not act on it`);
      expect(message).not.toContain("may have");
      expect(message.endsWith(`the ${method} itself was not sent, so the server did not act on it`)).toBe(
        true,
      );
      expect(error).toMatchObject({ path: "/groups/g1/jobs", url: `${origin}${ROOT}/groups/g1/jobs` });
      // A GET answered 500 is not retried, and the request with the body never crossed the wire.
      expect(seen.map((s) => [s.method, s.status])).toEqual([["GET", 500]]);
    },
  );

  it("answered 502, is retried as a GET would be, and the POST then crosses the wire once", async () => {
    bare = (res, count) =>
      count === 1 ? json(res, 502, { error: 502, reason: "Bad Gateway" }) : challenge(res);
    const client = makeClient();
    const res = await client.request({ method: "POST", path: "/groups/g1/jobs", body: { a: 1 } });
    expect(res.status).toBe(201);
    expect(seen.map((s) => [s.method, s.signed, s.status])).toEqual([
      ["GET", false, 502],
      ["GET", false, 401],
      ["POST", true, 201],
    ]);
    expect(seen.filter((s) => s.body !== "").map((s) => s.body)).toEqual(['{"a":1}']);
    expect(client.stats.retries).toBe(1);
  });

  it("whose connection breaks, fails naming that GET and saying the POST was not sent", async () => {
    bare = (res) => res.socket?.destroy();
    const client = makeClient();
    const error = await client
      .request({ method: "POST", path: "/groups/g1/jobs", body: { a: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ method: "GET", requestSent: false });
    const message = (error as Error).message;
    expect(message).toMatch(
      /^GET \/groups\/g1\/jobs \(the bodyless request that fetches the authentication challenge, sent before the POST\) failed: /,
    );
    expect(message).toContain("the POST itself was not sent, so the server did not act on it");
    expect(message).not.toContain("may have");
    // Nothing was sent but GETs, so each attempt was safe to make.
    expect(seen.map((s) => s.method)).toEqual(["GET", "GET", "GET", "GET"]);
  });

  it("that times out, fails naming that GET and saying the POST was not sent", async () => {
    bare = () => undefined;
    const client = makeClient({ timeoutMs: 200, retry: { maxAttempts: 1 } });
    const error = await client
      .request({ method: "POST", path: "/groups/g1/jobs", body: { a: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ method: "GET", requestSent: false });
    const message = (error as Error).message;
    expect(message).toMatch(
      /^GET \/groups\/g1\/jobs \(the bodyless request that fetches the authentication challenge, sent before the POST\) timed out: no complete response within 200 ms; the POST itself was not sent, so the server did not act on it; /,
    );
    expect(message).not.toContain("may have");
    expect(seen.map((s) => s.method)).toEqual(["GET"]);
  });
});
