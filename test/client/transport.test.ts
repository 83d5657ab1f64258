import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiError,
  closeAllHttpClients,
  getHttpClient,
  HttpClient,
  InvalidArgumentError,
  ResponseShapeError,
  ResponseTooLargeError,
  resolveBaseUrl,
  TimeoutError,
} from "../../provider/client";
import type { ClientOptions } from "../../provider/client/types";
import { advanceUntil, turns, until, watched, withFakeTimeouts } from "../support/fake-clock";
import { orgKeysPage } from "../support/listing";
import { perTest } from "./support/clients";
import { DEFAULT_PASSWORD, DEFAULT_USER, sendJson } from "./support/digest-server";

const { setup, serve } = perTest({ retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 1 } });

afterEach(async () => {
  await closeAllHttpClients();
});

describe("deadlines", () => {
  // The deadline is the subject: the client's timer runs on vitest's fake clock, moved by the test, while
  // the sockets stay real. undici's own timers (its backups at timeoutMs + 1 s) are on the same fake
  // clock, so a failure at exactly timeoutMs is the client's deadline and nothing else.
  it("a hanging server fails at timeoutMs and not before, naming the call and the timeout", async () => {
    let arrived = 0;
    const { server, client } = await setup(
      {
        handler: () => {
          arrived += 1;
        },
      },
      { timeoutMs: 300 },
    );
    await withFakeTimeouts(async () => {
      const call = watched(client.request({ method: "GET", path: "/hang" }).catch((e: unknown) => e));
      await until(() => arrived === 1);
      vi.advanceTimersByTime(299);
      await turns();
      expect(call.settled()).toBe(false);
      vi.advanceTimersByTime(1);
      const error = await call.promise;
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as TimeoutError).code).toBe("OM_ERR_TIMEOUT");
      expect((error as Error).message).toContain("within 300 ms");
      expect((error as Error).message).toMatch(/^GET \/hang timed out: /);
      expect((error as TimeoutError).url).toBe(`${server.origin}/api/public/v1.0/hang`);
    });
    // One signed request, cut once: no retry (maxAttempts 1).
    expect(arrived).toBe(1);
  });

  it("a body that trickles in a byte at a time times out on the whole-body deadline", async () => {
    let written = 0;
    const { client } = await setup(
      {
        handler: (_req, res) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.write("[");
          // setInterval is not faked: the trickle goes on in real time while the fake clock stands.
          const timer = setInterval(() => {
            res.write("1,");
            written += 1;
          }, 30);
          res.on("close", () => clearInterval(timer));
        },
      },
      { timeoutMs: 400 },
    );
    await withFakeTimeouts(async () => {
      const call = watched(client.request({ method: "GET", path: "/trickle" }).catch((e: unknown) => e));
      // Bytes keep coming (each would restart a per-chunk body timeout); the call is still reading at 399 ms.
      await until(() => written >= 3);
      vi.advanceTimersByTime(399);
      await turns();
      expect(call.settled()).toBe(false);
      const before = written;
      await until(() => written >= before + 3);
      expect(call.settled()).toBe(false);
      vi.advanceTimersByTime(1);
      expect(await call.promise).toBeInstanceOf(TimeoutError);
    });
  });

  it("a timed-out GET is retried, a fresh deadline per attempt", async () => {
    let arrived = 0;
    const { client } = await setup(
      {
        handler: (_req, res, ctx) => {
          arrived += 1;
          if (ctx.count > 1) sendJson(res, 200, { ok: true });
        },
      },
      { timeoutMs: 200, retry: { maxAttempts: 2, baseDelayMs: 1 } },
    );
    await withFakeTimeouts(async () => {
      const call = watched(client.request({ method: "GET", path: "/slow-once" }));
      await until(() => arrived === 1);
      vi.advanceTimersByTime(200);
      // The backoff (at most maxDelayMs, 20 ms) on the fake clock, then the second attempt, answered with
      // the clock standing: a deadline shared with the first attempt would have cut it at once.
      await advanceUntil(() => arrived === 2, 1, 20);
      expect((await call.promise).body).toEqual({ ok: true });
    });
    expect(client.stats.retries).toBe(1);
  });
});

