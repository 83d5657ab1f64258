import * as util from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoot } from "../../provider/api/api-root";
import {
  ApiError,
  AuthenticationError,
  HttpClient,
  InvalidArgumentError,
  NetworkError,
  OpsManagerError,
  ResponseShapeError,
  ResponseTooLargeError,
  SchemeMismatchError,
  TimeoutError,
  TlsError,
} from "../../provider/client";
import type { ClientOptions } from "../../provider/client/types";
import { makeTestCa } from "../support/tls";
import {
  DEFAULT_PASSWORD,
  DEFAULT_USER,
  type DigestServer,
  sendJson,
  startDigestServer,
} from "./support/digest-server";

let server: DigestServer;
let tlsServer: DigestServer;
const clients: HttpClient[] = [];

beforeAll(async () => {
  const pki = makeTestCa();
  tlsServer = await startDigestServer({ tls: { key: pki.serverKey, cert: pki.serverCert } });
  server = await startDigestServer({
    handler: (req, res) => {
      const url = req.url ?? "";
      // A hostile server that echoes the credentials and the Authorization header back.
      const echo = `auth was ${req.headers.authorization}; password ${DEFAULT_PASSWORD}`;
      if (url.endsWith("/api-error"))
        sendJson(res, 400, { detail: echo, errorCode: "INVALID_ATTRIBUTE", reason: echo });
      else if (url.endsWith("/html")) {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(`<html>${echo}</html>`);
      } else if (url.endsWith("/html-error")) {
        res.writeHead(500, { "content-type": "text/html" });
        res.end(`<html>${echo}</html>`);
      } else if (url.endsWith("/bad-json")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`{"x": "${echo}"`);
      } else if (url.endsWith("/large")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(`"${echo}${"x".repeat(4096)}"`);
      } else if (url.endsWith("/drop")) res.socket?.destroy();
      else if (url.endsWith("/hang")) return;
      else sendJson(res, 200, {});
    },
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.close();
  await tlsServer.close();
});

function makeClient(options: Partial<ClientOptions> = {}): HttpClient {
  const c = new HttpClient({
    baseUrl: apiRoot(server.origin),
    username: DEFAULT_USER,
    password: DEFAULT_PASSWORD,
    // Long enough for a TLS handshake on a loaded machine: only /hang is meant to time out, and it
    // has a short timeout of its own.
    timeoutMs: 10_000,
    maxResponseBytes: 1024,
    retry: { maxAttempts: 1 },
    ...options,
  });
  clients.push(c);
  return c;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}

function expectClean(error: unknown, secret: string): void {
  const texts = [
    JSON.stringify(error),
    util.inspect(error, { showHidden: true, depth: null }),
    String((error as Error).stack),
    String((error as Error).message),
    util.inspect((error as { cause?: unknown }).cause, { showHidden: true, depth: null }),
  ];
  for (const text of texts) {
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/Digest username/i);
    expect(text).not.toMatch(/response="/);
    expect(text).not.toMatch(/authorization/i);
  }
}

describe("no error ever carries the password or an Authorization header", () => {
  it("holds for every error class, through real failures", async () => {
    const errors: Array<[Error, new (...args: never[]) => OpsManagerError]> = [];
    const get = (path: string, c = makeClient()) => failure(c.request({ method: "GET", path }));

    errors.push([await get("/api-error"), ApiError]);
    errors.push([await get("/html-error"), ApiError]);
    errors.push([await get("/html"), ResponseShapeError]);
    errors.push([await get("/bad-json"), ResponseShapeError]);
    errors.push([await get("/large"), ResponseTooLargeError]);
    errors.push([await get("/drop"), NetworkError]);
    errors.push([await get("/hang", makeClient({ timeoutMs: 300 })), TimeoutError]);
    errors.push([
      await get("/ok", makeClient({ password: `${DEFAULT_PASSWORD}-wrong` })),
      AuthenticationError,
    ]);
    errors.push([await get("/ok", makeClient({ baseUrl: tlsServer.origin })), TlsError]);
    const plainToTls = tlsServer.origin.replace("https:", "http:");
    errors.push([await get("/ok", makeClient({ baseUrl: plainToTls })), SchemeMismatchError]);
    const tlsToPlain = server.origin.replace("http:", "https:");
    errors.push([await get("/ok", makeClient({ baseUrl: tlsToPlain })), SchemeMismatchError]);
    errors.push([
      await failure(
        Promise.resolve().then(
          () =>
            new HttpClient({
              baseUrl: `https://u:${DEFAULT_PASSWORD}@h`,
              username: "u",
              password: DEFAULT_PASSWORD,
            }),
        ),
      ),
      InvalidArgumentError,
    ]);

    for (const [error, kind] of errors) {
      expect(error).toBeInstanceOf(kind);
      expect(error).toBeInstanceOf(OpsManagerError);
      expect(typeof (error as OpsManagerError).code).toBe("string");
      expectClean(error, DEFAULT_PASSWORD);
    }
    // The hostile echo did reach the client: it was redacted, not lost.
    expect(errors[0]?.[0].message).toContain("[redacted]");
  });

  it("printing a client shows neither the password nor a digest header", async () => {
    const c = makeClient();
    await c.request({ method: "GET", path: "/ok" });
    const printed = util.inspect(c, { showHidden: true, depth: 6 });
    expect(printed).not.toContain(DEFAULT_PASSWORD);
    expect(printed).not.toMatch(/Digest username/);
  });
});
