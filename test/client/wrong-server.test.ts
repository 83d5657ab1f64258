/**
 * A base URL that cannot work: the other scheme than the server speaks, or no server at all. Each is
 * told in one line that names the setting to change, and the scheme mix-ups fail at once: retrying
 * them would only repeat the same failure for the whole backoff.
 */
import * as net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  type HttpClient,
  NetworkError,
  OpsManagerError,
  SchemeMismatchError,
} from "../../provider/client";
import type { ClientOptions } from "../../provider/client/types";
import { advanceUntil, watched, withFakeTimeouts } from "../support/fake-clock";
import { freePort } from "../support/http";
import { makeTestCa } from "../support/tls";
import { digestClient } from "./support/clients";
import { type DigestServer, startDigestServer } from "./support/digest-server";

const SETTING = "opsmanager:baseUrl or the environment variable OPSMANAGER_BASE_URL";

let tlsServer: DigestServer;
let plainServer: DigestServer;
const rawServers: net.Server[] = [];
const clients: HttpClient[] = [];

beforeAll(async () => {
  const pki = makeTestCa();
  tlsServer = await startDigestServer({ tls: { key: pki.serverKey, cert: pki.serverCert } });
  plainServer = await startDigestServer();
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all([tlsServer?.close(), plainServer?.close()]);
  await Promise.all(rawServers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A client with the default retry policy (8 attempts), as the provider builds it from the URL a user set. */
function makeClient(baseUrl: string, options: Partial<ClientOptions> = {}): HttpClient {
  const c = digestClient(baseUrl, { configuredUrl: baseUrl, settingNames: { baseUrl: SETTING }, ...options });
  clients.push(c);
  return c;
}

function send(client: HttpClient, method: "GET" | "POST" = "GET"): Promise<Error> {
  const body = method === "POST" ? { a: 1 } : undefined;
  return client.request({ method, path: "/orgs/o/apiKeys", body }).then(
    () => undefined as unknown as Error,
    (e: unknown) => e as Error,
  );
}

async function failure(client: HttpClient, method: "GET" | "POST" = "GET") {
  return { error: await send(client, method) };
}

/**
 * The call's failure with every timer on a fake clock that never moves: it settles only if it fails at
 * once, with no backoff waited and no timeout met (either would hang it, and the test fails).
 */
async function failureAtOnce(client: HttpClient, method: "GET" | "POST" = "GET") {
  return { error: await withFakeTimeouts(() => send(client, method)) };
}

/** A loopback server that answers whatever it is sent with `answer`, then closes. */
async function rawServer(answer: Buffer | string): Promise<number> {
  const server = net.createServer((socket) => {
    socket.once("data", () => socket.end(answer));
    socket.on("error", () => undefined);
  });
  rawServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

/** `text` as a regular expression that matches it literally. */
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the other scheme than the server speaks", () => {
  it("http:// to an HTTPS server fails at once, in one line that says to use https:// and names the setting", async () => {
    const client = makeClient(`http://127.0.0.1:${tlsServer.port}`);
    const { error } = await failureAtOnce(client);
    expect(error).toBeInstanceOf(SchemeMismatchError);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({
      code: "OM_ERR_SCHEME_MISMATCH",
      serverScheme: "https",
      suggestedBaseUrl: `https://127.0.0.1:${tlsServer.port}`,
      requestSent: false,
    });
    expect(error.message).toBe(
      `GET /orgs/o/apiKeys failed: the server at 127.0.0.1:${tlsServer.port} speaks HTTPS, not plain HTTP; ` +
        `use https://127.0.0.1:${tlsServer.port} as the base URL (${SETTING})`,
    );
    expect(error).toMatchObject({
      method: "GET",
      path: "/orgs/o/apiKeys",
      url: `http://127.0.0.1:${tlsServer.port}/api/public/v1.0/orgs/o/apiKeys`,
    });
    // One attempt, no retry: the default policy would have spent its whole backoff on this.
    expect(client.stats).toMatchObject({ roundTrips: 1, retries: 0 });
    expect(tlsServer.requests).toHaveLength(0);
  });

  it("a POST over http:// to an HTTPS server is not taken for one the server may have acted on", async () => {
    const client = makeClient(`http://localhost:${tlsServer.port}/api/public/v1.0`);
    const { error } = await failure(client, "POST");
    expect(error).toBeInstanceOf(SchemeMismatchError);
    expect((error as SchemeMismatchError).requestSent).toBe(false);
    expect(error.message).toContain(
      `use https://localhost:${tlsServer.port}/api/public/v1.0 as the base URL`,
    );
    expect(error.message).not.toContain("may have");
    expect(client.stats).toMatchObject({ roundTrips: 1, retries: 0 });
  });

  describe("met by the bodyless request that fetches the challenge before a POST", () => {
    const challengeHead = (port: number) =>
      `GET /orgs/o/apiKeys (the bodyless request that fetches the authentication challenge, sent before the POST) failed: the server at 127.0.0.1:${port}`;
    const notSent = "; the POST itself was not sent, so the server did not act on it";
    const challengeUrl = (base: string) => `${base}/api/public/v1.0/orgs/o/apiKeys`;

    it("http:// to an HTTPS server names that request and says the POST was not sent", async () => {
      const base = `http://127.0.0.1:${tlsServer.port}`;
      const { error } = await failure(makeClient(base), "POST");
      expect(error).toBeInstanceOf(SchemeMismatchError);
      expect(error).toMatchObject({ method: "GET", probeFor: "POST", requestSent: false });
      expect(error.message).toBe(
        `${challengeHead(tlsServer.port)} speaks HTTPS, not plain HTTP; use https://127.0.0.1:${tlsServer.port} ` +
          `as the base URL (${SETTING})${notSent}`,
      );
      expect((error as NetworkError).url).toBe(challengeUrl(base));
    });

    it("http:// to a server that answers with a TLS alert names that request and says the POST was not sent", async () => {
      const port = await rawServer(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]));
      const base = `http://127.0.0.1:${port}`;
      const { error } = await failure(makeClient(base), "POST");
      expect(error).toBeInstanceOf(SchemeMismatchError);
      expect(error.message).toMatch(
        new RegExp(`^${literally(challengeHead(port))} speaks HTTPS, not plain HTTP`),
      );
      expect(error.message.endsWith(notSent)).toBe(true);
      expect((error as NetworkError).url).toBe(challengeUrl(base));
    });

    it("https:// to a plain HTTP server names that request and says the POST was not sent", async () => {
      const base = `https://127.0.0.1:${plainServer.port}`;
      const { error } = await failure(makeClient(base), "POST");
      expect(error).toBeInstanceOf(SchemeMismatchError);
      expect(error.message).toMatch(
        new RegExp(`^${literally(challengeHead(plainServer.port))} answers plain HTTP, not HTTPS`),
      );
      expect(error.message.endsWith(notSent)).toBe(true);
      expect((error as NetworkError).url).toBe(challengeUrl(base));
      expect(plainServer.requests).toHaveLength(0);
    });
  });

  it("http:// to a server that answers with a TLS alert record is named the same way", async () => {
    // What a TLS stack that answers a plain request with an alert sends: a fatal protocol_version alert.
    const port = await rawServer(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]));
    const client = makeClient(`http://127.0.0.1:${port}`);
    const { error } = await failureAtOnce(client);
    expect(error).toBeInstanceOf(SchemeMismatchError);
    expect(error.message).toContain(
      `speaks HTTPS, not plain HTTP; use https://127.0.0.1:${port} as the base URL`,
    );
    expect(error.message).not.toContain("\n");
    expect(client.stats).toMatchObject({ roundTrips: 1, retries: 0 });
  });

  it("http:// to a TLS front end that answers 400 'plain HTTP request was sent to HTTPS port' says to use https://", async () => {
    const page =
      "<html><head><title>400 The plain HTTP request was sent to HTTPS port</title></head><body></body></html>";
    const port = await rawServer(
      "HTTP/1.1 400 Bad Request\r\nContent-Type: text/html\r\nConnection: close\r\n" +
        `Content-Length: ${page.length}\r\n\r\n${page}`,
    );
    const client = makeClient(`http://127.0.0.1:${port}`);
    const { error } = await failure(client);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect(error.message).toContain(
      `(the server speaks HTTPS: use https://127.0.0.1:${port} as the base URL (${SETTING}))`,
    );
    expect(client.stats.roundTrips).toBe(1);
  });

  it("https:// to a plain HTTP server fails at once, in one line without OpenSSL's text, naming http:// and the setting", async () => {
    const client = makeClient(`https://127.0.0.1:${plainServer.port}`);
    const { error } = await failureAtOnce(client);
    expect(error).toBeInstanceOf(SchemeMismatchError);
    expect(error).toMatchObject({
      code: "OM_ERR_SCHEME_MISMATCH",
      serverScheme: "http",
      suggestedBaseUrl: `http://127.0.0.1:${plainServer.port}`,
      requestSent: false,
    });
    expect(error.message).toContain(
      `GET /orgs/o/apiKeys failed: the server at 127.0.0.1:${plainServer.port} answers plain HTTP, not HTTPS`,
    );
    expect(error.message).toContain(`use http://127.0.0.1:${plainServer.port} as the base URL (${SETTING})`);
    expect(error.message).not.toMatch(/\n|SSL routines|ssl3_get_record|:error:/);
    expect(client.stats).toMatchObject({ roundTrips: 1, retries: 0 });
    expect(plainServer.requests).toHaveLength(0);
  });
});