describe("body size cap", () => {
  it("a 300 MB streamed body fails at the cap with ResponseTooLargeError, read no further and never buffered", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let written = 0;
    const { client } = await setup({
      handler: (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const pump = (): void => {
          while (written < 300 * 1024 * 1024) {
            written += chunk.length;
            if (!res.write(chunk)) {
              res.once("drain", pump);
              return;
            }
          }
          res.end();
        };
        res.on("close", () => res.removeAllListeners("drain"));
        pump();
      },
    });
    global.gc?.();
    const before = process.memoryUsage().rss;
    const error = await client.request({ method: "GET", path: "/huge" }).catch((e: unknown) => e);
    const grown = process.memoryUsage().rss - before;
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).limitBytes).toBe(32 * 1024 * 1024);
    expect((error as Error).message).toContain("maxResponseBytes");
    expect(grown).toBeLessThan(100 * 1024 * 1024);
    // The server got no further than the cap and what the sockets' buffers hold (36 MB seen): the client
    // stopped reading at 32 MB rather than late, which is what "quickly" meant, counted in bytes not ms.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it("a declared Content-Length over the cap fails before reading", async () => {
    const { client } = await setup(
      {
        handler: (_req, res) => {
          res.writeHead(200, { "content-type": "application/json", "content-length": 10_000_000 });
          res.write("[");
        },
      },
      { maxResponseBytes: 1024 },
    );
    const error = await client.request({ method: "GET", path: "/declared" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).contentLength).toBe(10_000_000);
  });
});

describe("answers", () => {
  it("parses JSON, and an empty body is undefined", async () => {
    const { client } = await setup({
      handler: (req, res) => {
        if (req.method === "DELETE") {
          res.writeHead(204);
          res.end();
        } else sendJson(res, 200, { results: [{ id: "a" }], totalCount: 1 });
      },
    });
    const got = await client.request({ method: "GET", path: "/list" });
    expect(got.body).toEqual({ results: [{ id: "a" }], totalCount: 1 });
    expect(got.url).toMatch(/\/api\/public\/v1\.0\/list$/);
    const deleted = await client.request({ method: "DELETE", path: "/list/a" });
    expect(deleted).toMatchObject({ status: 204, body: undefined });
  });

  it("an HTML error page gives an ApiError that quotes the start of it", async () => {
    const page = `<html><head><title>502 Bad Gateway</title></head><body>${"x".repeat(5_000)}</body></html>`;
    const { client } = await setup({
      handler: (_req, res) => {
        res.writeHead(502, { "content-type": "text/html" });
        res.end(page);
      },
    });
    const error = await client.request({ method: "GET", path: "/p" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const message = (error as Error).message;
    expect(message).toContain('502 — the server answered with text/html "<html><head><title>502 Bad Gateway');
    expect(message).toContain("(the server failed; try again)");
    expect(message.length).toBeLessThan(500);
  });

  it("an HTML page with status 200 is a ResponseShapeError", async () => {
    const { client } = await setup({
      handler: (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("<!doctype html><html><body>Please log in</body></html>");
      },
    });
    const error = await client.request({ method: "GET", path: "/p" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as ResponseShapeError).code).toBe("OM_ERR_RESPONSE_SHAPE");
    expect((error as Error).message).toContain("the body is text/html, not JSON");
    expect((error as Error).message).toContain("Please log in");
  });

  it("malformed JSON is a ResponseShapeError that says so and starts with the call", async () => {
    const { server, client } = await setup({
      handler: (_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"results": [1, 2,');
      },
    });
    const error = await client.request({ method: "GET", path: "/p" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect((error as Error).message).toContain("not valid JSON");
    expect((error as Error).message.startsWith("GET /p answered 200, but ")).toBe(true);
    expect((error as ResponseShapeError).url).toBe(`${server.origin}/api/public/v1.0/p`);
  });

  it("turns the server's error body into an ApiError with its fields", async () => {
    const { server, client } = await setup({
      handler: (_req, res) =>
        sendJson(res, 400, {
          detail: "desc must be 1 to 250 characters",
          error: 400,
          errorCode: "INVALID_ATTRIBUTE",
          parameters: ["desc"],
          reason: "Bad Request",
        }),
    });
    const error = await client
      .request({ method: "PATCH", path: "/orgs/5f1/apiKeys/5f2", body: { desc: "" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: "OM_ERR_API",
      status: 400,
      errorCode: "INVALID_ATTRIBUTE",
      detail: "desc must be 1 to 250 characters",
      reason: "Bad Request",
      parameters: ["desc"],
      method: "PATCH",
      path: "/orgs/5f1/apiKeys/5f2",
    });
    expect((error as Error).message).toBe(
      "PATCH /orgs/5f1/apiKeys/5f2 failed: 400 INVALID_ATTRIBUTE — desc must be 1 to 250 characters " +
        "(correct the value the server names and run again)",
    );
    expect((error as ApiError).url).toBe(`${server.origin}/api/public/v1.0/orgs/5f1/apiKeys/5f2`);
  });

  it("a 403 read through the API layer says the credentials are not allowed the call and what to change; the transport alone names no role", async () => {
    const { client } = await setup({
      handler: (_req, res) =>
        sendJson(res, 403, { detail: "Forbidden.", errorCode: "USER_CANNOT_ACCESS_ORG", error: 403 }),
    });
    const error = await orgKeysPage(client, "5f1").catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^GET \/orgs\/5f1\/apiKeys failed: 403 USER_CANNOT_ACCESS_ORG — Forbidden\. \(the credentials are valid but not allowed this call: give the API key a role/,
    );
    const bare = await client.request({ method: "GET", path: "/orgs/5f1/apiKeys" }).catch((e: unknown) => e);
    expect((bare as Error).message).toBe(
      "GET /orgs/5f1/apiKeys failed: 403 USER_CANNOT_ACCESS_ORG — Forbidden.",
    );
  });

  it("a 404 hints to check the id", async () => {
    const { client } = await setup({
      handler: (_req, res) =>
        sendJson(res, 404, {
          detail: "No API key with ID 5f2 exists.",
          errorCode: "API_KEY_NOT_FOUND",
          error: 404,
        }),
    });
    const error = await client
      .request({ method: "GET", path: "/orgs/o/apiKeys/5f2" })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /^GET \/orgs\/o\/apiKeys\/5f2 failed: 404 API_KEY_NOT_FOUND — No API key with ID 5f2 exists\. \(check the id\)$/,
    );
  });
});

describe("base URL and options", () => {
  it("takes the base URL as the root that paths are below, without a trailing slash", () => {
    expect(resolveBaseUrl("http://10.0.0.5:8080/api/public/v1.0/")).toBe(
      "http://10.0.0.5:8080/api/public/v1.0",
    );
    expect(resolveBaseUrl("  HTTPS://OM.example.com/x ")).toBe("https://om.example.com/x");
  });

  it("rejects a bad base URL eagerly, naming the option and the rule", () => {
    const bad: Array<[string, RegExp]> = [
      ["om.example.com:8443", /baseUrl: must start with https:\/\/ or http:\/\//],
      ["localhost", /must start with https:\/\//],
      ["ftp://om.example.com", /must start with https:\/\//],
      ["https://om.example.com/?x=1", /query string/],
      ["https://om.example.com/#frag", /fragment/],
      ["", /baseUrl/],
    ];
    for (const [url, rule] of bad) {
      expect(() => resolveBaseUrl(url)).toThrow(InvalidArgumentError);
      expect(() => resolveBaseUrl(url)).toThrow(rule);
    }
  });

  it("never quotes a base URL that carries credentials", () => {
    const error = (() => {
      try {
        new HttpClient({
          baseUrl: "https://user:hunter2@om.example.com",
          username: "u",
          password: "hunter2",
        });
      } catch (e) {
        return e as InvalidArgumentError;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error?.option).toBe("baseUrl");
    expect(error?.message).toContain("must not contain a user name or password");
    expect(error?.message).not.toContain("hunter2");
  });

  it("validates every option in the constructor", () => {
    const ok: ClientOptions = { baseUrl: "https://om.example.com", username: "u", password: "p" };
    const cases: Array<[Partial<ClientOptions>, string]> = [
      [{ username: "" }, "username"],
      [{ password: "" }, "password"],
      [{ username: "a\r\nX-Evil: 1" }, "username"],
      [{ timeoutMs: 0 }, "timeoutMs"],
      [{ timeoutMs: 1.5 }, "timeoutMs"],
      [{ maxResponseBytes: -1 }, "maxResponseBytes"],
      [{ retry: { maxAttempts: 0 } }, "retry.maxAttempts"],
      [{ caPem: "/etc/ssl/ca.pem" }, "caPem"],
      [{ userAgent: "x\ny" }, "userAgent"],
    ];
    for (const [override, option] of cases) {
      let error: unknown;
      try {
        new HttpClient({ ...ok, ...override });
      } catch (e) {
        error = e;
      }
      expect(error, option).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).option).toBe(option);
      expect((error as Error).message).toMatch(new RegExp(`^invalid option ${option.replace(".", "\\.")}: `));
    }
  });

  it("rejects a path that is not below the API root", async () => {
    const c = new HttpClient({ baseUrl: "https://om.example.com", username: "u", password: "p" });
    await expect(c.request({ method: "GET", path: "orgs" })).rejects.toThrow(/invalid option path/);
    await expect(c.request({ method: "GET", path: "/orgs?x=1" })).rejects.toThrow(/give query parameters/);
    expect(c.stats.roundTrips).toBe(0);
  });

  it("getHttpClient shares one client per API root and credentials, so one digest session", async () => {
    const server = await serve();
    const options = { baseUrl: server.origin, username: DEFAULT_USER, password: DEFAULT_PASSWORD };
    const a = getHttpClient(options);
    const b = getHttpClient({ ...options, baseUrl: `${server.origin}/` });
    expect(b).toBe(a);
    expect(getHttpClient({ ...options, password: "other" })).not.toBe(a);
    await Promise.all([a.request({ method: "GET", path: "/1" }), b.request({ method: "GET", path: "/2" })]);
    expect(server.requests).toHaveLength(3);
    await a.close();
    expect(getHttpClient(options)).not.toBe(a);
  });
});