describe("no server", () => {
  it("a refused port is reported with the attempts made and the time they took, naming the setting", async () => {
    const port = await freePort();
    const client = makeClient(`http://127.0.0.1:${port}`, {
      retry: { maxAttempts: 4, baseDelayMs: 60, maxDelayMs: 120 },
    });
    // The backoff on a fake clock, Date with it, moved by the test a millisecond at a time: the time the
    // attempts took is the policy's waits alone, so the 2 s refusal window never runs out on a busy
    // machine, and the caller's clock and the client's are one.
    const { error, ms } = await withFakeTimeouts(
      async () => {
        const started = Date.now();
        const call = watched(send(client));
        await advanceUntil(call.settled, 1, 10_000);
        return { error: await call.promise, ms: Date.now() - started };
      },
      { date: true },
    );
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toBeInstanceOf(OpsManagerError);
    expect(error).toMatchObject({ code: "OM_ERR_NETWORK", causeCode: "ECONNREFUSED", requestSent: false });
    expect(error).toMatchObject({ attempts: 4 });
    expect(error.message).toContain(`the connection was refused by 127.0.0.1:${port}`);
    expect(error.message).toContain(`check the host and port of the base URL (${SETTING})`);
    const note = /; 4 attempts over (\d+\.\d) s$/.exec(error.message);
    expect(error.message).toMatch(/^GET \/orgs\/o\/apiKeys failed: /);
    expect((error as NetworkError).url).toBe(`http://127.0.0.1:${port}/api/public/v1.0/orgs/o/apiKeys`);
    expect(note).not.toBeNull();
    const reported = Number(note![1]) * 1000;
    // The message rounds to a tenth of a second; the error's elapsedMs is the caller's own measure.
    expect(Math.abs(reported - (error as NetworkError).elapsedMs!)).toBeLessThanOrEqual(50);
    expect((error as NetworkError).elapsedMs).toBe(ms);
    // Three waits, each within the policy's ceilings (60, 120, 120 ms), and no more.
    expect(ms).toBeLessThanOrEqual(60 + 120 + 120);
    expect(client.stats).toMatchObject({ roundTrips: 4, retries: 3 });
  });

  it("an error that was not retried says nothing of attempts", async () => {
    const port = await freePort();
    const client = makeClient(`http://127.0.0.1:${port}`, { retry: { maxAttempts: 1 } });
    const { error } = await failure(client);
    expect(error).toMatchObject({ causeCode: "ECONNREFUSED", attempts: 1 });
    expect(error.message).not.toMatch(/attempts? over/);
  });
});
